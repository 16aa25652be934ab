//go:build unix

package main

import (
	"os"
	"path/filepath"
	"testing"
)

// badbenchlocomoCases: `palace bench locomo --conversations` names the flag
// when it selects a conversation the file does not have.
func badbenchlocomoCases() []badCase {
	data := func(t *testing.T, e *badEnv) string {
		p := filepath.Join(e.dir(t, "locomo"), "tiny.json")
		if err := os.WriteFile(p, []byte(`[{"sample_id":"conv-x","conversation":{},"qa":[]}]`), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	return []badCase{
		{
			name: "bench locomo --conversations past the file's end", front: "cli", code: 2,
			want: `--conversations 2: the file has conversations 1 to 1`,
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "bench", "locomo", "--data", data(t, e), "--conversations", "2")
			},
		},
		{
			name: "bench locomo --conversations of an unknown sample_id", front: "cli", code: 2,
			want: `--conversations "conv-y" is neither a position \(1 to 1\) nor a sample_id of the file`,
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "bench", "locomo", "--data", data(t, e), "--conversations", "conv-y")
			},
		},
	}
}
