// Package clitest runs the project's binaries from their own packages'
// tests (cmd/palace, cmd/palace-bench): a sandbox folder that holds the
// binaries, built once, and serves as their children's HOME; the
// sandboxed environment every child gets; running a child for its outputs
// and exit code; and the small file and JSON helpers those tests share.
package clitest

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

// BuildFlags are the go command's flags for the binaries, as the Makefile's.
const BuildFlags = "-buildvcs=false -tags=sqlite_fts5"

// Build is a binary to build into the sandbox: its file name and its
// package, as the go command takes it from the test's folder.
type Build struct{ Name, Pkg string }

// Sandbox is the scratch folder of one test binary's children.
type Sandbox struct{ Dir string }

// New makes a sandbox and builds each binary into it with -trimpath, like
// a release build (gojieba's baked-in dictionary path is then useless, so
// the Chinese tests prove the embedded dictionaries work from a binary
// that lives elsewhere). The folder is 0755 so a child can also run as
// user nobody.
func New(prefix string, builds ...Build) (*Sandbox, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	for _, b := range builds {
		build := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(dir, b.Name), b.Pkg)
		build.Env = append(os.Environ(), "GOFLAGS="+BuildFlags)
		if out, err := build.CombinedOutput(); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("go build %s: %v\n%s", b.Pkg, err, out)
		}
	}
	return &Sandbox{Dir: dir}, nil
}

// Bin is the path of a binary New built.
func (s *Sandbox) Bin(name string) string { return filepath.Join(s.Dir, name) }

// EnvHome is the PALACE_HOME every child sees; commands that need a palace
// get --home, so End fails the run if anything ever created it.
func (s *Sandbox) EnvHome() string { return filepath.Join(s.Dir, "palace-env-home") }

// Env is the environment of every child: the test's, with HOME and
// PALACE_HOME in the sandbox and no PALACE_BIN from outside.
func (s *Sandbox) Env() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PALACE_HOME=") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "PALACE_BIN=") {
			env = append(env, kv)
		}
	}
	return append(env, "PALACE_HOME="+s.EnvHome(), "HOME="+s.Dir)
}

// Command prepares bin with the sandboxed environment; home "" leaves out
// --home.
func (s *Sandbox) Command(ctx context.Context, bin, home string, args ...string) *exec.Cmd {
	if home != "" {
		args = append([]string{"--home", home}, args...)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = s.Env()
	cmd.WaitDelay = time.Second
	return cmd
}

// RunLimit is how long Run30 lets a command run.
const RunLimit = 30 * time.Second

// Run30 runs bin as Command prepares it and fails the test if it does not
// finish within RunLimit.
func (s *Sandbox) Run30(t testing.TB, bin, home string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), RunLimit)
	defer cancel()
	stdout, stderr, code = Run(t, s.Command(ctx, bin, home, args...))
	if ctx.Err() != nil {
		t.Fatalf("%s %v did not finish in %v", filepath.Base(bin), args, RunLimit)
	}
	return stdout, stderr, code
}

// End is what TestMain exits with after m.Run returned code: 1 if a child
// created EnvHome, else code. It removes the sandbox.
func (s *Sandbox) End(code int) int {
	if _, err := os.Stat(s.EnvHome()); err == nil {
		fmt.Fprintln(os.Stderr, "FAIL: a command ignored --home and created $PALACE_HOME")
		code = 1
	}
	os.RemoveAll(s.Dir)
	return code
}

// Run runs cmd and returns its outputs and exit code (-1 if killed).
func Run(t testing.TB, cmd *exec.Cmd) (stdout, stderr string, code int) {
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

// Decode parses a command's JSON output into v.
func Decode(t testing.TB, what, stdout string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(stdout), v); err != nil {
		t.Fatalf("%s: stdout is not the expected JSON: %v\n%s", what, err, stdout)
	}
}

// WriteTree writes files (slash paths relative to root) and their folders.
func WriteTree(t testing.TB, root string, files map[string]string) {
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
