//go:build unix

package main

import (
	"testing"
)

// badbenchcodeCases: `palace bench code` names its bad flag and leaves the
// palace at --home alone (it mines into a temporary one).
func badbenchcodeCases() []badCase {
	return []badCase{
		{
			name: "bench code without --repo", front: "cli", code: 2,
			want: `--repo DIR is required`,
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "bench", "code")
			},
		},
		{
			name: "bench code --max 0", front: "cli", code: 2,
			want: `--max 0: want at least 1 query`,
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "bench", "code", "--repo", e.dir(t, "repo"), "--max", "0")
			},
		},
		{
			name: "bench code --repo of a folder that is not a git repository", front: "cli", code: 1,
			want: `--repo .*/notgit: not a git repository with a commit`,
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "bench", "code", "--repo", e.dir(t, "notgit"))
			},
		},
	}
}
