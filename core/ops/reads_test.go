package ops

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/memory"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/query"
	"github.com/palace-dev/palace/core/store"
)

// readsPalace holds a five-part file in wing "proj" and a note in wing
// "notes", with no embedding model.
func readsPalace(t *testing.T) (*palace.Palace, []store.Drawer) {
	t.Helper()
	p := palacetest.OpenPalace(t, palace.Options{Embed: &embed.Config{Backend: embed.BackendNone}})
	var ds []store.Drawer
	for i := range 5 {
		text := fmt.Sprintf("part %d of the design: the cache evicts entries %d", i, i)
		h := store.ContentHash(text)
		ds = append(ds, store.Drawer{ID: store.DrawerID("proj", "/src/design.md", i, h), Wing: "proj", Room: "design",
			Kind: store.KindFile, Source: "/src/design.md", LineStart: 10*i + 1, LineEnd: 10*i + 9, Content: text, ContentHash: h})
	}
	note := "we chose the cache eviction policy LRU"
	h := store.ContentHash(note)
	ds = append(ds, store.Drawer{ID: store.DrawerID("notes", "adr", 0, h), Wing: "notes", Room: "decisions",
		Kind: store.KindNote, Source: "adr", Content: note, ContentHash: h})
	if _, err := p.Store.InsertDrawers(context.Background(), ds); err != nil {
		t.Fatal(err)
	}
	return p, ds
}

func wantClass(t *testing.T, what string, err error, class, field string) {
	t.Helper()
	if got := Classify(err); got != class {
		t.Errorf("%s: %s (%v), want %s", what, got, err, class)
		return
	}
	if field != "" && (err == nil || !strings.HasPrefix(err.Error(), field+" ")) {
		t.Errorf("%s: %v, want an error about %s", what, err, field)
	}
}

// An unknown wing is invalid input that lists the wings, never an empty
// answer (issue #7).
func TestSearchUnknownWing(t *testing.T) {
	p, _ := readsPalace(t)
	_, err := Search(context.Background(), p, SearchRequest{Query: "cache", Wing: "porj"})
	wantClass(t, "search in wing porj", err, Invalid, "wing")
	if err == nil || !strings.Contains(err.Error(), "no such wing (wings: notes, proj)") {
		t.Errorf("error should list the wings: %v", err)
	}
	res, err := Search(context.Background(), p, SearchRequest{Query: "cache", Wing: "proj"})
	if err != nil || len(res.Hits) != 5 {
		t.Errorf("search in proj: %d hits, %v", len(res.Hits), err)
	}
}

// Snippets mark matches with SnippetMark for every front (issue #11).
func TestSearchSnippetsAreMarkdown(t *testing.T) {
	p, _ := readsPalace(t)
	res, err := Search(context.Background(), p, SearchRequest{Query: "LRU"})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("%+v %v", res, err)
	}
	if s := res.Hits[0].Snippet; !strings.Contains(s, "**LRU**") || strings.ContainsAny(s, store.MarkStart+store.MarkEnd) {
		t.Errorf("snippet %q", s)
	}
}

func TestSearchValidate(t *testing.T) {
	for _, tc := range []struct {
		r     SearchRequest
		field string
	}{
		{SearchRequest{Query: " \t"}, "query"},
		{SearchRequest{Query: "x", Kind: "poem"}, "kind"},
		{SearchRequest{Query: "x", Mode: "fuzzy"}, "mode"},
		{SearchRequest{Query: "x", Limit: MaxSearchLimit + 1}, "limit"},
		{SearchRequest{Query: "x", Limit: -1}, "limit"},
		{SearchRequest{Query: "x", Since: "last week"}, "since"},
		{SearchRequest{Query: manyWords(query.MaxTerms + 1)}, "query"},
		{SearchRequest{Query: strings.Repeat("q", MaxQueryRunes+1)}, "query"},
	} {
		wantClass(t, fmt.Sprintf("%+v", tc.r), tc.r.Validate(), Invalid, tc.field)
	}
	err := SearchRequest{Query: manyWords(query.MaxTerms + 1)}.Validate()
	if want := fmt.Sprintf("query has %d distinct words: at most %d", query.MaxTerms+1, query.MaxTerms); err == nil || err.Error() != want {
		t.Errorf("65 distinct words: %v, want %q", err, want)
	}
	// Repeats count once: the cap is on distinct words, not on length.
	if err := (SearchRequest{Query: strings.Repeat("dial ", 500) + manyWords(query.MaxTerms-1)}).Validate(); err != nil {
		t.Errorf("64 distinct words, one of them repeated: %v", err)
	}
	if err := (SearchRequest{Query: "x", Limit: MaxSearchLimit, Source: "/src", Until: "2026-01-01"}).Validate(); err != nil {
		t.Errorf("a good request: %v", err)
	}
	wantClass(t, "given limit 0", CheckGiven("limit", 0, MaxSearchLimit), Invalid, "limit")
	wantClass(t, "given limit 101", CheckGiven("limit", 101, MaxSearchLimit), Invalid, "limit")
	wantClass(t, "given limit 100", CheckGiven("limit", 100, MaxSearchLimit), OK, "")
}

func TestGet(t *testing.T) {
	p, ds := readsPalace(t)
	ctx := context.Background()
	res, err := Get(ctx, p, GetRequest{ID: ds[2].ID, Neighbours: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.ID != ds[2].ID || res.Content != ds[2].Content || res.Citation != "/src/design.md:21-29" ||
		len(res.Before) != 1 || res.Before[0].ID != ds[1].ID || len(res.After) != 1 || res.After[0].ID != ds[3].ID {
		t.Errorf("get with a neighbour each side: %+v", res)
	}
	if res, err = Get(ctx, p, GetRequest{ID: ds[0].ID, Neighbours: MaxNeighbours}); err != nil || len(res.Before) != 0 || len(res.After) != 4 {
		t.Errorf("first drawer: %d before, %d after, %v", len(res.Before), len(res.After), err)
	}
	if res, err = Get(ctx, p, GetRequest{ID: ds[2].ID}); err != nil || res.Before != nil || res.After != nil {
		t.Errorf("no neighbours asked: %+v %v", res, err)
	}
	_, err = Get(ctx, p, GetRequest{ID: "d_000000000000000000000000"})
	wantClass(t, "unknown id", err, NotFound, "")
	_, err = Get(ctx, p, GetRequest{ID: " "})
	wantClass(t, "blank id", err, Invalid, "id")
	_, err = Get(ctx, p, GetRequest{ID: ds[2].ID, Neighbours: MaxNeighbours + 1})
	wantClass(t, "too many neighbours", err, Invalid, "neighbours")
	// A forgotten drawer is still there by id.
	if _, err := Forget(ctx, p, ForgetRequest{ID: ds[5].ID}); err != nil {
		t.Fatal(err)
	}
	if res, err = Get(ctx, p, GetRequest{ID: ds[5].ID}); err != nil || res.DeletedAt == nil {
		t.Errorf("forgotten drawer: %+v %v", res, err)
	}
}

func TestStatus(t *testing.T) {
	p, _ := readsPalace(t)
	res, err := Status(context.Background(), p, StatusRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Drawers != 6 || len(res.Rooms) != 2 || !slices.Equal(res.Wings, []string{"notes", "proj"}) ||
		res.Embedding.Backend != embed.BackendNone || res.Embedding.Pending != 6 || res.SchemaVersion == 0 {
		t.Errorf("status: %+v", res)
	}
}

func TestWakeUp(t *testing.T) {
	p, _ := readsPalace(t)
	ctx := context.Background()
	for _, f := range append([]string{""}, WakeFormats...) {
		res, err := WakeUp(ctx, p, WakeUpRequest{Wing: "notes", Format: f, Budget: 400})
		if err != nil || res.Wing != "notes" {
			t.Errorf("format %q: %+v %v", f, res, err)
		}
	}
	_, err := WakeUp(ctx, p, WakeUpRequest{Wing: "nots"})
	wantClass(t, "wake-up in an unknown wing", err, Invalid, "wing")
	if err == nil || !strings.Contains(err.Error(), "no such wing (wings: notes, proj)") {
		t.Errorf("error should list the wings: %v", err)
	}
	_, err = WakeUp(ctx, p, WakeUpRequest{Format: "poem"})
	wantClass(t, "unknown format", err, Invalid, "format")
	_, err = WakeUp(ctx, p, WakeUpRequest{Budget: MaxWakeBudget + 1})
	wantClass(t, "budget", err, Invalid, "budget")
	// A session's own wing is not checked: a project not mined yet still
	// wakes up.
	if res, err := WakeUp(ctx, p, WakeUpRequest{DefaultWing: "fresh"}); err != nil || res.Wing != "fresh" {
		t.Errorf("session wing: %+v %v", res, err)
	}
	// Nor is a wing the user wrote an identity file for.
	dir := filepath.Join(p.Store.Home(), memory.IdentityDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "newproj.md"), []byte("You work on newproj."), 0o644); err != nil {
		t.Fatal(err)
	}
	if res, err := WakeUp(ctx, p, WakeUpRequest{Wing: "newproj"}); err != nil || !strings.Contains(res.Text, "You work on newproj.") {
		t.Errorf("wing with an identity file: %+v %v", res, err)
	}
	wantClass(t, "wing a/b", WakeUpRequest{Wing: "a/b"}.Validate(), Invalid, "wing")
}

// manyWords is n distinct words, none a stop word.
func manyWords(n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = fmt.Sprintf("w%d", i)
	}
	return strings.Join(ws, " ")
}
