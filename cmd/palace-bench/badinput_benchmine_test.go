//go:build unix

package main

import (
	"path/filepath"
	"testing"
)

// badbenchmineCases: `palace bench mine --against` names its bad flag
// before it mines anything.
func badbenchmineCases() []badCase {
	return []badCase{
		{
			name: "bench mine --against a binary that does not exist", front: "cli", code: 2,
			want: `--against .*/no-such-palace: not a palace binary`,
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "bench", "mine", e.dir(t, "src"), "--against", filepath.Join(e.dir(t, "bin"), "no-such-palace"))
			},
		},
		{
			name: "bench mine --rounds 0", front: "cli", code: 2,
			want: `--rounds 0: want at least 1`,
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "bench", "mine", e.dir(t, "src"), "--against", e.dir(t, "bin"), "--rounds", "0")
			},
		},
	}
}
