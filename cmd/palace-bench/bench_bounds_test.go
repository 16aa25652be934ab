//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 46: `bench --only search --sizes 999999999999` was accepted and
// set out to build a palace of a trillion drawers; it is refused at once,
// exit 2, naming the flag, the value and the range.
func TestBenchSizesOutOfRange(t *testing.T) {
	_, stderr, code := runPalace(t, t.TempDir(), "bench", "--only", "search", "--sizes", "999999999999")
	if code != 2 || !strings.Contains(stderr, "--sizes 999999999999: want at most 1000000 drawers (range 1 to 1000000") {
		t.Errorf("exit %d, stderr %q: want 2 and the range of --sizes", code, stderr)
	}
}

// Issue 46: a failed `bench mine /nonexistent` left a palace in --home
// that made the next `bench mine DIR` refuse ("already holds a palace").
// The failed run leaves home as it found it and the next run mines.
func TestBenchMineAfterFailedRun(t *testing.T) {
	home := t.TempDir()
	_, stderr, code := runPalace(t, home, "bench", "mine", filepath.Join(t.TempDir(), "nonexistent"))
	if code == 0 || !strings.Contains(stderr, "nonexistent") {
		t.Errorf("bench mine of a missing folder: exit %d, %q", code, stderr)
	}
	if es, _ := os.ReadDir(home); len(es) != 0 {
		t.Errorf("the failed run left %d entries in --home (%s...)", len(es), es[0].Name())
	}
	_, stderr, code = runPalace(t, home, "bench", "mine", benchTree(t), "--json")
	if code != 0 {
		t.Errorf("bench mine after a failed run: exit %d, %s", code, stderr)
	}
}
