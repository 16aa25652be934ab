//go:build unix

package main

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/palace-dev/palace/cmd/palace-bench/internal/bench"
)

// benchCommands is every command from palace-bench's root (`palace
// bench`) down.
func benchCommands(t *testing.T) []*cobra.Command {
	t.Helper()
	cmds := []*cobra.Command{newRoot()}
	for i := 0; i < len(cmds); i++ {
		cmds = append(cmds, cmds[i].Commands()...)
	}
	return cmds
}

// Every numeric flag of every bench command has its range in
// bench.Bounds (a new flag without one fails here), every entry there
// names a numeric flag that exists, and every default is in range.
func TestBenchFlagsBounded(t *testing.T) {
	flags := map[string]bool{}
	for _, c := range benchCommands(t) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !numericFlag(f) {
				return
			}
			path := benchPath(c)
			flags[path+" --"+f.Name] = true
			if _, ok := bench.BoundOf(path, f.Name); !ok {
				t.Errorf("%s --%s (%s): no bound in bench.Bounds", path, f.Name, f.Value.Type())
			}
		})
		if c.RunE == nil && c.LocalFlags().HasFlags() {
			t.Errorf("%s: no RunE, so checkBenchFlagsFirst checks none of its flags", benchPath(c))
		}
		if err := checkBenchFlags(c); err != nil {
			t.Errorf("%s: a default out of its bound: %v", benchPath(c), err)
		}
	}
	if len(flags) < 10 {
		t.Fatalf("found %d numeric flags: the walk missed commands", len(flags))
	}
	for _, b := range bench.Bounds() {
		if !flags[b.Cmd+" --"+b.Flag] {
			t.Errorf("bench.Bounds has %s --%s: no such numeric flag", b.Cmd, b.Flag)
		}
	}
}

// Each bound is enforced through the binary: one past either end is
// refused before anything runs, exit 2, with the flag, the value and the
// range; a flag type's own limit (a uint64 seed) needs no test.
func TestBenchFlagsRefusedOutOfRange(t *testing.T) {
	home := t.TempDir()
	for _, b := range bench.Bounds() {
		var values []string
		if b.Hi < math.MaxInt64 {
			values = append(values, fmt.Sprint(b.Hi+1))
		}
		if b.Lo > 0 {
			values = append(values, fmt.Sprint(b.Lo-1))
		}
		for _, v := range values {
			args := append(strings.Fields(b.Cmd), "--"+b.Flag, v)
			if b.Cmd == "bench mine" {
				args = append(args, t.TempDir())
			}
			_, stderr, code := runPalace(t, home, args...)
			flag, rng := fmt.Sprintf("--%s %s: want at ", b.Flag, v), fmt.Sprintf("(range %d to %d", b.Lo, b.Hi)
			if code != 2 || !strings.Contains(stderr, flag) || !strings.Contains(stderr, rng) {
				t.Errorf("palace %s: exit %d, %q; want 2, %q and %q", strings.Join(args, " "), code, stderr, flag, rng)
			}
		}
	}
}
