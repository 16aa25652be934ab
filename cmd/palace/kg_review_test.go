//go:build unix

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// Integration tests for 'palace kg extract' and 'palace kg review', on the
// binary TestMain builds.

type proposalOut struct {
	ID           string  `json:"id"`
	Subject      string  `json:"subject"`
	Predicate    string  `json:"predicate"`
	Object       string  `json:"object"`
	Replaces     string  `json:"replaces"`
	ValidFrom    *string `json:"valid_from"`
	Confidence   float64 `json:"confidence"`
	Sentence     string  `json:"sentence"`
	SourceDrawer string  `json:"source_drawer"`
	Wing         string  `json:"wing"`
	Status       string  `json:"status"`
}

type reviewItemOut struct {
	proposalOut
	Supersedes []kgTripleOut `json:"supersedes"`
	Ends       []kgTripleOut `json:"ends"`
	Known      bool          `json:"known"`
	Blocked    string        `json:"blocked"`
}

type reviewOut struct {
	Decision string          `json:"decision"`
	Pending  []reviewItemOut `json:"pending"`
	Decided  []struct {
		ID     string    `json:"id"`
		Status string    `json:"status"`
		Fact   *kgAddOut `json:"fact"`
		Ended  []kgTripleOut
		Error  string `json:"error"`
	} `json:"decided"`
	Total int `json:"total"`
}

func (r reviewOut) find(t *testing.T, subject string) reviewItemOut {
	t.Helper()
	for _, it := range r.Pending {
		if it.Subject == subject {
			return it
		}
	}
	t.Fatalf("no pending proposal about %q in %+v", subject, r.Pending)
	return reviewItemOut{}
}

func proposalLines(ps []proposalOut) []string {
	out := []string{}
	for _, p := range ps {
		out = append(out, p.Subject+" "+p.Predicate+" "+p.Object)
	}
	return out
}

// TestKGExtractAndReview: facts said in a note, a diary entry and a mined
// transcript are proposed, listed with what accepting them would do, and
// written only when accepted.
func TestKGExtractAndReview(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	kgAdd(t, home, 0, "billing service", "owner", "Rafael", "--from", "2025-01-01")

	out, errOut, code := runPalace(t, home, "remember", "Dana owns the billing service. Maybe we should use Loki.", "--wing", "orion", "--json")
	var note struct {
		ID       string        `json:"id"`
		Proposed []proposalOut `json:"proposed"`
	}
	clitest.Decode(t, "remember", out, &note)
	if code != 0 || !slices.Equal(proposalLines(note.Proposed), []string{"billing service owner Dana"}) || note.Proposed[0].SourceDrawer != note.ID {
		t.Fatalf("remember: exit %d, %+v\n%s", code, note, errOut)
	}
	out, _, code = runPalace(t, home, "diary", "write", "claude-code", "I'm working on the Orion release notes.")
	if code != 0 || !strings.Contains(out, "proposed for review ('palace kg review'):") || !strings.Contains(out, "claude-code works_on Orion release notes") {
		t.Errorf("diary write: exit %d\n%s", code, out)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "standup.txt"), []byte("Kai: We moved from MySQL to Postgres.\n\nDana: Does Orion use Redis?\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code = runPalace(t, home, "mine", dir, "--wing", "orion", "--mode", "convos", "--no-vectors", "--no-progress")
	if code != 0 || !strings.Contains(out, "facts: 1 drawer read, 1 proposed for review ('palace kg review')") {
		t.Errorf("mine: exit %d\n%s", code, out)
	}

	// The human list names the supersession and the sentence.
	out, _, code = runPalace(t, home, "kg", "review")
	ids := regexp.MustCompile(`p_[0-9a-f]{24}`)
	drawers := regexp.MustCompile(`d_[0-9a-f]+`)
	triples := regexp.MustCompile(`t_[0-9a-f]{24}`)
	dates := regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)
	got := dates.ReplaceAllString(triples.ReplaceAllString(drawers.ReplaceAllString(ids.ReplaceAllString(out, "P"), "D"), "T"), "DATE")
	want := `P  0.85  billing service owner Dana (since DATE)
    supersedes billing service owner Rafael (DATE until DATE) [T]
    "Dana owns the billing service."  (drawer D, wing orion)
P  0.85  claude-code works_on Orion release notes (since DATE)
    "I'm working on the Orion release notes."  (drawer D, wing diary-claude-code)
P  0.85  orion uses Postgres (since DATE), instead of MySQL
    "We moved from MySQL to Postgres."  (drawer D, wing orion)
3 proposals pending
`
	if code != 0 || got != want {
		t.Errorf("kg review: exit %d\n%s\nwant\n%s", code, got, want)
	}

	var r reviewOut
	out, _ = kgRun(t, home, 0, "review")
	clitest.Decode(t, "kg review", out, &r)
	owner := r.find(t, "billing service")
	if len(owner.Supersedes) != 1 || owner.Supersedes[0].Object != "Rafael" || r.Total != 3 || r.Decision != "list" {
		t.Fatalf("review --json: %+v", r)
	}

	// Accepting writes the fact, provenance and confidence kept, and closes
	// the superseded one.
	out, _ = kgRun(t, home, 0, "review", "accept", owner.ID)
	clitest.Decode(t, "kg review accept", out, &r)
	if len(r.Decided) != 1 || r.Decided[0].Status != "accepted" || r.Decided[0].Fact == nil || len(r.Decided[0].Fact.Superseded) != 1 || r.Total != 2 {
		t.Fatalf("accept: %+v", r)
	}
	out, _ = kgRun(t, home, 0, "query", "billing service", "--direction", "out")
	var q kgQueryOut
	clitest.Decode(t, "kg query", out, &q)
	if len(q.Facts) != 2 || q.Facts[1].Object != "Dana" || q.Facts[1].SourceDrawer != note.ID || q.Facts[1].Confidence != 0.85 || q.Facts[0].ValidTo == nil {
		t.Errorf("billing service after accepting: %+v", q.Facts)
	}

	// Rejecting remembers; extracting again proposes nothing new.
	out, _ = kgRun(t, home, 0, "review")
	clitest.Decode(t, "kg review", out, &r)
	kgRun(t, home, 0, "review", "reject", r.find(t, "claude-code").ID)
	out, _ = kgRun(t, home, 0, "extract")
	var ex struct {
		Read     int `json:"drawers_read"`
		Proposed int `json:"proposed"`
	}
	clitest.Decode(t, "kg extract", out, &ex)
	if ex.Read != 0 || ex.Proposed != 0 {
		t.Errorf("kg extract after the writes read them: %+v", ex)
	}
	out, _, code = runPalace(t, home, "kg", "review", "accept", "--min-confidence", "0.8")
	if code != 0 || !strings.Contains(out, "accepted p_") || !strings.Contains(out, "  added orion uses Postgres") || !strings.HasSuffix(out, "0 proposals pending\n") {
		t.Errorf("accept --min-confidence: exit %d\n%s", code, out)
	}
}

// TestKGReviewConflictExits3: a proposal that cannot supersede stays
// pending, and the CLI exits 3 as 'kg add' does.
func TestKGReviewConflictExits3(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	runPalace(t, home, "remember", "Dana owns the billing service.", "--wing", "orion")
	// A later owner: closing it at the note's date would end it before it began.
	kgAdd(t, home, 0, "billing service", "owner", "Rafael", "--from", "2999-01-01")
	var r reviewOut
	out, _ := kgRun(t, home, 0, "review")
	clitest.Decode(t, "kg review", out, &r)
	if len(r.Pending) != 1 || !strings.Contains(r.Pending[0].Blocked, "cannot supersede") {
		t.Fatalf("review: %+v", r)
	}
	out, errOut := kgRun(t, home, exitConflict, "review", "accept", r.Pending[0].ID)
	clitest.Decode(t, "kg review accept", out, &r)
	oneLine(t, errOut)
	if !strings.Contains(errOut, "conflict: 1 of 1 proposals left pending") || len(r.Decided) != 1 || r.Decided[0].Error == "" || r.Total != 1 {
		t.Errorf("accept a blocked proposal: %+v\n%s", r, errOut)
	}
}

func TestKGReviewBadInput(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"accept nothing", []string{"kg", "review", "accept"}, 2, "ids"},
		{"accept ids and a confidence", []string{"kg", "review", "accept", "p_1", "--min-confidence", "0.5"}, 2, "min_confidence"},
		{"reject by confidence", []string{"kg", "review", "reject", "--min-confidence", "0.5"}, 2, "unknown flag"},
		{"reject nothing", []string{"kg", "review", "reject"}, 2, "ids"},
		{"list with an id", []string{"kg", "review", "p_1"}, 2, "review"},
		{"zero limit", []string{"kg", "review", "--limit", "0"}, 2, "limit 0: want 1 to 1000"},
		{"confidence too high", []string{"kg", "review", "--min-confidence", "1.5"}, 2, "min_confidence"},
		{"unknown proposal", []string{"kg", "review", "accept", "p_000000000000000000000000"}, 1, "not found"},
		{"extract unknown wing", []string{"kg", "extract", "--wing", "nosuchwing"}, 2, "wing"},
		{"extract bad wing name", []string{"kg", "extract", "--wing", "a/b"}, 2, "wing"},
		{"extract confidence", []string{"kg", "extract", "--min-confidence", "-1"}, 2, "min_confidence"},
		{"extract an argument", []string{"kg", "extract", "orion"}, 2, "extract"},
	} {
		t.Run(c.name, func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			runPalace(t, home, "remember", "Kai works on Orion.", "--wing", "orion")
			out, errOut, code := runPalace(t, home, c.args...)
			if code != c.code || !strings.Contains(errOut, c.want) || out != "" {
				t.Errorf("palace %q: exit %d, want %d; stderr %q should name %q; stdout %q", c.args, code, c.code, errOut, c.want, out)
			}
			oneLine(t, errOut)
		})
	}
}
