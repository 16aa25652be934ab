//go:build unix

package main

import (
	"path/filepath"
	"testing"
)

// badbenchrelevantCases: `palace bench relevant` names its bad flag and
// leaves the palace at --home alone (it mines into a temporary one).
func badbenchrelevantCases() []badCase {
	return []badCase{
		{
			name: "bench relevant without --repo", front: "cli", code: 2,
			want: `--repo DIR is required`,
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "bench", "relevant")
			},
		},
		{
			name: "bench relevant --max 0", front: "cli", code: 2,
			want: `--max 0: want at least 1 call`,
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "bench", "relevant", "--repo", e.dir(t, "repo"), "--max", "0")
			},
		},
		{
			name: "bench relevant --repo of a missing folder", front: "cli", code: 1,
			want: `--repo .*/missing: not a folder`,
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "bench", "relevant", "--repo", filepath.Join(e.root, "missing"))
			},
		},
	}
}
