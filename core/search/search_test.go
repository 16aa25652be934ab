package search

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

func seed(t *testing.T, texts map[string]time.Time) *palace.Palace {
	t.Helper()
	p := palacetest.OpenPalace(t)
	var ds []store.Drawer
	i := 0
	for text, when := range texts {
		h := store.ContentHash(text)
		ds = append(ds, store.Drawer{ID: store.DrawerID("w", "s", i, h), Wing: "w", Room: "r", Kind: store.KindConversation,
			Source: "s", Content: text, ContentHash: h, OccurredAt: when})
		i++
	}
	if _, err := p.Store.InsertDrawers(context.Background(), ds); err != nil {
		t.Fatal(err)
	}
	return p
}

func day(s string) time.Time { t, _ := time.Parse("2006-01-02", s); return t }

func TestAllWordsFirst(t *testing.T) {
	p := seed(t, map[string]time.Time{
		"the parser leaks goroutines":      day("2025-01-01"),
		"parser parser parser parser":      day("2025-01-01"),
		"unrelated filler about the build": day("2025-01-01"),
		"more filler words":                day("2025-01-01"),
	})
	res, err := Run(context.Background(), p, Request{Query: "parser goroutines"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 2 || res.Hits[0].Content != "the parser leaks goroutines" || res.Hits[0].Match != "all" || res.Hits[1].Match != "any" {
		t.Fatalf("hits = %+v", res.Hits)
	}
}

func TestNamedTimeComesFirst(t *testing.T) {
	p := seed(t, map[string]time.Time{
		"we decided to ship the release with the new parser": day("2024-03-01"),
		"we decided to delay the release":                    day("2024-07-10"),
		"filler one":                                         day("2024-01-01"),
		"filler two":                                         day("2024-01-01"),
	})
	ctx := context.Background()
	res, err := Run(ctx, p, Request{Query: "what did we decide about the release in July 2024"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 2 || res.Hits[0].Content != "we decided to delay the release" || res.TimeHint == nil {
		t.Fatalf("the July drawer should come first: %+v", res.Hits)
	}
	// Nothing in the named period: the ranking is unchanged, nothing lost.
	res, err = Run(ctx, p, Request{Query: "release parser on 5 May, 2020"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 2 || res.Hits[0].Content != "we decided to ship the release with the new parser" || res.TimeHint != nil {
		t.Fatalf("a date with no drawers changed the ranking: %+v", res.Hits)
	}
	// An explicit --since wins over words in the query.
	res, err = Run(ctx, p, Request{Query: "release in July 2024", Filter: store.Filter{Until: day("2024-04-01")}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 || res.TimeHint != nil {
		t.Fatalf("explicit filter: %+v", res.Hits)
	}
}

// Metadata that is not JSON (stored by an import before imports checked
// it) is left out of a hit; as raw JSON it made every answer holding the
// drawer fail to encode.
func TestInvalidMetadataLeftOut(t *testing.T) {
	ctx := context.Background()
	p := seed(t, nil)
	var ds []store.Drawer
	for i, meta := range []string{`{"speakers":`, `{"speakers":["a"]}`} {
		text := fmt.Sprintf("the parser leaks goroutines %d", i)
		h := store.ContentHash(text)
		ds = append(ds, store.Drawer{ID: store.DrawerID("w", "s", i, h), Wing: "w", Room: "r", Kind: store.KindNote,
			Source: "s", Content: text, ContentHash: h, Metadata: meta})
	}
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	res, err := Run(ctx, p, Request{Query: "parser goroutines"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := json.Marshal(res); err != nil {
		t.Fatalf("a hit with invalid metadata breaks the answer: %v", err)
	}
	got := map[string]string{}
	for _, h := range res.Hits {
		got[h.ID] = string(h.Metadata)
	}
	if len(got) != 2 || got[ds[0].ID] != "" || got[ds[1].ID] != `{"speakers":["a"]}` {
		t.Errorf("metadata of the hits: %v", got)
	}
}

// TestLongQueryRanksByScore: a query of scoreOrderTerms terms or more is
// ranked by score alone, so a drawer repeating most of its words beats a
// long one that mentions each once; a shorter query still puts the drawer
// holding every word first.
func TestLongQueryRanksByScore(t *testing.T) {
	mentions := "the parser leaks goroutines when the timer fires during shutdown, " +
		"which we noted once among many other remarks about releases, meetings, " +
		"holidays, budgets, the office move, the printer, lunch orders and the weather"
	repeats := "parser leaks goroutines at shutdown; parser leaks goroutines at shutdown"
	p := seed(t, map[string]time.Time{
		mentions:                           day("2025-01-01"),
		repeats:                            day("2025-01-01"),
		"unrelated filler about the build": day("2025-01-01"),
		"more filler words":                day("2025-01-01"),
		"the release notes of the week":    day("2025-01-01"),
	})
	for _, tc := range []struct {
		query, first, firstMatch string
	}{
		{"parser leaks goroutines shutdown timer", repeats, "any"},
		{"parser goroutines timer", mentions, "all"},
	} {
		res, err := Run(context.Background(), p, Request{Query: tc.query})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) != 2 || res.Hits[0].Content != tc.first || res.Hits[0].Match != tc.firstMatch {
			t.Errorf("%q: hits = %+v", tc.query, res.Hits)
		}
	}
}

// TestPhraseNoneSaysWholeFallsBackToItsWords: a kebab-case name (a patch's
// or a flag's) and a quoted phrase that no drawer says whole still find
// the drawers that say their words apart, after every drawer that matches
// as asked ("match": "words"); a phrase that is said keeps its hits alone.
// A name the code no longer holds (a commit subject's "invert
// PATH_STARTSWITH_ACCEPT_DOT_DOT flag", the flag since renamed ..._REFUSE_...)
// matched nothing, so the query's other words alone ranked the drawers and
// the definition of the renamed flag was not among them. Its words apart
// find it, and the notice says the name was cut.
func TestNameNoneHoldsWholeIsSearchedApart(t *testing.T) {
	flags := "typedef enum PathStartWithFlags {\n\tPATH_STARTSWITH_REFUSE_DOT_DOT = 1U << 0,\n\tPATH_STARTSWITH_RETURN_LEADING_SLASH = 1U << 1,\n} PathStartWithFlags;"
	drawers := map[string]time.Time{flags: day("2025-01-01")}
	for i := range 20 {
		drawers[fmt.Sprintf("option %d: invert the flag, so the flag reads the other way", i)] = day("2025-01-01")
	}
	p := seed(t, drawers)
	for _, q := range []string{"invert PATH_STARTSWITH_ACCEPT_DOT_DOT flag", "invert pathStartsWithAcceptDotDot flag"} {
		res, err := Run(context.Background(), p, Request{Query: q, Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		if i := slices.IndexFunc(res.Hits, func(h Hit) bool { return h.Content == flags }); i < 0 {
			t.Errorf("%q: the flags' definition is not among the %d hits", q, len(res.Hits))
		}
		name := strings.Fields(q)[1]
		if !strings.Contains(res.Notice, "no drawer holds "+name+" whole") {
			t.Errorf("%q: notice %q does not say %s was searched apart", q, res.Notice, name)
		}
	}
	// A name some drawer holds is searched whole, and no notice says otherwise.
	res, err := Run(context.Background(), p, Request{Query: "invert PATH_STARTSWITH_REFUSE_DOT_DOT flag", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Notice, "apart") || len(res.Hits) == 0 || res.Hits[0].Content != flags {
		t.Errorf("held name: notice %q, first hit %v", res.Notice, res.Hits)
	}
}

func TestPhraseNoneSaysWholeFallsBackToItsWords(t *testing.T) {
	reload := "on SIGHUP the fpm master process does a reload of its pools"
	loglevel := "LogLevel QUIET, FATAL, ERROR; SILENT is kept for compatibility"
	drawers := map[string]time.Time{}
	for _, c := range []string{reload, loglevel, "unrelated filler words", "a silent film, restored"} {
		drawers[c] = day("2025-01-01")
	}
	p := seed(t, drawers)
	for _, tc := range []struct {
		query string
		want  []string // contents in order
		match []string
	}{
		// A compound word no drawer holds whole is searched as its words
		// (see TestNameNoneHoldsWholeIsSearchedApart).
		{"php-fpm-do-reload-on-SIGHUP", []string{reload}, []string{"any"}},
		{`"LogLevel SILENT"`, []string{loglevel, "a silent film, restored"}, []string{"words", "words"}},
		{`"LogLevel QUIET"`, []string{loglevel}, []string{"all"}},
	} {
		res, err := Run(context.Background(), p, Request{Query: tc.query})
		if err != nil {
			t.Fatal(err)
		}
		var got, match []string
		for _, h := range res.Hits {
			got, match = append(got, h.Content), append(match, h.Match)
		}
		if !slices.Equal(got, tc.want) || !slices.Equal(match, tc.match) {
			t.Errorf("%q: hits %q, match %q; want %q, %q", tc.query, got, match, tc.want, tc.match)
		}
	}
}
