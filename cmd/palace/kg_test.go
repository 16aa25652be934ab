//go:build unix

package main

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// Integration tests for 'palace kg', on the binary TestMain builds. They
// skip until the kg command is registered in root.go.

type kgTripleOut struct {
	ID           string  `json:"id"`
	Subject      string  `json:"subject"`
	SubjectID    string  `json:"subject_id"`
	Predicate    string  `json:"predicate"`
	Object       string  `json:"object"`
	ObjectID     string  `json:"object_id"`
	ValidFrom    *string `json:"valid_from"`
	ValidTo      *string `json:"valid_to"`
	Confidence   float64 `json:"confidence"`
	SourceDrawer string  `json:"source_drawer"`
	Direction    string  `json:"direction"`
	Current      bool    `json:"current"`
}

type kgAddOut struct {
	DryRun     bool          `json:"dry_run"`
	Added      bool          `json:"added"`
	Duplicate  bool          `json:"duplicate"`
	Merged     bool          `json:"merged"`
	Conflict   bool          `json:"conflict"`
	Functional bool          `json:"functional"`
	Triple     *kgTripleOut  `json:"triple"`
	Conflicts  []kgTripleOut `json:"conflicts"`
	Superseded []kgTripleOut `json:"superseded"`
	Reason     string        `json:"reason"`
}

type kgQueryOut struct {
	Entity struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"entity"`
	AsOf      *string       `json:"as_of"`
	Direction string        `json:"direction"`
	Facts     []kgTripleOut `json:"facts"`
}

func needKG(t *testing.T) {
	t.Helper()
	out, errOut, code := runPalace(t, filepath.Join(t.TempDir(), "home"), "kg", "--help")
	if (code == 2 && strings.Contains(errOut, "unknown command")) || !strings.Contains(out, "palace kg") {
		t.Fatalf("palace kg --help: exit %d, stderr %q, and no description of the command: is it still registered in root.go?", code, errOut)
	}
}

// kgRun runs a kg subcommand with --json and checks the exit code.
func kgRun(t *testing.T, home string, wantCode int, args ...string) (stdout, stderr string) {
	t.Helper()
	out, errOut, code := runPalace(t, home, append([]string{"kg"}, append(args, "--json")...)...)
	if code != wantCode {
		t.Fatalf("palace kg %v: exit %d, want %d\nstdout %s\nstderr %s", args, code, wantCode, out, errOut)
	}
	return out, errOut
}

func kgAdd(t *testing.T, home string, wantCode int, args ...string) kgAddOut {
	t.Helper()
	out, errOut := kgRun(t, home, wantCode, append([]string{"add"}, args...)...)
	var r kgAddOut
	clitest.Decode(t, "kg add", out, &r)
	if wantCode == exitConflict {
		oneLine(t, errOut)
		if !strings.Contains(errOut, "conflict") {
			t.Errorf("conflict stderr %q does not say conflict", errOut)
		}
	} else if errOut != "" {
		t.Errorf("kg add %v: stderr %q", args, errOut)
	}
	return r
}

func kgQuery(t *testing.T, home string, args ...string) []string {
	t.Helper()
	out, _ := kgRun(t, home, 0, append([]string{"query"}, args...)...)
	var r kgQueryOut
	clitest.Decode(t, "kg query", out, &r)
	got := []string{}
	for _, f := range r.Facts {
		got = append(got, f.Subject+" "+f.Predicate+" "+f.Object)
	}
	return got
}

func objectsOf(ts []kgTripleOut) []string {
	out := []string{}
	for _, t := range ts {
		to := "open"
		if t.ValidTo != nil {
			to = *t.ValidTo
		}
		out = append(out, t.Object+" until "+to)
	}
	return out
}

func TestKGJobChange(t *testing.T) {
	needKG(t)
	home := t.TempDir()
	r := kgAdd(t, home, 0, "Alice", "works_at", "Acme", "--from", "2020-01-01", "--confidence", "0.9")
	if !r.Added || r.Triple == nil || !strings.HasPrefix(r.Triple.ID, "t_") || r.Triple.Confidence != 0.9 || !r.Functional {
		t.Fatalf("first job: %+v", r)
	}

	r = kgAdd(t, home, exitConflict, "Alice", "works_at", "Globex", "--from", "2023-06-01")
	if !r.Conflict || r.Added || !reflect.DeepEqual(objectsOf(r.Conflicts), []string{"Acme until open"}) {
		t.Fatalf("second job without --supersede: %+v", r)
	}
	out, errOut := kgRun(t, home, exitConflict, "check", "Alice", "works_at", "Globex", "--from", "2023-06-01")
	var c kgAddOut
	clitest.Decode(t, "kg check", out, &c)
	oneLine(t, errOut)
	if !c.DryRun || !c.Conflict {
		t.Errorf("check: %+v", c)
	}
	out, _ = kgRun(t, home, 0, "check", "Alice", "works_at", "Globex", "--from", "2023-06-01", "--supersede")
	clitest.Decode(t, "kg check --supersede", out, &c)
	if !c.DryRun || !c.Added || !reflect.DeepEqual(objectsOf(c.Superseded), []string{"Acme until 2023-06-01T00:00:00Z"}) {
		t.Errorf("check --supersede: %+v", c)
	}
	// The checks wrote nothing.
	if got := kgQuery(t, home, "alice"); !reflect.DeepEqual(got, []string{"Alice works_at Acme"}) {
		t.Fatalf("after refused add and checks: %v", got)
	}

	r = kgAdd(t, home, 0, "Alice", "works_at", "Globex", "--from", "2023-06-01", "--supersede")
	if !r.Added || !reflect.DeepEqual(objectsOf(r.Superseded), []string{"Acme until 2023-06-01T00:00:00Z"}) {
		t.Fatalf("--supersede: %+v", r)
	}
	r = kgAdd(t, home, 0, "alice", "works at", "GLOBEX")
	if !r.Duplicate || r.Triple == nil || r.Triple.Object != "Globex" {
		t.Errorf("re-asserted fact: %+v", r)
	}

	for _, c := range []struct {
		asOf string
		want []string
	}{
		{"2019-12-31", []string{}},
		{"2020-01-01", []string{"Alice works_at Acme"}},
		{"2023-05-31T23:59:59Z", []string{"Alice works_at Acme"}},
		{"2023-06-01", []string{"Alice works_at Globex"}},
	} {
		if got := kgQuery(t, home, "ALICE", "--as-of", c.asOf); !reflect.DeepEqual(got, c.want) {
			t.Errorf("as of %s: %v, want %v", c.asOf, got, c.want)
		}
	}
	if got := kgQuery(t, home, "globex", "--direction", "in"); !reflect.DeepEqual(got, []string{"Alice works_at Globex"}) {
		t.Errorf("incoming: %v", got)
	}
	if got := kgQuery(t, home, "globex", "--direction", "out"); len(got) != 0 {
		t.Errorf("outgoing: %v", got)
	}

	out, _ = kgRun(t, home, 0, "timeline", "alice")
	var tl struct {
		Facts     []kgTripleOut `json:"facts"`
		Truncated bool          `json:"truncated"`
	}
	clitest.Decode(t, "kg timeline", out, &tl)
	if got := objectsOf(tl.Facts); !reflect.DeepEqual(got, []string{"Acme until 2023-06-01T00:00:00Z", "Globex until open"}) {
		t.Errorf("timeline %v", got)
	}

	out, _ = kgRun(t, home, 0, "stats")
	var st struct {
		Entities   int      `json:"entities"`
		Triples    int      `json:"triples"`
		Current    int      `json:"current"`
		Expired    int      `json:"expired"`
		Functional []string `json:"functional"`
	}
	clitest.Decode(t, "kg stats", out, &st)
	if st.Entities != 3 || st.Triples != 2 || st.Current != 1 || st.Expired != 1 || !strings.Contains(strings.Join(st.Functional, ","), "works_at") {
		t.Errorf("stats %+v", st)
	}
}

func TestKGHumanOutput(t *testing.T) {
	needKG(t)
	home := t.TempDir()
	out, errOut, code := runPalace(t, home, "kg", "add", "Alice Smith", "lives_in", "Paris", "--from", "2015-03-01", "--to", "2019-08-31")
	// A date-only --to is shown as the last day included, as typed; JSON
	// keeps the exclusive instant.
	if code != 0 || !strings.HasPrefix(out, "added Alice Smith lives_in Paris (2015-03-01 until 2019-08-31) [t_") || errOut != "" {
		t.Errorf("add: %d %q %q", code, out, errOut)
	}
	for _, args := range [][]string{{"kg", "query", "Alice Smith"}, {"kg", "timeline", "Alice Smith"}} {
		if out, _, _ := runPalace(t, home, args...); !strings.Contains(out, "(2015-03-01 until 2019-08-31)") {
			t.Errorf("%v: want the last day included, 2019-08-31:\n%s", args, out)
		}
	}
	out, _, _ = runPalace(t, home, "kg", "timeline", "Alice Smith", "--json")
	if !strings.Contains(out, `"valid_to": "2019-09-01T00:00:00Z"`) {
		t.Errorf("timeline --json should keep the exclusive end 2019-09-01T00:00:00Z:\n%s", out)
	}
	out, _, _ = runPalace(t, home, "kg", "add", "Bob", "works_at", "Acme", "--from", "2020-01-01", "--to", "2021-06-30T12:00:00Z")
	if !strings.Contains(out, "(2020-01-01 until 2021-06-30T12:00:00Z (exclusive))") {
		t.Errorf("an instant end should be marked exclusive: %q", out)
	}
	out, errOut, code = runPalace(t, home, "kg", "add", "alice smith", "lives_in", "London", "--from", "2019-06-01")
	if code != exitConflict || !strings.HasPrefix(out, "conflicts with Alice Smith lives_in Paris") {
		t.Errorf("conflict: %d %q %q", code, out, errOut)
	}
	oneLine(t, errOut)
	out, _, code = runPalace(t, home, "kg", "query", "Alice_Smith")
	if code != 0 || !strings.HasPrefix(out, "Alice Smith: 1 fact") {
		t.Errorf("query: %d %q", code, out)
	}
	out, _, code = runPalace(t, home, "kg", "add", "--help")
	if code != 0 || !strings.Contains(out, "3 conflict") || !strings.Contains(out, "--supersede") {
		t.Errorf("add --help should document exit code 3: %q", out)
	}
}

// A conflict is reported once, in the same words on every front: stderr is
// "palace: " and the result's reason, which starts with "conflict: " (it
// used to read "conflict: conflict: ...").
func TestKGConflictMessage(t *testing.T) {
	needKG(t)
	home := t.TempDir()
	kgAdd(t, home, 0, "Alice", "works_at", "Acme", "--from", "2020-01-01")
	for _, sub := range []string{"add", "check"} {
		out, errOut := kgRun(t, home, exitConflict, sub, "Alice", "works_at", "Globex", "--from", "2023-06-01")
		var r kgAddOut
		clitest.Decode(t, "kg "+sub, out, &r)
		if !r.Conflict || !strings.HasPrefix(r.Reason, "conflict: works_at holds one value at a time") {
			t.Errorf("%s: %+v", sub, r)
		}
		if errOut != "palace: "+r.Reason+"\n" {
			t.Errorf("%s: stderr %q, want %q", sub, errOut, "palace: "+r.Reason+"\n")
		}
		if strings.Count(errOut, "conflict:") != 1 {
			t.Errorf("%s: stderr repeats the conflict prefix: %q", sub, errOut)
		}
	}
}

func TestKGInvalidate(t *testing.T) {
	needKG(t)
	home := t.TempDir()
	kgAdd(t, home, 0, "Bob", "knows", "Carol", "--from", "2020-01-01")
	out, _ := kgRun(t, home, 0, "invalidate", "bob", "KNOWS", "carol", "--ended", "2024-02-29")
	var r struct {
		Closed []kgTripleOut `json:"closed"`
	}
	clitest.Decode(t, "kg invalidate", out, &r)
	if got := objectsOf(r.Closed); !reflect.DeepEqual(got, []string{"Carol until 2024-03-01T00:00:00Z"}) {
		t.Errorf("closed %v", got)
	}
	out, _ = kgRun(t, home, 0, "invalidate", "bob", "knows", "carol")
	clitest.Decode(t, "kg invalidate again", out, &r)
	if len(r.Closed) != 0 {
		t.Errorf("second invalidate closed %v", objectsOf(r.Closed))
	}
	if got := kgQuery(t, home, "bob", "--as-of", "2024-02-29T23:59:59Z"); len(got) != 1 {
		t.Errorf("last second: %v", got)
	}
	if got := kgQuery(t, home, "bob", "--as-of", "2024-03-01"); len(got) != 0 {
		t.Errorf("after the end: %v", got)
	}
	// Ending before the fact starts is refused.
	kgAdd(t, home, 0, "Bob", "knows", "Dan", "--from", "2020-01-01")
	_, errOut, code := runPalace(t, home, "kg", "invalidate", "bob", "knows", "dan", "--ended", "2010-01-01")
	if code != 2 {
		t.Errorf("inverted invalidate: exit %d %q", code, errOut)
	}
	oneLine(t, errOut)
}

func TestKGFunctional(t *testing.T) {
	needKG(t)
	home := t.TempDir()
	out, _ := kgRun(t, home, 0, "functional", "rm", "works_at")
	var l struct {
		Functional []string `json:"functional"`
	}
	clitest.Decode(t, "kg functional rm", out, &l)
	if !reflect.DeepEqual(l.Functional, []string{"lives_in", "owner", "role", "status"}) {
		t.Errorf("after rm: %v", l.Functional)
	}
	kgAdd(t, home, 0, "Alice", "works_at", "Acme", "--from", "2020-01-01")
	kgAdd(t, home, 0, "Alice", "works_at", "Globex", "--from", "2020-01-01")
	kgRun(t, home, 0, "functional", "add", "Reports To")
	out, _ = kgRun(t, home, 0, "functional", "list")
	clitest.Decode(t, "kg functional list", out, &l)
	if !reflect.DeepEqual(l.Functional, []string{"lives_in", "owner", "reports_to", "role", "status"}) {
		t.Errorf("after add: %v", l.Functional)
	}
	kgAdd(t, home, 0, "Alice", "reports_to", "Bob", "--from", "2020-01-01")
	kgAdd(t, home, exitConflict, "Alice", "reports to", "Carol", "--from", "2021-01-01")
}

func TestKGBadInput(t *testing.T) {
	needKG(t)
	big := strings.Repeat("x", 100<<10) // a whole argument near Linux's per-argument limit
	cases := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"no subcommand", []string{"kg"}, "subcommand"},
		{"unknown subcommand", []string{"kg", "bogus"}, "bogus"},
		{"add with two args", []string{"kg", "add", "Alice", "works_at"}, "add"},
		{"empty subject", []string{"kg", "add", "", "works_at", "Acme"}, "subject"},
		{"blank predicate", []string{"kg", "add", "Alice", "  ", "Acme"}, "predicate"},
		{"unknown date", []string{"kg", "add", "Alice", "works_at", "Acme", "--from", "2026-02-30"}, "2026-02-30"},
		{"words for a date", []string{"kg", "add", "Alice", "works_at", "Acme", "--to", "next week"}, "next week"},
		{"inverted interval", []string{"kg", "add", "Alice", "works_at", "Acme", "--from", "2024-01-01", "--to", "2023-01-01"}, "valid_to"},
		{"invalid UTF-8", []string{"kg", "add", "Ali\xffce", "works_at", "Acme"}, "UTF-8"},
		{"huge object", []string{"kg", "add", "Alice", "works_at", big}, "limit"},
		{"newline in a name", []string{"kg", "add", "Alice", "works_at", "Ac\nme"}, "control"},
		{"confidence too high", []string{"kg", "add", "Alice", "knows", "Bob", "--confidence", "1.5"}, "confidence"},
		{"confidence not a number", []string{"kg", "add", "Alice", "knows", "Bob", "--confidence", "sure"}, "sure"},
		{"check bad date", []string{"kg", "check", "Alice", "works_at", "Acme", "--from", "2026-13-01"}, "2026-13-01"},
		{"invalidate bad end", []string{"kg", "invalidate", "Alice", "works_at", "Acme", "--ended", "soon"}, "soon"},
		{"query empty entity", []string{"kg", "query", ""}, "entity"},
		{"query bad direction", []string{"kg", "query", "Alice", "--direction", "up"}, "direction"},
		{"query bad as-of", []string{"kg", "query", "Alice", "--as-of", "2026/05/01"}, "2026/05/01"},
		{"timeline zero limit", []string{"kg", "timeline", "--limit", "0"}, "limit 0: want 1 to 10000"},
		{"timeline limit too high", []string{"kg", "timeline", "--limit", "10001"}, "limit 10001: want 1 to 10000"},
		{"query direction not in the list", []string{"kg", "query", "Alice", "--direction", "outgoing"}, `direction "outgoing": want out, in or both`},
		{"functional rm blank", []string{"kg", "functional", "rm", " "}, "predicate is empty"},
		{"timeline two entities", []string{"kg", "timeline", "a", "b"}, "timeline"},
		{"functional add empty", []string{"kg", "functional", "add", ""}, "predicate"},
		{"functional without subcommand", []string{"kg", "functional"}, "subcommand"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			out, errOut, code := runPalace(t, home, c.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (stderr %q)", code, errOut)
			}
			if out != "" {
				t.Errorf("stdout should be empty, got %q", out)
			}
			oneLine(t, errOut)
			if len(errOut) > 1000 {
				t.Errorf("stderr is %d bytes", len(errOut))
			}
			if !strings.Contains(errOut, c.want) {
				t.Errorf("stderr %q does not mention %q", errOut, c.want)
			}
			if _, err := os.Stat(home); err == nil {
				t.Errorf("bad input created the palace home")
			}
		})
	}

	// On an existing palace, bad input and a missing source drawer change
	// nothing.
	home := t.TempDir()
	kgAdd(t, home, 0, "Alice", "works_at", "Acme", "--from", "2020-01-01")
	before, _ := kgRun(t, home, 0, "timeline")
	for _, args := range [][]string{
		{"kg", "add", "Alice", "works_at", "Globex", "--source", "d_missing"},
		{"kg", "add", "Alice", "works_at", "Globex", "--to", "2019-12-31", "--supersede"},
		{"kg", "add", "Alice", "works_at", big},
	} {
		_, errOut, code := runPalace(t, home, args...)
		if code != 2 {
			t.Errorf("palace %.60q: exit %d, want 2 (%q)", args, code, errOut)
		}
		oneLine(t, errOut)
	}
	if after, _ := kgRun(t, home, 0, "timeline"); after != before {
		t.Errorf("bad input changed the graph:\n%s\n%s", before, after)
	}
	_, errOut, code := runPalace(t, home, "kg", "query", "nobody")
	if code != 1 || !strings.Contains(errOut, "nobody") {
		t.Errorf("unknown entity: exit %d %q", code, errOut)
	}
	oneLine(t, errOut)
}

// 'kg check' without a fact checks the graph: a functional predicate with
// two values over overlapping dates (which an import or a team sync keeps,
// as 'kg add' never would) is listed with the later start current, exit 3;
// a graph without one passes.
func TestKGCheckListsContradictions(t *testing.T) {
	needKG(t)
	a, b := t.TempDir(), t.TempDir()
	kgAdd(t, a, 0, "Checkout", "owner", "Payments", "--from", "2024-03-01")
	kgAdd(t, b, 0, "Checkout", "owner", "Platform", "--from", "2025-01-01")
	out, errOut, code := runPalace(t, a, "kg", "check")
	if code != 0 || errOut != "" || !strings.Contains(out, "no contradictions") {
		t.Fatalf("kg check on a consistent graph: exit %d, %q %q", code, out, errOut)
	}
	palaceOK(t, a, nil, "import", exportTo(t, b))

	out, errOut, code = runPalace(t, a, "kg", "check")
	if code != exitConflict || !strings.Contains(errOut, "1 contradiction") {
		t.Fatalf("kg check: exit %d, stderr %q, want %d", code, errOut, exitConflict)
	}
	if !strings.Contains(out, "Checkout owner holds 2 values") || !regexpMatch(`(?m)^  \* Checkout owner Platform \(since 2025-01-01\)`, out) ||
		!regexpMatch(`(?m)^    Checkout owner Payments \(since 2024-03-01\)`, out) {
		t.Fatalf("kg check output:\n%s", out)
	}
	var res struct {
		Contradictions []struct {
			Subject, Predicate string
			Facts              []kgTripleOut
			Current            kgTripleOut
		}
	}
	stdout, _ := kgRun(t, a, exitConflict, "check")
	clitest.Decode(t, "kg check", stdout, &res)
	if len(res.Contradictions) != 1 || len(res.Contradictions[0].Facts) != 2 || res.Contradictions[0].Current.Object != "Platform" {
		t.Fatalf("kg check --json: %+v", res)
	}
	// The query agrees: only the later value is current.
	var q kgQueryOut
	stdout, _ = kgRun(t, a, 0, "query", "Checkout")
	clitest.Decode(t, "kg query", stdout, &q)
	for _, f := range q.Facts {
		if f.Current != (f.Object == "Platform") {
			t.Errorf("kg query marks %s current=%v", f.Object, f.Current)
		}
	}
	if _, errOut, code := runPalace(t, a, "kg", "check", "--from", "2024-01-01"); code != 2 || !strings.Contains(errOut, "need SUBJECT PREDICATE OBJECT") {
		t.Errorf("kg check --from alone: exit %d, %q", code, errOut)
	}
}

func regexpMatch(re, s string) bool { return regexp.MustCompile(re).MatchString(s) }
