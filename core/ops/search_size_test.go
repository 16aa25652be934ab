package ops

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

func intp(n int) *int { return &n }

// ids lists the hits' ids in rank order.
func ids(hs []search.Hit) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.ID)
	}
	return out
}

// A compact answer ranks the same hits as a full one, each with its id,
// citation, kind, score and a one-line snippet but no content; a full
// answer carries each drawer verbatim. Both count the tokens their hits
// take as the JSON the fronts return.
func TestSearchCompactAndFull(t *testing.T) {
	p := filesPalace(t)
	ctx := context.Background()
	full, err := Search(ctx, p, SearchRequest{Query: "evict cache", Route: RouteOff, Detail: DetailFull})
	if err != nil {
		t.Fatal(err)
	}
	compact, err := Search(ctx, p, SearchRequest{Query: "evict cache", Route: RouteOff, Detail: DetailCompact})
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Hits) != 5 || !slices.Equal(ids(full.Hits), ids(compact.Hits)) {
		t.Fatalf("compact %q, full %q: want the same five hits", ids(compact.Hits), ids(full.Hits))
	}
	if full.Detail != DetailFull || compact.Detail != DetailCompact || full.Omitted != 0 || compact.Omitted != 0 {
		t.Errorf("detail %s/%s, omitted %d/%d", full.Detail, compact.Detail, full.Omitted, compact.Omitted)
	}
	sum := func(r SearchResult) int {
		n := 0
		for _, h := range r.Hits {
			k, err := hitTokens(h)
			if err != nil {
				t.Fatal(err)
			}
			n += k
		}
		return n
	}
	if full.Tokens != sum(full) || compact.Tokens != sum(compact) || compact.Tokens >= full.Tokens {
		t.Errorf("tokens: full %d (hits %d), compact %d (hits %d)", full.Tokens, sum(full), compact.Tokens, sum(compact))
	}
	for i, c := range compact.Hits {
		f := full.Hits[i]
		if f.Content == "" || !strings.Contains(f.Snippet, "**") {
			t.Errorf("full hit %d lacks its content or marks: %+v", i, f)
		}
		if c.Content != "" || c.Citation != f.Citation || c.Kind != f.Kind || c.Score != f.Score || c.Source != f.Source {
			t.Errorf("compact hit %d: %+v\nfull: %+v", i, c, f)
		}
		if !strings.Contains(c.Snippet, "**") || strings.ContainsAny(c.Snippet, "\n"+store.MarkStart) ||
			utf8.RuneCountInString(c.Snippet) > OneLineRunes {
			t.Errorf("compact snippet %d: %q", i, c.Snippet)
		}
		b, _ := json.Marshal(c)
		if strings.Contains(string(b), `"content"`) {
			t.Errorf("compact hit %d's JSON has a content: %s", i, b)
		}
	}
	// Compact by file: each row keeps its file's ranges.
	byFile, err := Search(ctx, p, SearchRequest{Query: "evict cache", Route: RouteOff, By: ByFile, Detail: DetailCompact})
	if err != nil || len(byFile.Hits) != 4 || len(byFile.Hits[0].Ranges) != 2 || byFile.Hits[0].Content != "" {
		t.Errorf("compact by file: %q, %v", rows(byFile.Hits), err)
	}
}

// A compact hit keeps its time but not its end, metadata, per-side scores
// or content; its snippet is one line.
func TestSizedCompactHit(t *testing.T) {
	at, end := time.Date(2023, 6, 27, 10, 37, 0, 0, time.UTC), time.Date(2023, 6, 27, 11, 0, 0, 0, time.UTC)
	bm25 := 2.5
	h := search.Hit{ID: "d_1", Kind: KindConversation, Source: "chat", Citation: "chat", Content: "Caroline: the lamp\nMelanie: yes",
		Snippet: "Caroline: the " + store.MarkStart + "lamp" + store.MarkEnd + "\nMelanie: yes", Time: &at, TimeEnd: &end,
		Metadata: json.RawMessage(`{"speakers":["Caroline","Melanie"]}`), Scores: &search.Scores{BM25: &bm25}, Score: 2.5}
	res, err := sized(search.Result{Hits: []search.Hit{h}}, SearchSize{Detail: DetailCompact})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Hits[0]
	if c.Time == nil || c.TimeEnd != nil || c.Metadata != nil || c.Scores != nil || c.Content != "" || c.Score != 2.5 ||
		c.Snippet != "Caroline: the **lamp** Melanie: yes" {
		t.Errorf("compact: %+v", c)
	}
}

// A budget keeps hits in rank order while their tokens fit; the first
// that would go over ends the list, even when a smaller one below it
// would fit, and the answer counts what it left out.
func TestSearchBudget(t *testing.T) {
	hit := func(id string, words int) search.Hit {
		text := strings.TrimSpace(strings.Repeat("word ", words))
		return search.Hit{ID: id, Kind: KindNote, Source: "adr", Citation: "adr", Content: text, Snippet: "a " + store.MarkStart + "word" + store.MarkEnd}
	}
	// The second hit is far bigger than the third.
	res := search.Result{Query: "word", Hits: []search.Hit{hit("a", 10), hit("b", 400), hit("c", 10), hit("d", 10)}}
	cost := map[string]int{}
	for _, h := range res.Hits {
		h.Snippet = search.Highlight(h.Snippet, SnippetMark, SnippetMark)
		cost[h.ID], _ = hitTokens(h)
	}
	fit := func(budget int) SearchResult {
		t.Helper()
		r := res
		r.Hits = slices.Clone(res.Hits)
		out, err := sized(r, SearchSize{Detail: DetailFull, Budget: budget})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, c := range []struct {
		budget  int
		want    []string
		omitted int
	}{
		{0, []string{"a", "b", "c", "d"}, 0},
		{cost["a"] + cost["b"] + cost["c"] + cost["d"], []string{"a", "b", "c", "d"}, 0},
		{cost["a"] + cost["b"], []string{"a", "b"}, 2},
		// c would fit after a, but b comes first and does not.
		{cost["a"] + cost["c"] + cost["d"], []string{"a"}, 3},
	} {
		got := fit(c.budget)
		tokens := 0
		for _, id := range c.want {
			tokens += cost[id]
		}
		if !slices.Equal(ids(got.Hits), c.want) || got.Omitted != c.omitted || got.Tokens != tokens || got.Budget != c.budget {
			t.Errorf("budget %d: hits %q, omitted %d, tokens %d; want %q, %d, %d", c.budget, ids(got.Hits), got.Omitted, got.Tokens, c.want, c.omitted, tokens)
		}
		if (got.Note != "") != (c.omitted > 0) {
			t.Errorf("budget %d: note %q", c.budget, got.Note)
		}
	}
	if got, want := fit(cost["a"]+cost["b"]).Note, fmt.Sprintf("2 more hits left out by the %d-token budget; ask with a larger budget or detail compact to see them", cost["a"]+cost["b"]); got != want {
		t.Errorf("note %q, want %q", got, want)
	}
	// A budget smaller than the first hit shows none, and says why: an
	// answer, not an error, since the search itself went well.
	got := fit(cost["a"] - 1)
	want := fmt.Sprintf("the first hit alone takes %d tokens, more than the %d-token budget, so no hit is shown (4 found); ask with a larger budget or detail compact", cost["a"], cost["a"]-1)
	if got.Hits == nil || len(got.Hits) != 0 || got.Omitted != 4 || got.Tokens != 0 || got.Note != want {
		t.Errorf("budget below the first hit: %+v\nwant note %q", got, want)
	}
}

// Through Search: a budget below the first hit answers no hits and counts
// them all; a compact answer fits more hits in the same budget than a
// full one.
func TestSearchBudgetThroughSearch(t *testing.T) {
	p := filesPalace(t)
	ctx := context.Background()
	q := SearchRequest{Query: "ledger", Route: RouteOff, Limit: 13}
	none, err := Search(ctx, p, SearchRequest{Query: q.Query, Route: q.Route, Limit: q.Limit, Budget: intp(5)})
	if err != nil || len(none.Hits) != 0 || none.Omitted != 13 || !strings.HasPrefix(none.Note, "the first hit alone takes") {
		t.Errorf("budget 5: %d hits, omitted %d, note %q, %v", len(none.Hits), none.Omitted, none.Note, err)
	}
	b, _ := json.Marshal(none)
	if !strings.Contains(string(b), `"hits":[]`) || !strings.Contains(string(b), `"omitted":13`) {
		t.Errorf("budget 5 as JSON: %s", b)
	}
	const budget = 400
	q.Budget = intp(budget)
	q.Detail = DetailFull
	full, err := Search(ctx, p, q)
	if err != nil {
		t.Fatal(err)
	}
	q.Detail = DetailCompact
	compact, err := Search(ctx, p, q)
	if err != nil {
		t.Fatal(err)
	}
	if full.Tokens > budget || compact.Tokens > budget || len(compact.Hits) <= len(full.Hits) ||
		len(full.Hits)+full.Omitted != 13 || len(compact.Hits)+compact.Omitted != 13 || full.Omitted == 0 {
		t.Errorf("budget %d: full %d hits (%d tokens, %d left out), compact %d hits (%d tokens, %d left out)",
			budget, len(full.Hits), full.Tokens, full.Omitted, len(compact.Hits), compact.Tokens, compact.Omitted)
	}
}

// The detail and budget a request names win; a request naming none gets
// its front's default: MCP's compact within AgentBudget, the CLI's and the
// LSP's full without a budget (also the zero value's).
func TestSearchSizeDefaults(t *testing.T) {
	for _, c := range []struct {
		r    SearchRequest
		want SearchSize
	}{
		{SearchRequest{Default: AgentSearch}, SearchSize{DetailCompact, AgentBudget}},
		{SearchRequest{Default: AgentSearch, Budget: intp(0)}, SearchSize{DetailCompact, 0}},
		{SearchRequest{Default: AgentSearch, Detail: DetailFull, Budget: intp(9000)}, SearchSize{DetailFull, 9000}},
		{SearchRequest{Default: PersonSearch}, SearchSize{DetailFull, 0}},
		{SearchRequest{Default: PersonSearch, Detail: DetailCompact, Budget: intp(MaxSearchBudget)}, SearchSize{DetailCompact, MaxSearchBudget}},
		{SearchRequest{}, SearchSize{DetailFull, 0}},
	} {
		got, err := c.r.size()
		if err != nil || got != c.want {
			t.Errorf("%+v: %+v, %v; want %+v", c.r, got, err, c.want)
		}
	}
	for _, c := range []struct {
		r     SearchRequest
		field string
	}{
		{SearchRequest{Query: "x", Detail: "brief"}, "detail"},
		{SearchRequest{Query: "x", Budget: intp(-1)}, "budget"},
		{SearchRequest{Query: "x", Budget: intp(MaxSearchBudget + 1)}, "budget"},
	} {
		wantClass(t, fmt.Sprintf("%+v", c.r), c.r.Validate(), Invalid, c.field)
	}
	err := SearchRequest{Query: "x", Budget: intp(-1)}.Validate()
	if want := fmt.Sprintf("budget -1: want 0 (no budget) to %d tokens", MaxSearchBudget); err == nil || err.Error() != want {
		t.Errorf("budget -1: %v, want %q", err, want)
	}
}
