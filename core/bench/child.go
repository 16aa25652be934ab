package bench

import (
	"bytes"
	"context"
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
	// peakMB is the child's peak resident set (rusage maxrss); 0 when the
	// platform does not say.
	peakMB float64
}

// runChild runs `exe --home home args...` to the end and times it from
// start to exit.
func runChild(ctx context.Context, exe, home string, args ...string) (childRun, error) {
	cmd := childCmd(ctx, exe, home, args...)
	var out bytes.Buffer
	errb := &tailBuffer{max: 4096}
	cmd.Stdout, cmd.Stderr = &out, errb
	t := time.Now()
	err := cmd.Run()
	wall := time.Since(t)
	if err != nil {
		return childRun{}, fmt.Errorf("palace %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	ps := cmd.ProcessState
	return childRun{stdout: out.Bytes(), wall: wall, cpu: ps.UserTime() + ps.SystemTime(), peakMB: maxRSSMB(ps)}, nil
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
	for _, line := range strings.Split(string(raw), "\n") {
		rest, ok := strings.CutPrefix(line, field+":")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("/proc/%d/status: unexpected %q", pid, line)
		}
		kb, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/status: %q: %w", pid, line, err)
		}
		return kb / 1024, nil
	}
	return 0, fmt.Errorf("/proc/%d/status has no %s", pid, field)
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
	f := strings.Fields(string(raw[i+1:]))
	if i < 0 || len(f) < 13 {
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
