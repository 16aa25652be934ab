//go:build unix

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// badCase is one bad input to a bench command: it is refused with the
// exit code and message wanted, and the palace at --home is left as it was
// (the benchmarks mine into temporary palaces of their own).
type badCase struct {
	name  string
	front string // "cli": the benchmarks have no other front
	// act does the bad thing once and returns what the command answered.
	act  func(t *testing.T, e *badEnv) badResult
	code int    // the exit code
	want string // a regexp stderr must match
}

// badResult is what a command answered.
type badResult struct {
	code int    // exit code
	out  string // stdout
	err  string // stderr
}

// badEnv is a palace with known content at home, and a folder for the
// case's own files.
type badEnv struct {
	root string // a temp folder
	home string // the palace
}

func badNewEnv(t *testing.T) *badEnv {
	t.Helper()
	root := t.TempDir()
	e := &badEnv{root: root, home: filepath.Join(root, "home")}
	for _, note := range []string{"tokknown note: we deploy with pnpm, never npm", "tokknown decision: retries back off exponentially"} {
		if _, errOut, code := runPalace(t, e.home, "remember", note, "--wing", "proj"); code != 0 {
			t.Fatalf("remember: exit %d, %s", code, errOut)
		}
	}
	return e
}

// dir makes a fresh folder under the env's root.
func (e *badEnv) dir(t *testing.T, name string) string {
	t.Helper()
	d := filepath.Join(e.root, name)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

func badCLI(t *testing.T, home string, args ...string) badResult {
	t.Helper()
	out, errOut, code := runPalace(t, home, args...)
	return badResult{code: code, out: out, err: errOut}
}

// badSnapshot is the palace's export: what a refused command must leave as
// it was.
func badSnapshot(t *testing.T, home string) string {
	t.Helper()
	out, errOut, code := runPalace(t, home, "export")
	if code != 0 {
		t.Fatalf("export: exit %d, %s", code, errOut)
	}
	return out
}

func badCases() []badCase {
	var cases []badCase
	cases = append(cases, badbenchcodeCases()...)
	cases = append(cases, badbenchteamCases()...)
	cases = append(cases, badbenchrelevantCases()...)
	cases = append(cases, badbenchmineCases()...)
	cases = append(cases, badbenchlocomoCases()...)
	return cases
}

// Every bench command named by a case refuses its bad input with its exit
// code and a message naming the flag, and leaves the palace at --home as
// it was.
func TestBadInput(t *testing.T) {
	e := badNewEnv(t)
	seen := map[string]bool{}
	for _, c := range badCases() {
		if seen[c.name] || c.front != "cli" {
			t.Fatalf("case %q: named twice, or front %q", c.name, c.front)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			before := badSnapshot(t, e.home)
			r := c.act(t, e)
			if r.code != c.code {
				t.Errorf("code %d, want %d\nerror: %.500s\noutput: %.500s", r.code, c.code, r.err, r.out)
			}
			if !regexp.MustCompile(c.want).MatchString(r.err) {
				t.Errorf("error %.500q does not match %q", r.err, c.want)
			}
			if after := badSnapshot(t, e.home); after != before {
				t.Errorf("the palace changed:\nbefore %s\nafter %s", before, after)
			}
		})
	}
}
