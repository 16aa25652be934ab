package memory

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/aaak"
	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

const (
	identity     = "I am Atlas, the coding agent of the Palace project. I write Go, keep tests fast, and say why in comments."
	projIdentity = "In proj I look after the SQLite store and full-text search."
)

// now is the wake-up clock of these tests: after every fact below started,
// before the future one.
var now = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// seedWake builds a palace with identities, notes of every importance, a
// mined drawer, facts and diary entries, in the wing "proj" and elsewhere.
func seedWake(t *testing.T) *palace.Palace {
	t.Helper()
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	home := p.Store.Home()
	if err := os.WriteFile(filepath.Join(home, IdentityFile), []byte(identity+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, IdentityDir), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, IdentityDir, "proj.md"), []byte(projIdentity), 0o600); err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	var sqlite string
	for i, n := range []Note{
		{Text: "We chose SQLite because it needs no server and backs up as one file.", Importance: 5},
		{Text: "Lunch orders go in the kitchen channel before eleven.", Importance: 1},
		{Text: "Release branches are cut on Tuesdays; hotfixes go to main first.", Importance: 3},
		{Text: "The FTS index uses the porter tokenizer, so queries are stemmed.", Importance: 4, Room: "search"},
		{Text: "CI runs the race detector on every push to main.", Importance: 3},
		{Text: "Benchmarks live in core/bench and run against LoCoMo.", Importance: 2},
	} {
		n.Wing, n.At = "proj", t0.Add(time.Duration(i)*time.Hour)
		res := remember(t, p, n, false)
		if i == 0 {
			sqlite = res.ID
		}
	}
	remember(t, p, Note{Text: "The other wing's most important note.", Wing: "other", Importance: 5, At: t0}, false)
	h := store.ContentHash("func main() { run() }")
	if _, err := p.Store.InsertDrawers(ctx, []store.Drawer{{ID: store.DrawerID("proj", "/src/main.go", 0, h), Wing: "proj",
		Room: "code", Kind: store.KindFile, Source: "/src/main.go", LineStart: 1, LineEnd: 1,
		Content: "func main() { run() }", ContentHash: h, OccurredAt: t0.Add(48 * time.Hour)}}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []kg.Fact{
		{Subject: "Palace", Predicate: "stores_in", Object: "SQLite", ValidFrom: "2026-01-01", SourceDrawer: sqlite},
		{Subject: "proj", Predicate: "status", Object: "beta", ValidFrom: "2026-03-01"},
		{Subject: "proj", Predicate: "status", Object: "alpha", ValidFrom: "2025-01-01", ValidTo: "2026-02-28"},
		{Subject: "proj", Predicate: "owner", Object: "Dana", ValidFrom: "2026-07-01"}, // not yet
		{Subject: "Alice", Predicate: "works_at", Object: "Acme", ValidFrom: "2020-01-01"},
	} {
		if _, err := kg.Add(ctx, p.Store, f, kg.AddOptions{}); err != nil {
			t.Fatalf("kg add %+v: %v", f, err)
		}
	}
	for i, e := range []DiaryEntry{
		{Agent: "Claude", Text: "Fixed the flaky mine test by waiting for the WAL checkpoint.", Wing: "proj"},
		{Agent: "Claude", Text: "Wake-up now fits its budget.", Wing: "proj", Topic: "wake-up"},
		{Agent: "Claude", Text: "A private thought in my own wing."},
	} {
		e.At = t0.Add(time.Duration(24*(i+1)) * time.Hour)
		if _, err := WriteDiary(ctx, p, e); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func wake(t *testing.T, p *palace.Palace, r WakeRequest) WakeResult {
	t.Helper()
	if r.Now.IsZero() {
		r.Now = now
	}
	res, err := WakeUp(context.Background(), p, r)
	if err != nil {
		t.Fatalf("wake-up %+v: %v", r, err)
	}
	return res
}

func TestWakeUpSelection(t *testing.T) {
	p := seedWake(t)
	w := wake(t, p, WakeRequest{Wing: "proj", Budget: 5000})
	t.Logf("\n%s", w.Text)
	if w.Omitted != 0 || w.Tokens > 5000 || w.Format != FormatText {
		t.Errorf("omitted %d, tokens %d, format %q", w.Omitted, w.Tokens, w.Format)
	}
	home := p.Store.Home()
	if want := []string{filepath.Join(home, IdentityFile), filepath.Join(home, IdentityDir, "proj.md")}; !reflect.DeepEqual(w.Identity.Files, want) {
		t.Errorf("identity files %q", w.Identity.Files)
	}
	if w.Identity.Text != identity+"\n\n"+projIdentity || w.Identity.Truncated {
		t.Errorf("identity %q (truncated %v)", w.Identity.Text, w.Identity.Truncated)
	}
	if !strings.HasPrefix(w.Text, "## Identity\n"+identity+"\n\n"+projIdentity+"\n## Decided\n") {
		t.Errorf("text starts\n%s", w.Text)
	}
	// Decided: the wing's notes, by importance, then the newest; no other
	// wing. The mined source file is left out: notes are there.
	var got []string
	for _, d := range w.Decided {
		got = append(got, d.Line)
	}
	want := []string{
		"- We chose SQLite because it needs no server and backs up as one file.",
		"- [search] The FTS index uses the porter tokenizer, so queries are stemmed.",
		"- CI runs the race detector on every push to main.",
		"- Release branches are cut on Tuesdays; hotfixes go to main first.",
		"- Benchmarks live in core/bench and run against LoCoMo.",
		"- Lunch orders go in the kitchen channel before eleven.",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decided:\n%s", strings.Join(got, "\n"))
	}
	if !strings.Contains(w.Text, "\n## Decided\n"+strings.Join(want, "\n")+"\n## Facts now\n") {
		t.Errorf("decided section:\n%s", w.Text)
	}
	if len(w.Drawers) != 0 || strings.Contains(w.Text, "func main") {
		t.Errorf("source shown beside notes: %+v", w.Drawers)
	}
	// Facts: current ones read from the wing's drawers or naming it, the
	// most recently started first.
	got = got[:0]
	for _, f := range w.Facts {
		got = append(got, f.Line)
	}
	if want := []string{"- proj status beta (since 2026-03-01)", "- Palace stores_in SQLite (since 2026-01-01)"}; !reflect.DeepEqual(got, want) {
		t.Errorf("facts %q", got)
	}
	if !strings.Contains(w.Text, "\n## Facts now\n- proj status beta (since 2026-03-01)\n") {
		t.Errorf("facts section missing from\n%s", w.Text)
	}
	// Diary: the wing's entries, newest first.
	got = got[:0]
	for _, d := range w.Diary {
		got = append(got, d.Line)
	}
	if want := []string{"- 2026-05-03 Claude/wake-up: Wake-up now fits its budget.",
		"- 2026-05-02 Claude/journal: Fixed the flaky mine test by waiting for the WAL checkpoint."}; !reflect.DeepEqual(got, want) {
		t.Errorf("diary %q", got)
	}
	if !strings.HasSuffix(w.Text, "## Recent sessions\n"+strings.Join(got, "\n")) {
		t.Errorf("text ends\n%s", w.Text)
	}
	if w.Tokens != aaak.CountTokens(w.Text) {
		t.Errorf("tokens %d, counted %d", w.Tokens, aaak.CountTokens(w.Text))
	}

	// A later clock: proj's owner fact has started.
	later := wake(t, p, WakeRequest{Wing: "proj", Budget: 5000, Now: time.Date(2026, 7, 2, 0, 0, 0, 0, time.UTC)})
	if len(later.Facts) != 3 || later.Facts[0].Object != "Dana" {
		t.Errorf("facts in July: %+v", later.Facts)
	}

	// The whole palace: the global identity only, wing labels, every
	// current fact, every diary entry. Of two notes of importance 5, the
	// newer comes first.
	all := wake(t, p, WakeRequest{Budget: 5000})
	if all.Identity.Text != identity || len(all.Identity.Files) != 1 {
		t.Errorf("palace-wide identity %+v", all.Identity)
	}
	if !strings.Contains(all.Text, "## Decided\n- [other] The other wing's most important note.\n- [proj] We chose SQLite") ||
		!strings.Contains(all.Text, "\n- [proj/search] The FTS index") {
		t.Errorf("palace-wide notes:\n%s", all.Text)
	}
	if len(all.Facts) != 3 || len(all.Diary) != 3 {
		t.Errorf("palace-wide: %d facts, %d diary entries", len(all.Facts), len(all.Diary))
	}
}

func TestWakeUpBudgetAndDeterminism(t *testing.T) {
	p := seedWake(t)
	for _, wing := range []string{"proj", ""} {
		for _, format := range []string{FormatText, FormatAAAK, FormatJSON} {
			prev := -1
			for _, budget := range []int{1, 8, 15, 30, 60, 100, 200, 400, 1000} {
				r := WakeRequest{Wing: wing, Format: format, Budget: budget}
				a, b := wake(t, p, r), wake(t, p, r)
				r.Now = now.Add(time.Hour) // no fact starts or ends: same output
				c := wake(t, p, r)
				if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(a, c) {
					t.Fatalf("%q %s %d: two calls differ:\n%s\n---\n%s", wing, format, budget, a.Text, b.Text)
				}
				if a.Tokens > budget || a.Tokens != aaak.CountTokens(a.Text) || a.Budget != budget {
					t.Errorf("%q %s %d: %d tokens (counted %d)", wing, format, budget, a.Tokens, aaak.CountTokens(a.Text))
				}
				shown := len(a.Decided) + len(a.Drawers) + len(a.Facts) + len(a.Diary)
				if budget >= 100 && shown == 0 {
					t.Errorf("%q %s %d: nothing from L1 fits:\n%s", wing, format, budget, a.Text)
				}
				if a.Tokens < prev-20 {
					t.Errorf("%q %s %d: %d tokens, far below the %d of a smaller budget", wing, format, budget, a.Tokens, prev)
				}
				prev = a.Tokens
				switch format {
				case FormatAAAK:
					if a.Text == "" {
						continue
					}
					doc, err := aaak.Parse(a.Text)
					if err != nil {
						t.Fatalf("%q aaak %d: %v\n%s", wing, budget, err, a.Text)
					}
					if doc.Wing != wing || doc.Room != "wake-up" || doc.Source != "palace" {
						t.Errorf("aaak header %+v", doc.Header)
					}
					if aaak.Validate(doc) != nil || aaak.Print(doc) != a.Text {
						t.Errorf("aaak %d is not canonical", budget)
					}
				case FormatJSON:
					text := wake(t, p, WakeRequest{Wing: wing, Budget: budget})
					if a.Text != text.Text || !reflect.DeepEqual(a.Decided, text.Decided) || !reflect.DeepEqual(a.Drawers, text.Drawers) {
						t.Errorf("%q json %d: its text differs from the text format's", wing, budget)
					}
				}
			}
		}
	}
	// A budget too small for the whole identity cuts it at a word.
	w := wake(t, p, WakeRequest{Wing: "proj", Budget: 15})
	if !w.Identity.Truncated || !strings.HasSuffix(w.Identity.Text, " …") || !strings.HasPrefix(identity, strings.TrimSuffix(w.Identity.Text, " …")) {
		t.Errorf("cut identity %+v", w.Identity)
	}
	if len(w.Decided)+len(w.Drawers)+len(w.Facts)+len(w.Diary) != 0 || w.Omitted == 0 {
		t.Errorf("budget 15 also showed L1: %+v", w)
	}
	// One token: nothing fits, and that is not an error.
	if w := wake(t, p, WakeRequest{Wing: "proj", Budget: 1}); w.Text != "" || w.Tokens != 0 {
		t.Errorf("budget 1: %q", w.Text)
	}
	// The default budget.
	if w := wake(t, p, WakeRequest{Wing: "proj"}); w.Budget != DefaultBudget || w.Tokens > DefaultBudget {
		t.Errorf("default budget: %d, %d tokens", w.Budget, w.Tokens)
	}
}

func TestWakeUpSameAfterReopen(t *testing.T) {
	p := seedWake(t)
	home := p.Store.Home()
	r := WakeRequest{Wing: "proj", Format: FormatAAAK, Budget: 300}
	a := wake(t, p, r)
	p.Close()
	q, err := palace.Open(home, palace.Options{Embed: &embed.Config{LibDirs: []string{}}})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if b := wake(t, q, r); !reflect.DeepEqual(a, b) {
		t.Errorf("reopened palace differs:\n%s\n---\n%s", a.Text, b.Text)
	}
}

func TestWakeUpEmptyPalace(t *testing.T) {
	p := palacetest.OpenPalace(t)
	for _, f := range []string{FormatText, FormatAAAK, FormatJSON} {
		w := wake(t, p, WakeRequest{Format: f, Wing: "nothing-here"})
		if w.Text != "" || w.Tokens != 0 || w.Decided == nil || w.Drawers == nil || w.Facts == nil || w.Agents == nil || w.Diary == nil ||
			w.Threads == nil || w.Identity.Files == nil {
			t.Errorf("%s on an empty palace: %+v", f, w)
		}
	}
}

func TestWakeUpBadInput(t *testing.T) {
	p := seedWake(t)
	for _, c := range []struct {
		field string
		r     WakeRequest
	}{
		{"format", WakeRequest{Format: "xml"}},
		{"budget", WakeRequest{Budget: -1}},
		{"budget", WakeRequest{Budget: MaxBudget + 1}},
		{"wing", WakeRequest{Wing: "../proj"}},
		{"wing", WakeRequest{Wing: `"proj"`}},
		{"wing", WakeRequest{Wing: "pr\x00oj"}},
	} {
		_, err := WakeUp(context.Background(), p, c.r)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != c.field || c.r.Validate() == nil {
			t.Errorf("%+v: want an input error on %s, got %v", c.r, c.field, err)
		}
	}
	home := p.Store.Home()
	bad := filepath.Join(home, IdentityDir, "proj.md")
	if err := os.WriteFile(bad, []byte("caf\xe9"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := WakeUp(context.Background(), p, WakeRequest{Wing: "proj"}); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("identity with invalid UTF-8: %v", err)
	}
	if err := os.WriteFile(bad, []byte(strings.Repeat("x ", maxIdentityBytes)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := WakeUp(context.Background(), p, WakeRequest{Wing: "proj"}); err == nil || !strings.Contains(err.Error(), "KiB") {
		t.Errorf("oversized identity: %v", err)
	}
	// Another wing does not read proj's file.
	if _, err := WakeUp(context.Background(), p, WakeRequest{Wing: "other"}); err != nil {
		t.Errorf("wing other: %v", err)
	}
}
