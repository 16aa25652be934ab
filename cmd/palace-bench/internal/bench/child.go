package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/palace-dev/palace/core/embed"
)

// childEnv is the environment of every palace child: the given home, and no
// embedding model (backend "none"), whatever the caller's environment says,
// so the figures are the lexical ones the targets are about.
func childEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case embed.EnvHome, embed.EnvModelDir, embed.EnvBackend:
			continue
		}
		env = append(env, kv)
	}
	return append(env, embed.EnvHome+"="+home, embed.EnvBackend+"="+embed.BackendNone)
}

// childCmd is `exe --home home args...` with childEnv.
func childCmd(ctx context.Context, exe, home string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, exe, append([]string{"--home", home}, args...)...)
	cmd.Env = childEnv(home)
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// childRun is a finished child.
type childRun struct {
	stdout []byte
	wall   time.Duration
	cpu    time.Duration // user + system
	// peakMB is the child's own peak resident set (see childPeak) and
	// peakFrom where it comes from; without one, peakErr says why.
	peakMB   float64
	peakFrom string
	peakErr  error
}

// runChild runs `exe --home home args...` to the end and times it from
// start to exit.
func runChild(ctx context.Context, exe, home string, args ...string) (childRun, error) {
	cmd := childCmd(ctx, exe, home, args...)
	var out bytes.Buffer
	errb := &tailBuffer{max: 4096}
	cmd.Stdout, cmd.Stderr = &out, errb
	fail := func(err error) (childRun, error) {
		return childRun{}, fmt.Errorf("palace %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	t := time.Now()
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	// Start returns once the child has exec'd, so this process's peak now
	// bounds what the kernel carried into the child's maxrss.
	self := selfMaxRSSMB()
	hwm := watchHWM(cmd.Process.Pid)
	err := cmd.Wait()
	wall := time.Since(t)
	polled := hwm()
	if err != nil {
		return fail(err)
	}
	ps := cmd.ProcessState
	r := childRun{stdout: out.Bytes(), wall: wall, cpu: ps.UserTime() + ps.SystemTime()}
	r.peakMB, r.peakFrom, r.peakErr = childPeak(maxRSSMB(ps), self, polled)
	return r, nil
}

// childPeak picks a finished child's own peak resident set in MB from its
// rusage maxrss, this process's own peak once the child had exec'd (self),
// and the child's VmHWM as last read while it ran (polled; 0 for none).
//
// maxrss alone can be this process's figure: on Linux, Go starts children
// with vfork (CLONE_VFORK|CLONE_VM), so until exec the child runs in this
// process's memory, and exec records that memory's peak in the child's
// maxrss. maxrss is therefore the child's own only when it exceeds self;
// it then covers the child's whole life. Otherwise the child's own peak is
// the polled VmHWM, which misses only growth in the child's last polling
// interval (10 ms) before exit; without /proc there is no figure.
func childPeak(maxrss, self, polled float64) (float64, string, error) {
	switch {
	case maxrss > self:
		return maxrss, "rusage maxrss", nil
	case polled > 0:
		return polled, fmt.Sprintf("VmHWM read every %s while it ran (its rusage maxrss, %.0f MB, did not exceed the bench process's own peak, %.0f MB)", hwmEvery, maxrss, self), nil
	case maxrss == 0:
		return 0, "", errors.New("no rusage on this platform")
	default:
		return 0, "", fmt.Errorf("the child's rusage maxrss (%.0f MB) does not exceed the bench process's own peak (%.0f MB), which a vforked child's maxrss includes, and there is no /proc to read the child's own", maxrss, self)
	}
}

// hwmEvery is how often watchHWM reads a child's VmHWM.
const hwmEvery = 10 * time.Millisecond

// watchHWM reads a running child's peak resident set (VmHWM) every
// hwmEvery until the returned function is called, which returns the
// highest value read (0 for none: no /proc, or the child was too brief).
// It reads through the child's /proc directory opened now, while the
// child is alive and unreaped, so a later process given the same pid is
// never read.
func watchHWM(pid int) func() float64 {
	dir, err := os.OpenRoot(fmt.Sprintf("/proc/%d", pid))
	if err != nil {
		return func() float64 { return 0 }
	}
	stop, peak := make(chan struct{}), make(chan float64, 1)
	go func() {
		defer dir.Close()
		tick := time.NewTicker(hwmEvery)
		defer tick.Stop()
		best := 0.0
		for {
			// A zombie's status has no VmHWM; a reaped child's cannot be
			// opened: both leave best as it was.
			if raw, err := dir.ReadFile("status"); err == nil {
				if mb, err := statusFieldMB(raw, "VmHWM", dir.Name()); err == nil {
					best = max(best, mb)
				}
			}
			select {
			case <-stop:
				peak <- best
				return
			case <-tick.C:
			}
		}
	}()
	return func() float64 {
		close(stop)
		return <-peak
	}
}

// tailBuffer keeps the last max bytes written to it: a server's log, for
// the error message when it fails, without growing through a long run.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if over := len(t.b) - t.max; over > 0 {
		t.b = append(t.b[:0], t.b[over:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// procStatusMB reads a field of /proc/PID/status (VmRSS: resident now,
// VmHWM: peak resident) in MB. Linux only; elsewhere it fails.
func procStatusMB(pid int, field string) (float64, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("read the resident set: %w", err)
	}
	return statusFieldMB(raw, field, fmt.Sprintf("/proc/%d", pid))
}

// statusFieldMB reads a field in kB of a /proc/PID/status file, raw, read
// from dir, in MB.
func statusFieldMB(raw []byte, field, dir string) (float64, error) {
	for _, line := range strings.Split(string(raw), "\n") {
		rest, ok := strings.CutPrefix(line, field+":")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("%s/status: unexpected %q", dir, line)
		}
		kb, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			return 0, fmt.Errorf("%s/status: %q: %w", dir, line, err)
		}
		return kb / 1024, nil
	}
	return 0, fmt.Errorf("%s/status has no %s", dir, field)
}

// procCPU is the CPU time (user + system) a running process has used so
// far, from /proc/PID/stat (Linux; clock ticks of 10 ms, the kernel's
// USER_HZ on every Linux architecture Go supports).
func procCPU(pid int) (time.Duration, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("read the CPU time: %w", err)
	}
	// The command name (field 2) may hold spaces; fields 3 on follow the
	// last parenthesis. utime and stime are fields 14 and 15.
	i := bytes.LastIndexByte(raw, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected %q", pid, raw)
	}
	f := strings.Fields(string(raw[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: unexpected %q", pid, raw)
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}
