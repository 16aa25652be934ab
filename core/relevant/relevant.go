// Package relevant finds the drawers that matter at a place in a document:
// it reads clues from what is there (the identifier under the cursor, the
// enclosing function or type found by language-agnostic heuristics, nearby
// identifiers, the path's words), searches the document's wing and every
// conversation, leaves out the drawers that hold the very lines being read,
// and ranks the rest: the definition of the identifier at the cursor first
// (from the drawers' mined metadata, see definition.go), then the drawers
// using it, then the others, each group by which clues its drawers hold,
// tests below source unless the document is a test. The LSP front calls
// it for a cursor; the MCP and CLI fronts can call it for a file and line.
package relevant

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/query"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

// Limits of a request.
const (
	DefaultLimit = 10
	MaxLimit     = 100
	// MaxTextBytes bounds the document read for clues; a bigger one is
	// refused rather than scanned.
	MaxTextBytes = 16 << 20
)

// depth is how many candidates each search contributes before ranking: the
// clue weights reorder what the index found, so they need more than the
// limit to choose from.
func depth(limit int) int { return max(limit*4, 40) }

// rrfK is reciprocal rank fusion's constant, as in core/search.
const rrfK = 60

// Span is a range of 1-based lines, inclusive, as drawers record them.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Request asks for the drawers relevant at a place in a document.
type Request struct {
	// Path is the document's absolute path, as mining records sources; it
	// gives the path words and tells which drawers are the lines on screen.
	Path string
	// Root is the folder Path belongs to (its path words are taken below
	// it); empty means only the file name counts.
	Root string
	// Text is the document as the reader sees it.
	Text string
	// Start and End are the cursor (equal) or the selection.
	Start, End Position
	// Wing is the document's wing; empty searches every wing.
	Wing string
	// NoConversations leaves out conversation drawers of other wings.
	NoConversations bool
	// Limit is how many hits to return; 0 means DefaultLimit.
	Limit int
	// Mode is a search mode (core/search): "" for hybrid when the palace has
	// vectors, else lexical.
	Mode string
	// Exclude are more lines of Path to leave out, such as the lines the
	// editor shows.
	Exclude []Span
}

// Hit is a drawer found, with why it was chosen.
type Hit struct {
	search.Hit
	// Matched are the clues the drawer holds, strongest first.
	Matched []string `json:"matched"`
	// Why says in a few words why the drawer was chosen: "definition of
	// X" (with which of several and why), "calls X", "mentions X", "also
	// defines X" for the identifier X at the cursor, then the other clues
	// held. A definition the clue search did not find has Match
	// "definition".
	Why string `json:"why"`
}

// Result is the answer to a Request.
type Result struct {
	// Query is the search built from the clues.
	Query string `json:"query"`
	// Searched is the part of Query sent to the index when some clues were
	// left out, as words many drawers of the palace hold or as weak clues
	// (those still rank the hits); empty when the whole query was searched.
	Searched string `json:"searched,omitempty"`
	Clues    Clues  `json:"clues"`
	Mode     string `json:"mode"`
	// Excluded are the drawers left out as the lines being read.
	Excluded []string `json:"excluded"`
	Hits     []Hit    `json:"hits"`
	// About names what the hits are relevant to, for a panel's title: the
	// identifier at the cursor, else the enclosing function (or type or
	// section), else the place as path:line, the path relative to Root.
	About string `json:"about"`
	// Empty says in one sentence why there are no hits; "" when there are.
	Empty string `json:"empty"`
	// Note says in one sentence what under the cursor was skipped as
	// noise (an error variable, a receiver, a package line, a licence
	// header, a URL or a hash) and what About is instead; "" when nothing
	// was.
	Note string `json:"note,omitempty"`
}

// Validate checks a request without touching the palace.
func (r Request) Validate() error {
	switch {
	case r.Limit < 0 || r.Limit > MaxLimit:
		return input.Invalid("limit", "%d: want 1 to %d", r.Limit, MaxLimit)
	case len(r.Text) > MaxTextBytes:
		return input.Invalid("text", "is %d bytes; the limit is %d", len(r.Text), MaxTextBytes)
	case r.Start.Line < 0 || r.Start.Col < 0 || r.End.Line < 0 || r.End.Col < 0:
		return input.Invalid("position", "is negative")
	}
	switch r.Mode {
	case search.ModeAuto, search.ModeLexical, search.ModeVector, search.ModeHybrid:
	default:
		return input.Invalid("mode", "%s: want lexical, vector or hybrid", input.Quote(r.Mode))
	}
	for _, s := range r.Exclude {
		if s.Start < 0 || s.End < s.Start {
			return input.Invalid("exclude", "line span %d-%d is not a range", s.Start, s.End)
		}
	}
	return nil
}

// Find answers r: the clues, the query made of them, and the hits: the
// identifier's definition, its users, the rest, each group ranked by the
// clues its hits hold (the search's own rank breaks ties).
func Find(ctx context.Context, p *palace.Palace, r Request) (Result, error) {
	if err := r.Validate(); err != nil {
		return Result{}, err
	}
	if r.Limit == 0 {
		r.Limit = DefaultLimit
	}
	clues := Extract(r.Text, r.Start, r.End, r.Path, r.Root)
	terms := clues.terms()
	res := Result{Query: joinTerms(terms), Clues: clues, Mode: search.ModeLexical, Excluded: []string{}, Hits: []Hit{},
		About: about(clues, r)}
	res.Note = noiseNote(clues, res.About)
	if len(terms) == 0 {
		res.Empty = "Nothing to search for at " + res.About + ": no name under the cursor, around it or nearby says what it is about."
		if what := skippedWhat(clues); what != "" {
			res.Empty = "Nothing to search for at " + res.About + ": skipped " + what + ", and no name around it says what it is about."
		}
		return res, nil
	}
	freq, err := frequenciesOf(ctx, p, terms)
	if err != nil {
		return res, err
	}
	searched, dropped := freq.choose(terms)
	if dropped {
		res.Searched = joinTerms(searched)
	}
	s, err := newSearcher(ctx, p, r.Mode, joinTerms(searched))
	if err != nil {
		return res, err
	}
	res.Mode = s.mode
	scopes := []scope{{store.Filter{Wing: r.Wing}, searched}}
	if r.Wing != "" && !r.NoConversations {
		// Conversations of other wings rarely share a file's nearby names:
		// they are searched for the word at the cursor and the enclosing
		// names only, which also keeps the second search cheap.
		scopes = append(scopes, scope{store.Filter{Kind: store.KindConversation}, atLeast(searched, weightEnclosing)})
	}
	// The scopes are searched at once: each search reads its own
	// connection of the store's read pool, so the wait is the slower one's.
	lists := make([][]scored, len(scopes))
	errs := make([]error, len(scopes))
	var wg sync.WaitGroup
	for i, sc := range scopes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lists[i], errs[i] = s.run(ctx, sc.filter, sc.terms, depth(r.Limit))
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return res, err
	}
	var cands []candidate
	seen := map[string]bool{}
	best := 0.0
	for _, list := range lists {
		for _, h := range list {
			if seen[h.ID] {
				continue
			}
			seen[h.ID] = true
			if onScreen(h.Drawer, r) {
				res.Excluded = append(res.Excluded, h.ID)
				continue
			}
			best = max(best, h.Score)
			cands = append(cands, candidate{hit: h})
		}
	}
	for i := range cands {
		// The search's own score, scaled into (0, 1], breaks ties between
		// hits holding the same clues. Both scopes run the same query on
		// the same index (BM25 statistics are the whole index's), so
		// their scores compare.
		if best > 0 {
			cands[i].retrieval = cands[i].hit.Score / best
		}
		cands[i].score(terms)
	}
	wide, err := widelyHeld(ctx, p, freq, terms)
	if err != nil {
		return res, err
	}
	def, err := definitionOf(ctx, p, r, clues, terms, wide)
	if err != nil {
		return res, err
	}
	if def != nil && !seen[def.drawer.ID] {
		c := candidate{hit: scored{Drawer: def.drawer, Hit: HitOf(store.Hit{Drawer: def.drawer}, matchDefinition)}}
		c.score(terms)
		cands = append(cands, c)
	}
	for i := range cands {
		cands[i].place(def, clues.Identifier, r.Path)
	}
	// The definition first, then the drawers using the identifier, then
	// the rest; in each, tests (generated files, changelogs) below source
	// unless the document is one; then by the clues held.
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		switch {
		case a.group != b.group:
			return a.group < b.group
		case a.secondary != b.secondary:
			return !a.secondary
		case a.total != b.total:
			return a.total > b.total
		}
		return a.hit.ID < b.hit.ID
	})
	for _, c := range cands[:min(len(cands), r.Limit)] {
		res.Hits = append(res.Hits, c.result())
	}
	if len(res.Hits) == 0 {
		res.Empty = emptyReason(freq.n, terms, clues, len(res.Excluded) > 0)
	}
	return res, nil
}

// about names what a request's hits are relevant to (see Result.About).
func about(c Clues, r Request) string {
	switch {
	case c.Identifier != "":
		return c.Identifier
	case len(c.Enclosing) > 0:
		return c.Enclosing[0]
	}
	if r.Path == "" {
		return fmt.Sprintf("line %d", r.Start.Line+1)
	}
	return RelPath(r.Path, r.Root) + ":" + fmt.Sprint(r.Start.Line+1)
}

// RelPath is path relative to root when it lies inside it, else path as it
// is: how a panel names a file of the workspace.
func RelPath(path, root string) string {
	if root == "" || path == "" {
		return path
	}
	rel, err := filepath.Rel(root, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return filepath.ToSlash(rel)
}

// emptyReason says why a search of terms found nothing: an empty palace,
// or nothing mentioning the strongest clues (outside the lines on screen,
// when drawers of those were left out).
func emptyReason(drawers int, terms []weighted, c Clues, excluded bool) string {
	if drawers == 0 {
		return "The palace holds no drawers yet: mine this folder first (`palace mine DIR`, or wait for the first mine to finish)."
	}
	var names []string
	if c.Identifier != "" {
		names = []string{c.Identifier}
	} else {
		for _, t := range terms[:min(len(terms), 3)] {
			names = append(names, t.term)
		}
	}
	what := names[0]
	if len(names) > 1 {
		what = strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	}
	if excluded {
		return "Nothing in the palace mentions " + what + " outside the lines on screen."
	}
	return "Nothing in the palace mentions " + what + "."
}

// scope is one search of Find: where, and for which clues.
type scope struct {
	filter store.Filter
	terms  []weighted
}

func joinTerms(ts []weighted) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.term
	}
	return strings.Join(parts, " ")
}

// atLeast keeps the clues weighing at least w, or all when none does.
func atLeast(ts []weighted, w float64) []weighted {
	var out []weighted
	for _, t := range ts {
		if t.weight >= w {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return ts
	}
	return out
}

// onScreen reports whether d holds lines of the document being read: its
// own drawer would only tell the reader what they are looking at.
func onScreen(d store.Drawer, r Request) bool {
	if r.Path == "" || d.Source != r.Path || d.LineStart == 0 {
		return false
	}
	spans := append([]Span{{r.Start.Line + 1, r.End.Line + 1}}, r.Exclude...)
	for _, s := range spans {
		if d.LineStart <= s.End && d.LineEnd >= s.Start {
			return true
		}
	}
	return false
}

// matchDefinition is the Match of a definition's drawer that the clue
// search did not find: it was found by what it defines.
const matchDefinition = "definition"

// candidate is a hit being ranked.
type candidate struct {
	hit       scored
	retrieval float64
	matched   []weighted
	total     float64
	// group is 0 for the definition of the identifier at the cursor, 1 for
	// a drawer using it, 2 for the rest; use and def say how.
	group     int
	use       string
	def       *defined
	ident     string
	secondary bool // a test (or generated file...) read from source
}

// place puts c in its group for the identifier at the cursor, whose
// chosen definition is def (nil when none was found), read from the
// document at path.
func (c *candidate) place(def *defined, ident, path string) {
	c.group, c.ident = 2, ident
	c.secondary = search.Secondary(c.hit.Drawer, path)
	switch {
	case def != nil && c.hit.ID == def.drawer.ID:
		c.group, c.def = 0, def
	case ident != "" && defines(c.hit.Metadata, ident):
		c.group, c.use = 1, "also defines"
	case ident != "":
		if c.use = useOf(c.hit.Content, ident); c.use != "" {
			c.group = 1
		}
	}
}

func (c *candidate) score(terms []weighted) {
	ts := newTokenSet(c.hit.Content)
	c.total = c.retrieval
	for _, t := range terms {
		if ts.has(t.term, t.tokens) {
			c.matched = append(c.matched, t)
			c.total += t.weight
		}
	}
}

func (c candidate) result() Hit {
	h := Hit{Hit: c.hit.Hit, Matched: []string{}}
	h.Snippet = snippetOf(c.hit.Content, c.matched)
	for _, m := range c.matched {
		h.Matched = append(h.Matched, m.term)
	}
	h.Why = why(c.matched, c.hit)
	switch {
	case c.def != nil:
		h.Why = c.def.why()
	case c.use != "":
		h.Why = c.use + " " + c.ident
		var rest []weighted
		for _, m := range c.matched {
			if m.term != c.ident {
				rest = append(rest, m)
			}
		}
		switch {
		case len(rest) == 0:
		case c.use == "mentions":
			h.Why += ", " + clueList(rest)
		default:
			h.Why += "; mentions " + clueList(rest)
		}
	}
	return h
}

// why names the strongest clues a drawer holds, or how else it was found.
func why(matched []weighted, h scored) string {
	if len(matched) == 0 {
		if h.Scores != nil && h.Scores.Vector != nil {
			return fmt.Sprintf("close in meaning (vector similarity %.2f)", *h.Scores.Vector)
		}
		return "matches a stemmed form of the query"
	}
	return "mentions " + clueList(matched)
}

// clueList names the first four clues matched, with their roles.
func clueList(matched []weighted) string {
	var parts []string
	for _, m := range matched {
		if m.role != "" {
			parts = append(parts, fmt.Sprintf("%s (%s)", m.term, m.role))
		} else {
			parts = append(parts, m.term)
		}
		if len(parts) == 4 {
			break
		}
	}
	return strings.Join(parts, ", ")
}

// scored is a search hit as this package ranks it.
type scored struct {
	search.Hit
	Drawer store.Drawer
}

// searcher runs the clue query in one mode over several scopes.
type searcher struct {
	p    *palace.Palace
	mode string
	vec  []float32 // the query's vector in hybrid and vector modes
}

func newSearcher(ctx context.Context, p *palace.Palace, mode, text string) (*searcher, error) {
	s := &searcher{p: p, mode: search.ModeLexical}
	if mode == search.ModeLexical {
		return s, nil
	}
	emb, notice, err := search.VectorsReady(ctx, p)
	if err != nil {
		return nil, err
	}
	if emb == nil {
		if mode != search.ModeAuto {
			return nil, input.Invalid("mode", "%s needs vectors: %s", mode, notice)
		}
		// Lexical only, which palace/status says once; every answer
		// saying it again is noise.
		return s, nil
	}
	if s.vec, err = p.QueryVector(ctx, emb, text); err != nil {
		return nil, fmt.Errorf("relevant: %w", err)
	}
	s.mode = search.ModeHybrid
	if mode == search.ModeVector {
		s.mode = search.ModeVector
	}
	return s, nil
}

// run returns up to n hits in f, best first. The lexical side asks for any
// clue (OR): the clue weights, not the index, decide which matter most.
func (s *searcher) run(ctx context.Context, f store.Filter, terms []weighted, n int) ([]scored, error) {
	q, err := query.Parse(joinTerms(terms), s.p.SegmentQuery)
	if err != nil {
		return nil, fmt.Errorf("relevant: %w", err)
	}
	var lex, vec []scored
	if s.mode != search.ModeVector && q.Any != "" {
		hs, err := s.p.Store.SearchFTS(ctx, q.Any, f, n, nil)
		if err != nil {
			return nil, fmt.Errorf("relevant: %w", err)
		}
		lex = toScored(hs, "any")
	}
	if s.vec == nil {
		return lex, nil
	}
	hs, err := s.p.Store.SearchVector(ctx, s.vec, f, n)
	if err != nil {
		return nil, fmt.Errorf("relevant: %w", err)
	}
	vec = toScored(hs, "vector")
	return fuse(lex, vec, n), nil
}

func toScored(hs []store.Hit, match string) []scored {
	out := make([]scored, len(hs))
	for i, h := range hs {
		out[i] = scored{Drawer: h.Drawer, Hit: HitOf(h, match)}
	}
	return out
}

// HitOf shapes a store hit as core/search does, so relevant and search hits
// read the same.
func HitOf(h store.Hit, match string) search.Hit {
	d := h.Drawer
	out := search.Hit{
		ID: d.ID, Wing: d.Wing, Room: d.Room, Kind: d.Kind, Source: d.Source,
		LineStart: d.LineStart, LineEnd: d.LineEnd, Content: d.Content,
		Score: h.Score, Snippet: h.Snippet, Citation: search.Citation(d), Match: match,
	}
	if !d.OccurredAt.IsZero() {
		t := d.OccurredAt.UTC()
		out.Time = &t
	}
	if !d.OccurredEnd.IsZero() {
		t := d.OccurredEnd.UTC()
		out.TimeEnd = &t
	}
	out.Metadata = search.Metadata(d.Metadata)
	return out
}

// fuse merges the two sides by reciprocal rank, as core/search does, keeping
// each side's score and rank.
func fuse(lex, vec []scored, n int) []scored {
	byID := map[string]*scored{}
	var order []string
	add := func(list []scored, vector bool) {
		for i, h := range list {
			rank, score := i+1, h.Score
			cur, ok := byID[h.ID]
			if !ok {
				c := h
				c.Scores, c.Ranks = &search.Scores{}, &search.Ranks{}
				cur = &c
				byID[h.ID] = cur
				order = append(order, h.ID)
			}
			cur.Scores.Fused += 1 / float64(rrfK+rank)
			if vector {
				cur.Scores.Vector, cur.Ranks.Vector = &score, &rank
			} else {
				cur.Scores.BM25, cur.Ranks.BM25 = &score, &rank
				cur.Snippet = h.Snippet
			}
		}
	}
	add(lex, false)
	add(vec, true)
	sort.SliceStable(order, func(i, j int) bool { return byID[order[i]].Scores.Fused > byID[order[j]].Scores.Fused })
	out := make([]scored, 0, min(len(order), n))
	for _, id := range order[:min(len(order), n)] {
		h := *byID[id]
		h.Score = h.Scores.Fused
		out = append(out, h)
	}
	return out
}
