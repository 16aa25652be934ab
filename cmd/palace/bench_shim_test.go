//go:build unix

package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// shimPalace puts the palace under test in a fresh folder (a hard link, or
// a copy) with, when script is not empty, a palace-bench shell script
// beside it, and returns the palace there.
func shimPalace(t *testing.T, script string) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "palace")
	if err := os.Link(palaceBin, p); err != nil {
		in, err := os.Open(palaceBin)
		if err != nil {
			t.Fatal(err)
		}
		defer in.Close()
		out, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY, 0o755)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(out, in); err != nil {
			t.Fatal(err)
		}
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if script != "" {
		if err := os.WriteFile(filepath.Join(dir, "palace-bench"), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// `palace bench ARGS` runs the palace-bench beside it with the same
// arguments (flags given before "bench" too), standard streams and exit
// code, telling it which palace to start as children ($PALACE_BIN).
func TestBenchRunsPalaceBench(t *testing.T) {
	exe := shimPalace(t, `printf 'args:'; for a in "$@"; do printf ' [%s]' "$a"; done; echo
echo "palace: $PALACE_BIN"
read line; echo "stdin: $line"
echo "to stderr" >&2
exit 7
`)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := palaceCmd(ctx, "", "--home", "/tmp/h o", "bench", "code", "--repo", ".", "--json", "--help")
	cmd.Path, cmd.Args[0] = exe, exe
	cmd.Stdin = strings.NewReader("hello\n")
	out, errOut, code := clitest.Run(t, cmd)
	want := "args: [--home] [/tmp/h o] [code] [--repo] [.] [--json] [--help]\npalace: " + exe + "\nstdin: hello\n"
	if code != 7 || out != want || errOut != "to stderr\n" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 7, %q and %q", code, out, errOut, want, "to stderr\n")
	}
}

// Without palace-bench beside it or on PATH, `palace bench` exits 1 and
// says how to build it.
func TestBenchWithoutPalaceBench(t *testing.T) {
	exe := shimPalace(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := palaceCmd(ctx, "", "bench", "--quick")
	cmd.Path, cmd.Args[0] = exe, exe
	cmd.Env = append(cmd.Env, "PATH="+t.TempDir())
	out, errOut, code := clitest.Run(t, cmd)
	if code != 1 || out != "" || !strings.Contains(errOut, "make build") || !strings.Contains(errOut, "go build -o bin/palace-bench ./cmd/palace-bench") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1 and how to build palace-bench", code, out, errOut)
	}
}
