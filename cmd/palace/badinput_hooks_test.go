package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// badLongSession is a Claude Code session log of n lines from line first
// on: a prompt and its reply per two lines.
func badLongSession(t *testing.T, first, n int) []byte {
	var b strings.Builder
	for i := first; i < first+n; i++ {
		l := map[string]any{"type": "user", "sessionId": "s-bad-long", "cwd": "/work/shop",
			"message": map[string]any{"role": "user", "content": fmt.Sprintf("toklong question %d about the schema migration and its rollback plan", i)}}
		if i%2 == 1 {
			l["type"], l["message"] = "assistant", map[string]any{"id": fmt.Sprintf("a%d", i), "role": "assistant",
				"content": []any{map[string]any{"type": "text", "text": fmt.Sprintf("answer %d: the index is rebuilt after the migration, then the cache is warmed", i)}}}
		}
		j, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(j, '\n'))
	}
	return []byte(b.String())
}

// badHooksCases are issue #16's long-session cases: a session log mined
// before and grown since is read from its last exchange on, so a bad line
// in the new part must still be named by its line in the whole file, and
// nothing mined before may be lost.
func badHooksCases() []badCase {
	var path string
	const lines = 6000 // several 256 KiB pieces
	return []badCase{{
		name: "long session grown by a corrupt line", front: "cli", code: 1,
		want: fmt.Sprintf(`partly readable.*s-bad-long\.jsonl.*line %d`, lines+1),
		setup: func(t *testing.T, e *badEnv) {
			path = filepath.Join(e.dir(t, "long"), "s-bad-long.jsonl")
			badWrite(t, path, badLongSession(t, 0, lines))
			if _, errOut, code := runPalace(t, e.home, "mine", path, "--json"); code != 0 {
				t.Fatalf("first mine: exit %d: %s", code, errOut)
			}
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.Write(append([]byte("{not json at all\n"), badLongSession(t, lines, 2)...)); err != nil {
				t.Fatal(err)
			}
		},
		act: func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "mine", path, "--json") },
		check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
			var s mineSummary
			clitest.Decode(t, "mine", r.out, &s)
			if len(s.Errors) != 1 || s.Errors[0].Path != path {
				t.Errorf("errors %+v, want the session named", s.Errors)
			}
			// The exchange after the bad line is stored, cited by its
			// lines in the whole file.
			badOnlyDrawers(t, added, 1, func(d badRow) bool {
				return d.str("kind") == "conversation" && d.str("source") == path &&
					d.num("line_start") == lines+2 && strings.Contains(d.str("content"), fmt.Sprintf("question %d", lines))
			})
		},
	}}
}
