//go:build unix

package main

import (
	"testing"
)

// badbenchteamCases: `palace bench team` names its bad flag before it
// touches PostgreSQL or the palace at --home.
func badbenchteamCases() []badCase {
	return []badCase{
		{
			name: "bench team --members 1", front: "cli", code: 2,
			want: `--members 1: want at least 2`,
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "bench", "team", "--members", "1")
			},
		},
		{
			name: "bench team --drawers 0", front: "cli", code: 2,
			want: `--drawers 0: want at least 1`,
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "bench", "team", "--drawers", "0")
			},
		},
	}
}
