//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// signalLog is n bytes of log lines, the kind of text a raised --max-size
// lets a mine take in whole.
func signalLog(n int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%08d deploy index vector schema query router budget commit branch merge rollback\n", i)
	}
	return b.Bytes()[:n]
}

// signalled starts palace with args in home, sends sig after wait, and
// reports how long it took to exit after the signal, its exit code and
// stderr; stdout goes to stdout (nil: discarded). A command that ended
// before the signal fails the test and reports !ok; the test goes on, so
// what follows it is still tried.
func signalled(t *testing.T, home string, sig syscall.Signal, wait time.Duration, stdout io.Writer, args ...string) (took time.Duration, code int, stderr string, ok bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := palaceCmd(ctx, home, args...)
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = stdout, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		t.Errorf("palace %v ended before the signal (%v): %s", args, err, errb.String())
		return 0, 0, errb.String(), false
	case <-time.After(wait):
	}
	sent := time.Now()
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	<-done
	took = time.Since(sent)
	code = cmd.ProcessState.ExitCode()
	t.Logf("palace %s: exit %d %v after %v; stderr %q", args[0], code, took.Round(time.Millisecond), sig, strings.TrimSpace(errb.String()))
	return took, code, errb.String(), true
}

// stopBound is how long a command may take to exit after a signal: within
// a second on an idle machine; the bound allows a loaded one and is still
// far below the old 13 to 52 s.
const stopBound = 5 * time.Second

// Long commands stop within a few seconds of SIGTERM or SIGINT, whatever
// they are doing. A mine: cutting an 80 MB file (one update of 130,000
// drawers: a 200 MB one went on for 52 s after SIGTERM), or a folder of
// 900 KB files whose finished results were all written first (13 s); it
// exits non-zero saying it was interrupted, leaves a palace doctor passes
// after each of two signals, and the next mine completes. Then, on the
// palace the mines filled, an export, and an import of that export into a
// new palace (which read and checked the whole file first: 40 s for
// 300,000 drawers).
func TestMineStopsOnSignal(t *testing.T) {
	root := t.TempDir()
	big := filepath.Join(root, "big", "huge.log")
	folder := filepath.Join(root, "folder")
	for _, d := range []string{filepath.Dir(big), folder} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(big, signalLog(80<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	part := signalLog(900 << 10)
	for i := 0; i < 80; i++ {
		if err := os.WriteFile(filepath.Join(folder, fmt.Sprintf("f%02d.txt", i)), append(part, fmt.Sprintf("file %d\n", i)...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// One palace for both, in wings of their own, so the export the
	// import reads is large: 250,000 drawers.
	home, mined := t.TempDir(), 0
	for _, tc := range []struct{ name, path string }{{"file", big}, {"folder", folder}} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"mine", tc.path, "--max-size", "100000000", "--no-progress", "--no-vectors"}
			for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
				// Well into the mine: reading and cutting, or writing.
				took, code, stderr, ok := signalled(t, home, sig, 2*time.Second, nil, args...)
				if !ok {
					continue
				}
				if took > stopBound {
					t.Errorf("the mine exited %v after %v, want within %v", took, sig, stopBound)
				}
				if code == 0 || !strings.Contains(stderr, "interrupted") {
					t.Errorf("exit %d, stderr %q: want a non-zero exit saying the mine was interrupted", code, stderr)
				}
				if d := crashDoctor(t, home); !d.OK {
					t.Errorf("doctor after %v: failing %v", sig, d.failing())
				}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			out, errOut, code := clitest.Run(t, palaceCmd(ctx, home, append(args, "--json")...))
			if code != 0 {
				t.Fatalf("the mine after the signals: exit %d, stderr %q", code, errOut)
			}
			var sum mineSummary
			clitest.Decode(t, "mine --json", out, &sum)
			if sum.Interrupted || sum.FilesMined+sum.FilesUnchanged != sum.FilesSeen || sum.FilesSeen == 0 {
				t.Errorf("the mine after the signals did not complete: %+v", sum)
			}
			if d := crashDoctor(t, home); !d.OK {
				t.Errorf("doctor after the complete mine: failing %v", d.failing())
			}
			mined++
		})
	}
	t.Run("export and import", func(t *testing.T) {
		if mined == 0 {
			t.Skip("no mine completed")
		}
		took, code, _, ok := signalled(t, home, syscall.SIGTERM, time.Second, io.Discard, "export")
		if ok && (took > stopBound || code == 0) {
			t.Errorf("export: exit %d %v after SIGTERM, want non-zero within %v", code, took, stopBound)
		}
		dump := filepath.Join(t.TempDir(), "palace.jsonl")
		f, err := os.Create(dump)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := palaceCmd(ctx, home, "export")
		cmd.Stdout = f
		if err := cmd.Run(); err != nil {
			t.Fatalf("export: %v", err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		into := t.TempDir()
		for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
			took, code, stderr, ok := signalled(t, into, sig, time.Second, nil, "import", dump)
			if ok && (took > stopBound || code == 0) {
				t.Errorf("import: exit %d %v after %v, want non-zero within %v; stderr %q", code, took, sig, stopBound, stderr)
			}
			if d := crashDoctor(t, into); !d.OK {
				t.Errorf("doctor after an import stopped by %v: failing %v", sig, d.failing())
			}
		}
	})
}
