//go:build unix

// Integration tests for the benchmarks. TestMain builds the product binary
// (cmd/palace) and palace-bench side by side, as `make build` does; the
// tests run `palace bench ...` with os/exec, so each also goes through
// palace's shim, which runs the palace-bench beside it, whose children are
// that palace.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const buildFlags = "-buildvcs=false -tags=sqlite_fts5"

var (
	palaceBin string // the product binary, beside benchBin
	benchBin  string // palace-bench
	sandbox   string // shared scratch: the child's HOME and fallback PALACE_HOME
)

// envHome is the PALACE_HOME every child sees; commands that need a palace
// get --home, so TestMain fails if anything ever created it.
func envHome() string { return filepath.Join(sandbox, "palace-env-home") }

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "palace-bench-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sandbox = dir
	palaceBin, benchBin = filepath.Join(dir, "palace"), filepath.Join(dir, "palace-bench")
	for _, b := range []struct{ out, pkg string }{{palaceBin, "../palace"}, {benchBin, "."}} {
		build := exec.Command("go", "build", "-trimpath", "-o", b.out, b.pkg)
		build.Env = append(os.Environ(), "GOFLAGS="+buildFlags)
		if out, err := build.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "go build %s: %v\n%s", b.pkg, err, out)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	code := m.Run()
	if _, err := os.Stat(envHome()); err == nil {
		fmt.Fprintln(os.Stderr, "FAIL: a command ignored --home and created $PALACE_HOME")
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// childEnv is the environment of every child: a sandboxed HOME and
// PALACE_HOME, and no PALACE_BIN from outside.
func childEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PALACE_HOME=") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "PALACE_BIN=") {
			env = append(env, kv)
		}
	}
	return append(env, "PALACE_HOME="+envHome(), "HOME="+sandbox)
}

// palaceCmd prepares the product binary with a sandboxed environment; home
// "" leaves out --home.
func palaceCmd(ctx context.Context, home string, args ...string) *exec.Cmd {
	if home != "" {
		args = append([]string{"--home", home}, args...)
	}
	cmd := exec.CommandContext(ctx, palaceBin, args...)
	cmd.Env = childEnv()
	cmd.WaitDelay = time.Second
	return cmd
}

// runCmd runs cmd and returns its outputs and exit code (-1 if killed).
func runCmd(t *testing.T, cmd *exec.Cmd) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("run %v: %v", cmd.Args, err)
	}
	return out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

// runPalace runs palace with --home home (if not empty) and a 30s limit.
func runPalace(t *testing.T, home string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stdout, stderr, code = runCmd(t, palaceCmd(ctx, home, args...))
	if ctx.Err() != nil {
		t.Fatalf("palace %v did not finish in 30s", args)
	}
	return stdout, stderr, code
}

// decode parses a command's JSON output into v.
func decode(t *testing.T, what, stdout string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(stdout), v); err != nil {
		t.Fatalf("%s: stdout is not the expected JSON: %v\n%s", what, err, stdout)
	}
}

// writeTree writes files (relative slash paths to contents) under root.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// oneLine checks an error message: exactly one line, prefixed
// "palace-bench:" (the binary that refused it).
func oneLine(t *testing.T, stderr string) {
	t.Helper()
	if !strings.HasPrefix(stderr, "palace-bench: ") || !strings.HasSuffix(stderr, "\n") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr should be one line starting with 'palace-bench: ', got %q", stderr)
	}
}
