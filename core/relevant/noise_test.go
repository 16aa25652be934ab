package relevant_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/relevant"
)

// TestAboutSkipsNoise: testdata/ws/noise is a small Go package whose files
// open with a licence header, and a README with image URLs. Each case puts
// the cursor on a word that says nothing about the code (an error
// variable, a receiver, the package line, the licence, a URL's hash, a
// commit hash) and states the panel's "about", what was skipped, and that
// no noise word reached the query; the last cases are names, kept.
func TestAboutSkipsNoise(t *testing.T) {
	w := mineWorkspace(t, "noise")
	cases := []struct {
		name, open, marker string
		at                 int // byte of the marker the cursor is on
		about, skipped     string
		// note is a part of Result.Note; "" wants no note.
		note string
	}{
		{name: "an error variable", open: "command.go", marker: "if err != nil", at: 3,
			about: "ExecuteC", skipped: "err", note: "Skipped err under the cursor (a name every file uses); the hits are about ExecuteC"},
		{name: "a one-letter receiver", open: "command.go", marker: "return c, fmt", at: 7,
			about: "ExecuteC", skipped: "c", note: "Skipped c under the cursor (the method's receiver)"},
		{name: "the receiver in the method's first line", open: "command.go", marker: "func (c *Command) ExecuteC", at: 6,
			about: "ExecuteC", skipped: "c", note: "the hits are about ExecuteC"},
		{name: "a one-letter variable", open: "find.go", marker: "n++", at: 0,
			about: "countVerbs", skipped: "n", note: "Skipped n under the cursor (too short to say what it is); the hits are about countVerbs"},
		{name: "a longer receiver", open: "command.go", marker: "cs.items[cmd.Use]", at: 1,
			about: "register", skipped: "cs", note: "Skipped cs under the cursor (the method's receiver)"},
		{name: "a package line after a licence header", open: "command.go", marker: "package widget", at: 9,
			about: "command.go:15", skipped: "widget", note: "Skipped the package line (every file of the package has one); nothing better is under the cursor"},
		{name: "the licence header", open: "command.go", marker: "Apache License", at: 2,
			about: "command.go:3", skipped: "Apache", note: "Skipped the licence header"},
		{name: "an image URL's hash in a README", open: "README.md", marker: "8f3a9c2e4b1d", at: 4,
			about: "Widget", skipped: "8f3a9c2e4b1d7f60a5e9c3b2d1f0e4a7", note: "Skipped the URL under the cursor; the hits are about Widget"},
		{name: "a commit hash in prose", open: "README.md", marker: "in 9c2e4b1d7f60", at: 6,
			about: "Changes", skipped: "9c2e4b1d7f60", note: "(a hash)"},
		{name: "a method called on a receiver is a name", open: "command.go", marker: "initDefaultHelpCmd()", at: 3,
			about: "initDefaultHelpCmd"},
		{name: "a type is a name", open: "command.go", marker: "Command struct", at: 2,
			about: "Command"},
	}
	// Words of the licence, the URLs and the hashes; "widget" is not
	// among them: the package's own comments and headings say it.
	noise := []string{"err", "license", "apache", "githubusercontent", "https", "shields", "8f3a9c2e4b1d7f60a5e9c3b2d1f0e4a7", "9c2e4b1d7f60"}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(w.root, c.open)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			pos := relevant.Position{Line: -1}
			for i, l := range strings.Split(text, "\n") {
				if j := strings.Index(l, c.marker); j >= 0 {
					pos = relevant.Position{Line: i, Col: j + c.at}
					break
				}
			}
			if pos.Line < 0 {
				t.Fatalf("%q not in %s", c.marker, c.open)
			}
			res, err := relevant.Find(context.Background(), w.p, relevant.Request{Path: path, Root: w.root, Text: text,
				Start: pos, End: pos, Wing: w.wing})
			if err != nil {
				t.Fatal(err)
			}
			if res.About != c.about || res.Clues.Skipped != c.skipped {
				t.Errorf("about %q, skipped %q; want %q, %q (clues %+v)", res.About, res.Clues.Skipped, c.about, c.skipped, res.Clues)
			}
			if c.note == "" && res.Note != "" || !strings.Contains(res.Note, c.note) {
				t.Errorf("note %q, want it to hold %q", res.Note, c.note)
			}
			if c.skipped == "" && c.note == "" {
				return // a name: its own word is the query
			}
			for _, q := range strings.Fields(strings.ToLower(res.Query)) {
				for _, n := range noise {
					if strings.Trim(q, `"()`) == n {
						t.Errorf("noise %q in the query %q", n, res.Query)
					}
				}
			}
		})
	}
}
