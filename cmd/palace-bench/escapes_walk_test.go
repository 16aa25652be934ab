//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// The hostile text of the walk, as cmd/palace's escape walk has it: clear
// the screen, write the clipboard (OSC 52), reverse the rest of the line
// (U+202E, popped by U+202C), and an invalid UTF-8 byte that some
// terminals read as CSI.
const (
	clearScreen = "\x1b[2J"
	clipboard   = "\x1b]52;c;cGFsYWNl\x07"
	rlo, pdf    = "\u202e", "\u202c"
	badByte     = "\x9b"
)

// walkSkipped are the bench commands the walk does not run, and why.
// Every other command must have a row in benchWalkTable.
var walkSkipped = map[string]string{
	"bench team": "needs a PostgreSQL server it may create databases in",
}

// walkRun is one command line of the walk: the arguments after `palace
// bench SUBCOMMAND`, the exit code it must give and, when the hostile
// value must show, the escape that proves it did.
type walkRun struct {
	args  []string
	code  int
	shows string
}

// benchWalkTable gives every bench command the walk runs its command
// lines, in human mode, on a project and a LoCoMo file full of hostile
// text. A command missing here fails the walk.
func benchWalkTable(t *testing.T) map[string][]walkRun {
	scratch, src := t.TempDir(), t.TempDir()
	proj := filepath.Join(src, "proj")
	clitest.WriteTree(t, proj, map[string]string{
		"walk" + clearScreen + clipboard + rlo + badByte + ".md": "walkzebra note " + clearScreen + " and " + clipboard + " then " + rlo + "txt.exe" + pdf + "\rFORGED line\n\tindented\n",
		"ro" + rlo + "om/plain.md":                               "walkzebra plain words in the hostile room\n",
		"code" + rlo + "/main.go":                                "package main\n\n// walkzebra " + rlo + "evil" + pdf + "\nfunc main() {}\n",
	})
	locomo := filepath.Join(scratch, "locomo.json")
	if err := os.WriteFile(locomo, []byte(`[{"sample_id":"walk`+rlo+`","conversation":{"speaker_a":"Ca`+rlo+`ro","speaker_b":"Mel\u001b[2J",`+
		`"session_1_date_time":"1:56 pm on 8 May, 2023","session_1":[{"speaker":"Ca`+rlo+`ro","dia_id":"D1:1","text":"walkzebra \u001b]52;c;aGk=\u0007 hi"}]},`+
		`"qa":[{"question":"What did Ca`+rlo+`ro say \u001b[2J?","answer":"hi `+rlo+`","evidence":["D1:1"],"category":1}]}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(code int, shows string, args ...string) walkRun {
		return walkRun{args: args, code: code, shows: shows}
	}
	const bidi = `\u202e`
	gitRepo := filepath.Join(scratch, "missing-repo"+rlo)
	return map[string][]walkRun{
		"bench":          {run(0, "", "--quick", "--only", "mine", "--src", proj, "--home", filepath.Join(scratch, "bench"))},
		"bench code":     {run(1, bidi, "--repo", gitRepo, "--max", "1")},
		"bench embed":    {run(2, "", "--iters", "1", "--skip-go")},
		"bench locomo":   {run(0, "", "--data", locomo)},
		"bench loop":     {run(2, bidi, "--only", "walk"+rlo+"loop")},
		"bench mine":     {run(0, "", proj, "--home", filepath.Join(scratch, "bench-mine"))},
		"bench relevant": {run(0, "", "--repo", proj, "--max", "1")},
		"bench vectors":  {run(0, "", "--n", "50", "--dim", "8", "--queries", "1", "--wings", "2")},
	}
}

// Issue 46's walk, for the bench commands: each runs, through `palace
// bench`, on hostile file names, contents and LoCoMo turns, and no raw
// control reaches stdout or stderr.
func TestEscapesOnEveryBenchCommand(t *testing.T) {
	table := benchWalkTable(t)
	home := t.TempDir()
	unseen := map[string]bool{}
	for path := range walkSkipped {
		unseen[path] = true
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := benchPath(c)
		runs, listed := table[path]
		delete(table, path)
		delete(unseen, path)
		why, skipped := walkSkipped[path]
		switch {
		case !c.Runnable():
		case skipped && listed:
			t.Errorf("%q is both skipped (%s) and in the walk's table", path, why)
		case skipped:
		case !listed:
			t.Errorf("%q is not in the escape walk: give it a row in benchWalkTable that makes it print what it read", path)
		}
		for _, r := range runs {
			args := append(strings.Fields(path), r.args...)
			out, errOut, code := runPalace(t, home, args...)
			if code != r.code {
				t.Errorf("%q: exit %d, want %d\nstdout %q\nstderr %q", args, code, r.code, out, errOut)
			}
			for what, s := range map[string]string{"stdout": out, "stderr": errOut} {
				if where, bad := clitest.TerminalHazard(s); bad {
					t.Errorf("%q: %s holds a raw %s:\n%q", args, what, where, s)
				}
			}
			if r.shows != "" && !strings.Contains(out+errOut, r.shows) {
				t.Errorf("%q: the output does not show the hostile value (no %q):\nstdout %q\nstderr %q", args, r.shows, out, errOut)
			}
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRoot())
	for path := range table {
		t.Errorf("the walk's table names %q, which is no command", path)
	}
	for path := range unseen {
		t.Errorf("walkSkipped names %q, which is no command", path)
	}
}
