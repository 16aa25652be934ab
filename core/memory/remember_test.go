package memory

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/route"
	"github.com/palace-dev/palace/core/store"
)

// drawerCount is the number of drawers, deleted ones included, so "nothing
// written" is checked strictly.
func drawerCount(t *testing.T, p *palace.Palace) int {
	t.Helper()
	st, err := p.Store.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st.Drawers + st.Deleted
}

func note(text, wing string) Note {
	return Note{Text: text, Wing: wing, Importance: DefaultImportance}
}

func remember(t *testing.T, p *palace.Palace, n Note, force bool) RememberResult {
	t.Helper()
	res, err := rememberDefault(context.Background(), p, n, force)
	if err != nil {
		t.Fatalf("remember %.40q: %v", n.Text, err)
	}
	return res
}

// rememberDefault remembers with the palace's default near finders and
// their notice, as ops.Remember does for the fronts.
func rememberDefault(ctx context.Context, p *palace.Palace, n Note, force bool) (RememberResult, error) {
	finders, notice := DefaultFinders(ctx, p)
	res, err := Remember(ctx, p, n, RememberOptions{Force: force, Near: finders})
	res.Notice = strings.TrimSpace(notice + " " + res.Notice)
	return res, err
}

const pnpm = "We switched the monorepo from npm to pnpm because installs took eleven minutes on CI."

func TestRememberAddsAndSkipsExactDuplicates(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	at := time.Date(2026, 5, 1, 9, 30, 15, 123456789, time.UTC)
	n := Note{Text: "  " + pnpm + "\n", Wing: "proj", Source: "standup", Importance: 4, At: at}
	res := remember(t, p, n, false)
	// Without a model there is no vector check and nothing to warn about.
	if !res.Added || res.ID == "" || len(res.Duplicates) != 0 || res.Reason != "" || res.Notice != "" {
		t.Fatalf("first remember: %+v", res)
	}
	d, err := p.Store.GetDrawer(ctx, res.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d.Kind != store.KindNote || d.Wing != "proj" || d.Room != DefaultRoom || d.Source != "standup" ||
		d.Importance != 4 || d.Content != pnpm || d.ContentHash != store.ContentHash(pnpm) {
		t.Errorf("stored drawer %+v", d)
	}
	if want := at.Truncate(time.Second); !d.OccurredAt.Equal(want) {
		t.Errorf("occurred_at %v, want %v", d.OccurredAt, want)
	}

	// The same text again (surrounding white space aside): reported, not
	// written, and not an error.
	before := drawerCount(t, p)
	again := remember(t, p, note(pnpm, "proj"), false)
	if again.Added || again.ID != "" || len(again.Duplicates) != 1 {
		t.Fatalf("exact duplicate: %+v", again)
	}
	m := again.Duplicates[0]
	if m.ID != res.ID || m.Kind != "exact" || m.Method != "hash" || m.Similarity != 1 || m.Citation != "standup" || m.Room != DefaultRoom {
		t.Errorf("exact match %+v", m)
	}
	if !strings.Contains(again.Reason, res.ID) || !strings.Contains(again.Reason, "force") {
		t.Errorf("reason %q", again.Reason)
	}
	if got := drawerCount(t, p); got != before {
		t.Errorf("a skipped duplicate wrote: %d drawers, want %d", got, before)
	}

	// Another wing is another scope.
	if other := remember(t, p, note(pnpm, "other"), false); !other.Added {
		t.Errorf("the same text in another wing was refused: %+v", other)
	}

	// Force writes a second drawer with its own id and still reports.
	forced := remember(t, p, note(pnpm, "proj"), true)
	if !forced.Added || forced.ID == "" || forced.ID == res.ID {
		t.Fatalf("forced: %+v", forced)
	}
	if len(forced.Duplicates) != 1 || forced.Duplicates[0].ID != res.ID {
		t.Errorf("forced add should still report the duplicate: %+v", forced.Duplicates)
	}
	// Now two copies: both are reported.
	if twice := remember(t, p, note(pnpm, "proj"), false); twice.Added || len(twice.Duplicates) != 2 {
		t.Errorf("two stored copies: %+v", twice)
	}
	// A deleted note no longer counts.
	for _, id := range []string{res.ID, forced.ID} {
		if err := p.Store.DeleteDrawer(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	if back := remember(t, p, note(pnpm, "proj"), false); !back.Added {
		t.Errorf("remembering a deleted note again: %+v", back)
	}
}

func TestRememberSameInstantIsOneNote(t *testing.T) {
	p := palacetest.OpenPalace(t)
	n := note(pnpm, "proj")
	n.At = time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	first := remember(t, p, n, true)
	second := remember(t, p, n, true)
	if !first.Added || second.Added || len(second.Duplicates) == 0 || second.Duplicates[0].ID != first.ID {
		t.Errorf("the same note at the same instant, forced twice: %+v then %+v", first, second)
	}
	n.At = n.At.Add(time.Nanosecond)
	if third := remember(t, p, n, true); !third.Added || third.ID == first.ID {
		t.Errorf("a nanosecond later it is a new note: %+v", third)
	}
}

func TestRememberNearDuplicates(t *testing.T) {
	p := palacetest.OpenPalace(t)
	orig := remember(t, p, note(pnpm, "proj"), false)
	cases := []struct {
		name, text string
		dup        bool
	}{
		// One content word of nine inflected (see
		// TestRememberCorrectionsAreWritten for words that change the
		// note): similarity 0.89.
		{"one word inflected", strings.Replace(pnpm, "installs", "install", 1), true},
		{"case and punctuation", strings.ToUpper(strings.TrimSuffix(pnpm, ".")) + "!!", true},
		{"reordered", "Because installs took eleven minutes on CI, we switched the monorepo from npm to pnpm.", true},
		{"half the words", "We switched the monorepo to pnpm.", false},
		{"unrelated", "The parser leaks goroutines when the context is cancelled.", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := drawerCount(t, p)
			ws, _ := contentWords(p, c.text)
			orig, _ := contentWords(p, pnpm)
			sim := Similarity(ws, orig)
			res, err := rememberDefault(context.Background(), p, note(c.text, "proj"), false)
			if err != nil {
				t.Fatal(err)
			}
			if c.dup {
				if res.Added || len(res.Duplicates) != 1 {
					t.Fatalf("similarity %.2f: want a near duplicate, got %+v", sim, res)
				}
				m := res.Duplicates[0]
				if m.Kind != "near" || m.Method != "lexical" || m.Similarity < DefaultLexicalThreshold || m.Similarity >= 1.000001 {
					t.Errorf("match %+v", m)
				}
				if drawerCount(t, p) != before {
					t.Errorf("a near duplicate was written")
				}
				return
			}
			if !res.Added || len(res.Duplicates) != 0 {
				t.Errorf("similarity %.2f: want a new note, got %+v", sim, res)
			}
		})
	}
	if got := Similarity([]string{"deploy", "friday"}, []string{"deploy", "monday"}); got != 0.5 {
		t.Errorf("deploy friday / deploy monday: %v", got)
	}
	// With Force a near duplicate is written, and reported.
	res := remember(t, p, note(strings.Replace(pnpm, "minutes", "minute", 1), "proj"), true)
	if !res.Added || len(res.Duplicates) == 0 || res.Duplicates[0].ID != orig.ID {
		t.Errorf("forced near duplicate: %+v", res)
	}
}

func TestRememberExactMatchesAnyKind(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	h := store.ContentHash(pnpm)
	mined := store.Drawer{ID: store.DrawerID("proj", "/src/NOTES.md", 0, h), Wing: "proj", Room: "docs", Kind: store.KindFile,
		Source: "/src/NOTES.md", LineStart: 3, LineEnd: 3, Content: pnpm, ContentHash: h}
	if _, err := p.Store.InsertDrawers(ctx, []store.Drawer{mined}); err != nil {
		t.Fatal(err)
	}
	res := remember(t, p, note(pnpm, "proj"), false)
	if res.Added || len(res.Duplicates) != 1 || res.Duplicates[0].Citation != "/src/NOTES.md:3-3" {
		t.Errorf("a mined drawer with the same text: %+v", res)
	}
}

// fakeFinder stands in for a vector finder.
type fakeFinder struct {
	ns  []Neighbour
	err error
}

func (fakeFinder) Name() string { return "vector" }

func (f fakeFinder) FindNear(context.Context, string, string) ([]Neighbour, error) {
	return f.ns, f.err
}

func TestRememberUsesTheGivenNearFinder(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	stored := remember(t, p, note("The build cache lives in /var/cache/palace.", "proj"), false)
	d, err := p.Store.GetDrawer(ctx, stored.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Lexically further (two inflections of three words), but the finder
	// says it is close.
	res, err := Remember(ctx, p, note("Build caches live in /var/cache/palace!", "proj"),
		RememberOptions{Near: []NearFinder{fakeFinder{ns: []Neighbour{neighbour(d, 0.93)}}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Added || len(res.Duplicates) != 1 || res.Duplicates[0].Method != "vector" || res.Duplicates[0].Similarity != 0.93 {
		t.Errorf("vector finder: %+v", res)
	}
	before := drawerCount(t, p)
	boom := errors.New("model not loaded")
	if _, err := Remember(ctx, p, note("Something new entirely.", "proj"), RememberOptions{Near: []NearFinder{fakeFinder{err: boom}}}); !errors.Is(err, boom) {
		t.Errorf("finder error: %v", err)
	}
	if drawerCount(t, p) != before {
		t.Errorf("a failed check wrote")
	}
}

func TestRememberChinese(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the Chinese dictionaries")
	}
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	text := "我们决定把知识图谱存在同一个数据库文件里，因为备份更简单。"
	res := remember(t, p, note(text, "proj"), false)
	d, err := p.Store.GetDrawer(ctx, res.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d.IndexText == "" || d.IndexText == d.Content {
		t.Errorf("a Chinese note should be indexed segmented, got %q", d.IndexText)
	}
	near := remember(t, p, note("我们决定把知识图谱存在同一个数据库文件里，因为备份更加简单。", "proj"), false)
	if near.Added || len(near.Duplicates) != 1 || near.Duplicates[0].Kind != "near" {
		t.Errorf("Chinese near duplicate: %+v", near)
	}
}

func TestRememberBadInput(t *testing.T) {
	p := palacetest.OpenPalace(t)
	remember(t, p, note(pnpm, "proj"), false)
	ok := note("A perfectly fine note about the build.", "proj")
	with := func(f func(*Note)) Note { n := ok; f(&n); return n }
	cases := []struct {
		name, field string
		n           Note
	}{
		{"empty text", "text", with(func(n *Note) { n.Text = "" })},
		{"blank text", "text", with(func(n *Note) { n.Text = " \n\t " })},
		{"invalid UTF-8", "text", with(func(n *Note) { n.Text = "caf\xe9 au lait" })},
		{"NUL in text", "text", with(func(n *Note) { n.Text = "a\x00b" })},
		{"10 MB text", "text", with(func(n *Note) { n.Text = strings.Repeat("memory ", 10<<20/7) })},
		{"just over the limit", "text", with(func(n *Note) { n.Text = strings.Repeat("x", MaxTextBytes+1) })},
		{"empty wing", "wing", with(func(n *Note) { n.Wing = "" })},
		{"blank wing", "wing", with(func(n *Note) { n.Wing = "   " })},
		{"wing with a slash", "wing", with(func(n *Note) { n.Wing = "a/b" })},
		{"wing with a quote", "wing", with(func(n *Note) { n.Wing = `my "wing"` })},
		{"wing with a newline", "wing", with(func(n *Note) { n.Wing = "a\nb" })},
		{"wing invalid UTF-8", "wing", with(func(n *Note) { n.Wing = "w\xff" })},
		{"wing too long", "wing", with(func(n *Note) { n.Wing = strings.Repeat("w", MaxNameBytes+1) })},
		{"room with a slash", "room", with(func(n *Note) { n.Room = "x/../y" })},
		{"source too long", "source", with(func(n *Note) { n.Source = strings.Repeat("s", MaxSourceBytes+1) })},
		{"source with a tab", "source", with(func(n *Note) { n.Source = "a\tb" })},
		{"importance 0", "importance", with(func(n *Note) { n.Importance = 0 })},
		{"importance 6", "importance", with(func(n *Note) { n.Importance = 6 })},
		{"importance -1", "importance", with(func(n *Note) { n.Importance = -1 })},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := drawerCount(t, p)
			verr := c.n.Validate()
			_, err := Remember(context.Background(), p, c.n, RememberOptions{Force: true})
			for _, e := range []error{verr, err} {
				var ie *InputError
				if !errors.Is(e, ErrInvalid) || !errors.As(e, &ie) || ie.Field != c.field {
					t.Fatalf("want an input error on %s, got %v", c.field, e)
				}
				if len(e.Error()) > 300 {
					t.Errorf("message is %d bytes", len(e.Error()))
				}
			}
			if got := drawerCount(t, p); got != before {
				t.Errorf("bad input wrote: %d drawers, want %d", got, before)
			}
		})
	}
	// Names are trimmed, not refused, and the defaults apply.
	res := remember(t, p, with(func(n *Note) { n.Wing, n.Room, n.Source = " proj ", "  ", " " }), false)
	if !res.Added || res.Wing != "proj" || res.Room != DefaultRoom || res.Source != DefaultSource {
		t.Errorf("trimmed names: %+v", res)
	}
}

// Wing, room and topic names follow the taxonomy's rules (route.CheckName)
// once the spaces around them are trimmed, so a room one accepts the other
// accepts; a refusal names the field and what is wrong with the name.
func TestNamesFollowTaxonomyRules(t *testing.T) {
	for _, c := range []struct {
		name, want string // want: "" accepted, else in the message
	}{
		{"proj", ""}, {" proj ", ""}, {"日本語 notes", ""}, {`a\b`, ""}, {"a:b", ""},
		{"a/b", "'/'"}, {`my "wing"`, `'"'`}, {"a\nb", "control"}, {"proj\t", "control"}, {"\tproj", "control"},
		{"w\xff", "UTF-8"}, {strings.Repeat("w", MaxNameBytes+1), "limit"}, {"\u00a0proj", "space"},
	} {
		n := note("A note about names.", c.name)
		err := n.Validate()
		trimmed := strings.Trim(c.name, " ")
		if (err == nil) != (route.CheckName("wing", trimmed) == nil) {
			t.Errorf("%q: memory says %v, the taxonomy %v", c.name, err, route.CheckName("wing", trimmed))
		}
		if c.want == "" {
			if err != nil {
				t.Errorf("%q refused: %v", c.name, err)
			}
			continue
		}
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != "wing" || !strings.Contains(err.Error(), c.want) ||
			!strings.HasPrefix(err.Error(), "wing name ") || strings.Contains(err.Error(), "wing wing") {
			t.Errorf("%q: got %v, want an input error on wing naming %s", c.name, err, c.want)
		}
	}
	// Topics and diary wings go through the same check.
	if err := (DiaryEntry{Agent: "a", Text: "x", Topic: "a/b"}).Validate(); err == nil || !strings.Contains(err.Error(), "topic name") {
		t.Errorf("topic a/b: %v", err)
	}
}

// Concurrent identical notes: the exact check inside the write transaction
// lets exactly one through.
func TestRememberConcurrentDuplicates(t *testing.T) {
	p := palacetest.OpenPalace(t)
	const n = 8
	results := make(chan RememberResult, n)
	errs := make(chan error, n)
	for range n {
		go func() {
			res, err := rememberDefault(context.Background(), p, note(pnpm, "proj"), false)
			results <- res
			errs <- err
		}()
	}
	added := 0
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
		if res := <-results; res.Added {
			added++
		} else if len(res.Duplicates) == 0 || res.Duplicates[0].Kind != "exact" {
			t.Errorf("a refused duplicate should name the exact match: %+v", res)
		}
	}
	if added != 1 || drawerCount(t, p) != 1 {
		t.Errorf("%d of %d concurrent identical notes added, %d drawers", added, n, drawerCount(t, p))
	}
}

// Found by FuzzToolCall: a note forced in more times than a result reports
// filled the report with exact duplicates, and the near ones were then cut
// at a negative length (a panic).
func TestRememberManyForcedCopies(t *testing.T) {
	p := palacetest.OpenPalace(t)
	for i := range maxReported + 3 {
		n := Note{Text: "x", Wing: "w", Importance: 1, At: time.Date(2026, 5, 1, 9, 0, i, 0, time.UTC)}
		res := remember(t, p, n, true)
		if !res.Added {
			t.Fatalf("forced copy %d: %+v", i, res)
		}
		if len(res.Duplicates) > maxReported {
			t.Errorf("forced copy %d reports %d duplicates, over %d", i, len(res.Duplicates), maxReported)
		}
	}
}
