//go:build unix

package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

var updateKG = flag.Bool("update-kg", false, "rewrite testdata/kg/*.txt with the binary's output")

// The typed graph's transcripts: each testdata/kg/*.txt is a session on
// one palace, its commands ("$ kg ...", with "<<< y" for stdin) followed
// by what the binary prints: stdout as it is, stderr lines after "! "
// (without trailing spaces: rm's question ends in one), a
// non-zero exit as "[exit N]". The test runs the commands and compares
// the whole transcript. Fact ids read t_1, t_2, ... and drawer ids d_1,
// d_2, ... in order of first appearance (a command may name them so), and
// creation times and the audit log's clock are masked, so a transcript
// states the exact output.

var (
	kgIDRe      = regexp.MustCompile(`[td]_[0-9a-f]{24}`)
	kgCreatedRe = regexp.MustCompile(`"created_at": "[^"]*"`)
	kgClockRe   = regexp.MustCompile(`(?m)^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}`)
	kgIDRefRe   = regexp.MustCompile(`^[td]_\d+$`)
)

// kgTranscriptStep is one command of a transcript with the comment lines before it.
type kgTranscriptStep struct {
	comments []string
	line     string
}

func readKGTranscript(t *testing.T, path string) []kgTranscriptStep {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var steps []kgTranscriptStep
	var comments []string
	for _, l := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(l, "# "):
			comments = append(comments, l)
		case strings.HasPrefix(l, "$ "):
			steps = append(steps, kgTranscriptStep{comments, strings.TrimPrefix(l, "$ ")})
			comments = nil
		}
	}
	return steps
}

// splitKGArgs splits a command line at spaces; double quotes group words.
func splitKGArgs(line string) []string {
	var out []string
	var cur strings.Builder
	quoted, started := false, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted, started = !quoted, true
		case r == ' ' && !quoted:
			if started {
				out = append(out, cur.String())
				cur.Reset()
				started = false
			}
		default:
			cur.WriteRune(r)
			started = true
		}
	}
	if started {
		out = append(out, cur.String())
	}
	return out
}

func TestKGTranscripts(t *testing.T) {
	needKG(t)
	files, err := filepath.Glob("testdata/kg/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			home := t.TempDir()
			ids := map[string]string{}  // real id -> t_N or d_N
			refs := map[string]string{} // t_N or d_N -> real id
			count := map[byte]int{}
			mask := func(s string) string {
				s = kgIDRe.ReplaceAllStringFunc(s, func(id string) string {
					if ids[id] == "" {
						count[id[0]]++
						ids[id] = fmt.Sprintf("%c_%d", id[0], count[id[0]])
						refs[ids[id]] = id
					}
					return ids[id]
				})
				s = kgCreatedRe.ReplaceAllString(s, `"created_at": "…"`)
				return kgClockRe.ReplaceAllString(s, "YYYY-MM-DD hh:mm:ss")
			}
			var b strings.Builder
			for i, s := range readKGTranscript(t, f) {
				if i > 0 {
					b.WriteString("\n")
				}
				for _, c := range s.comments {
					b.WriteString(c + "\n")
				}
				b.WriteString("$ " + s.line + "\n")
				args, stdin, _ := strings.Cut(s.line, " <<< ")
				argv := splitKGArgs(args)
				for j, a := range argv {
					if kgIDRefRe.MatchString(a) && refs[a] != "" {
						argv[j] = refs[a]
					}
				}
				cmd := palaceCmd(t.Context(), home, argv...)
				cmd.Stdin = strings.NewReader(stdin + "\n")
				out, errOut, code := clitest.Run(t, cmd)
				b.WriteString(mask(out))
				for _, l := range strings.Split(strings.TrimSuffix(mask(errOut), "\n"), "\n") {
					if l = strings.TrimRight(l, " "); l != "" {
						b.WriteString("! " + l + "\n")
					}
				}
				if code != 0 {
					fmt.Fprintf(&b, "[exit %d]\n", code)
				}
			}
			got := b.String()
			if *updateKG {
				if err := os.WriteFile(f, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("%s differs; got:\n%s", f, got)
			}
		})
	}
}

// Bad input to the typed graph's commands is exit 2, one line on stderr
// naming the problem, nothing on stdout, and no palace created.
func TestKGGraphBadInput(t *testing.T) {
	needKG(t)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"entity without a name", []string{"kg", "entity"}, "entity"},
		{"entity blank name", []string{"kg", "entity", " "}, "entity is empty"},
		{"entity bad type", []string{"kg", "entity", "Kai", "--type", "two words"}, `type "two words" is not a type`},
		{"entity blank alias", []string{"kg", "entity", "Kai", "--alias", ""}, "alias is empty"},
		{"entity blank unalias", []string{"kg", "entity", "Kai", "--unalias", " "}, "unalias is empty"},
		{"traverse without a name", []string{"kg", "traverse"}, "traverse"},
		{"traverse depth 0", []string{"kg", "traverse", "Kai", "--depth", "0"}, "depth 0: want 1 to 4"},
		{"traverse depth 5", []string{"kg", "traverse", "Kai", "--depth", "5"}, "depth 5: want 1 to 4"},
		{"traverse depth not a number", []string{"kg", "traverse", "Kai", "--depth", "deep"}, "deep"},
		{"traverse limit 0", []string{"kg", "traverse", "Kai", "--limit", "0"}, "limit 0: want 1 to 1000"},
		{"traverse bad as-of", []string{"kg", "traverse", "Kai", "--as-of", "March"}, "March"},
		{"traverse bad direction", []string{"kg", "traverse", "Kai", "--direction", "up"}, `direction "up": want out, in or both`},
		{"traverse blank predicate", []string{"kg", "traverse", "Kai", "--predicate", " "}, "predicate is empty"},
		{"rm without an id", []string{"kg", "rm"}, "rm"},
		{"rm not a fact id", []string{"kg", "rm", "d_123", "--yes"}, `fact_id "d_123" is not a fact id`},
		{"timeline bad format", []string{"kg", "timeline", "Kai", "--format", "yaml"}, `format "yaml": want facts or aaak`},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			out, errOut, code := runPalace(t, home, c.args...)
			if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, out, errOut, c.want)
			}
			oneLine(t, errOut)
			if _, err := os.Stat(home); err == nil {
				t.Errorf("bad input created the palace home")
			}
		})
	}
	// Reads and a removal never create a palace; a missing one is an error.
	for _, args := range [][]string{{"kg", "entity", "Kai"}, {"kg", "traverse", "Kai"}, {"kg", "rm", "t_000000000000000000000000", "--yes"}} {
		home := filepath.Join(t.TempDir(), "home")
		if _, errOut, code := runPalace(t, home, args...); code != 1 {
			t.Errorf("%v on no palace: exit %d %q", args, code, errOut)
		}
		if _, err := os.Stat(home); err == nil {
			t.Errorf("%v created the palace home", args)
		}
	}
}
