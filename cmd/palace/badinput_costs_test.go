package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// badCostsCases: salvage targets `repair --into` refuses, and inputs whose
// cost used to be out of proportion (#16 item 12): each must answer
// promptly and lose nothing.
func badCostsCases() []badCase {
	var path string // a file or folder the case made
	return []badCase{
		{
			name: "repair --into an empty name", front: "cli", code: 2,
			want: `into.*empty`,
			act:  func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "repair", "--into", "") },
		},
		{
			name: "repair --into the palace itself", front: "cli", code: 2,
			want: `already holds a palace`,
			act:  func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "repair", "--into", e.home) },
		},
		{
			name: "repair --into a folder with files", front: "cli", code: 2,
			want: `not empty`,
			setup: func(t *testing.T, e *badEnv) {
				path = e.dir(t, "occupied")
				clitest.WriteTree(t, path, map[string]string{"notes.md": "mine\n"})
			},
			act: func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "repair", "--into", path) },
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				if entries, _ := os.ReadDir(path); len(entries) != 1 {
					t.Errorf("repair --into wrote into an occupied folder: %d entries", len(entries))
				}
				badNone(t, added)
			},
		},
		{
			name: "aaak line of 20,000 bad codes", front: "cli", code: 1,
			want: `many\.aaak: 20000 error\(s\)`,
			setup: func(t *testing.T, e *badEnv) {
				path = filepath.Join(e.dir(t, "aaak"), "many.aaak")
				doc := "V1|w|r|2026-01-01|s\n1:" + strings.Repeat("bad+", 19999) + "bad|t|\"q\"|★|joy|CORE\n"
				badWrite(t, path, []byte(doc))
			},
			act: func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "aaak", "check", path) },
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				if !strings.Contains(r.out, "many.aaak:2:3: entity:") {
					t.Errorf("aaak check does not name the line and column: %.300s", r.out)
				}
				badNone(t, added)
			},
		},
		{
			name: "mine under a .gitignore of 20,000 rules", front: "cli",
			setup: func(t *testing.T, e *badEnv) {
				path = e.dir(t, "manyrules")
				var b strings.Builder
				for i := range 20000 {
					fmt.Fprintf(&b, "gen%d.txt\n*.ext%d\n", i, i)
				}
				clitest.WriteTree(t, path, map[string]string{".gitignore": b.String(), "kept.md": "tokmanyrules\n",
					"gen7.txt": "ignored\n", "x.ext9": "ignored\n"})
			},
			act: func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "mine", path, "--json") },
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				badOnlyDrawers(t, added, -1, func(d badRow) bool {
					src := d.str("source")
					return strings.HasSuffix(src, "kept.md") || strings.HasSuffix(src, ".gitignore")
				})
			},
		},
		{
			name: "Chinese query in a palace without Chinese", front: "cli", code: badEither,
			act: func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "search", "清华大学 pnpm") },
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				if entries, _ := os.ReadDir(filepath.Join(e.home, "cache")); len(entries) > 0 {
					t.Errorf("a Chinese query loaded the segmenter in a palace without Chinese (cache holds %d entries)", len(entries))
				}
				badNone(t, added)
			},
		},
	}
}
