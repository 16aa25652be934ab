//go:build unix

// Integration tests for the benchmarks. TestMain builds the product binary
// (cmd/palace) and palace-bench side by side, as `make build` does; the
// tests run `palace bench ...` with os/exec, so each also goes through
// palace's shim, which runs the palace-bench beside it, whose children are
// that palace.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

var (
	box       *clitest.Sandbox // shared scratch: both binaries, the child's HOME and fallback PALACE_HOME
	palaceBin string           // the product binary, beside benchBin
	benchBin  string           // palace-bench
)

func TestMain(m *testing.M) {
	var err error
	if box, err = clitest.New("palace-bench-test-", clitest.Build{Name: "palace", Pkg: "../palace"}, clitest.Build{Name: "palace-bench", Pkg: "."}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	palaceBin, benchBin = box.Bin("palace"), box.Bin("palace-bench")
	os.Exit(box.End(m.Run()))
}

// palaceCmd prepares the product binary with a sandboxed environment; home
// "" leaves out --home.
func palaceCmd(ctx context.Context, home string, args ...string) *exec.Cmd {
	return box.Command(ctx, palaceBin, home, args...)
}

// runPalace runs palace with --home home (if not empty) and a 30s limit.
func runPalace(t *testing.T, home string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return box.Run30(t, palaceBin, home, args...)
}

// oneLine checks an error message: exactly one line, prefixed
// "palace-bench:" (the binary that refused it).
func oneLine(t *testing.T, stderr string) {
	t.Helper()
	if !strings.HasPrefix(stderr, "palace-bench: ") || !strings.HasSuffix(stderr, "\n") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr should be one line starting with 'palace-bench: ', got %q", stderr)
	}
}
