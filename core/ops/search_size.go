package ops

import (
	"encoding/json"
	"fmt"

	"github.com/palace-dev/palace/aaak"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/search"
)

// How much of each hit a search answer carries.
const (
	// DetailCompact: a hit's id, citation, kind, time, score and a
	// one-line snippet (with its wing, room, source, lines, how it
	// matched and why), without the drawer's content, metadata, end time
	// or per-side scores; get a drawer by its id to read it whole.
	DetailCompact = "compact"
	// DetailFull: each hit carries its drawer verbatim, with its
	// metadata.
	DetailFull = "full"
)

// SearchDetails are the values of SearchRequest.Detail.
var SearchDetails = []string{DetailCompact, DetailFull}

// MaxSearchBudget bounds a search's token budget: MaxSearchLimit whole
// drawers take less, so a larger one is a mistake (a character count, a
// context window's size). It is the wake-up's bound too.
const MaxSearchBudget = MaxWakeBudget

// OneLineRunes bounds a compact hit's snippet: about the 24 words of a
// full hit's snippet, on one line.
const OneLineRunes = 200

// SearchSize is a front's default answer size: the detail and budget of
// a search whose caller names neither.
type SearchSize struct {
	Detail string // one of SearchDetails
	Budget int    // tokens; 0: none
}

// The fronts' defaults, here so that each front only names its own. An
// agent pays for every token of an answer with its context window, so MCP
// answers compact, within AgentBudget tokens, and the agent reads the
// drawers worth reading with palace_get. A person at a terminal or in an
// editor is shown the drawers: the CLI and the LSP answer in full, without
// a budget, as they always have.
var (
	AgentSearch  = SearchSize{Detail: DetailCompact, Budget: AgentBudget}
	PersonSearch = SearchSize{Detail: DetailFull}
)

// AgentBudget is MCP's default search budget: about ten compact hits
// (DefaultSearchLimit), or four or five whole drawers (measured on LoCoMo
// and on Palace's own code: README, Searching).
const AgentBudget = 1500

// size is the detail and budget r asks for, its front's defaults filled in.
func (r SearchRequest) size() (SearchSize, error) {
	s := r.Default
	if s.Detail == "" {
		s.Detail = DetailFull
	}
	if err := checkEnum("detail", r.Detail, SearchDetails); err != nil {
		return s, err
	}
	if r.Detail != "" {
		s.Detail = r.Detail
	}
	if r.Budget != nil {
		if b := *r.Budget; b < 0 || b > MaxSearchBudget {
			return s, input.Invalid("budget", "%d: want 0 (no budget) to %d tokens", b, MaxSearchBudget)
		}
		s.Budget = *r.Budget
	}
	return s, nil
}

// SearchResult is a search's answer, sized as the request asked.
type SearchResult struct {
	search.Result
	// Detail is how much each hit carries: DetailCompact or DetailFull.
	Detail string `json:"detail"`
	// Budget is the token budget the hits were fitted in; 0 for none.
	Budget int `json:"budget,omitempty"`
	// Tokens is what the hits take, counted as the budget counts them
	// (hitTokens).
	Tokens int `json:"tokens"`
	// Omitted is how many hits the budget left out, and Note says so, and
	// how to see them; "" when it left none out.
	Omitted int    `json:"omitted"`
	Note    string `json:"note,omitempty"`
}

// sized answers res at size s: compact hits cut down to a one-line
// snippet, then hits kept in rank order while their tokens stay within
// the budget; the first hit that would go over ends the list, so a hit
// is never skipped for a smaller one below it.
func sized(res search.Result, s SearchSize) (SearchResult, error) {
	out := SearchResult{Result: res, Detail: s.Detail, Budget: s.Budget}
	for i, h := range res.Hits {
		if s.Detail == DetailCompact {
			h.Snippet = search.OneLine(h, OneLineRunes)
			h.Content, h.Metadata, h.TimeEnd, h.Scores, h.Ranks = "", nil, nil, nil, nil
		}
		h.Snippet = search.Highlight(h.Snippet, SnippetMark, SnippetMark)
		n, err := hitTokens(h)
		if err != nil {
			return out, err
		}
		if s.Budget > 0 && out.Tokens+n > s.Budget {
			out.Hits, out.Omitted = res.Hits[:i], len(res.Hits)-i
			out.Note = budgetNote(s, i, out.Omitted, n)
			return out, nil
		}
		res.Hits[i] = h
		out.Tokens += n
	}
	return out, nil
}

// hitTokens counts a hit as the JSON MCP returns and `palace search
// --json` prints for it, with aaak.CountTokens, the estimator the wake-up
// budget uses: everything the caller reads of the hit, field names and
// punctuation too. The answer's envelope (query, route, mode) is the same
// whatever the hits and is not counted; nor is what the LSP adds to each
// hit (uri, range, matched, a longer why).
func hitTokens(h search.Hit) (int, error) {
	b, err := json.Marshal(h)
	if err != nil {
		return 0, fmt.Errorf("count the tokens of hit %s: %w", h.ID, err)
	}
	return aaak.CountTokens(string(b)), nil
}

// budgetNote says what the budget left out: omitted hits after shown,
// the first of them taking next tokens.
func budgetNote(s SearchSize, shown, omitted, next int) string {
	how := "ask with a larger budget"
	if s.Detail == DetailFull {
		how += " or detail compact"
	}
	if shown == 0 {
		return fmt.Sprintf("the first hit alone takes %d tokens, more than the %d-token budget, so no hit is shown (%d found); %s",
			next, s.Budget, omitted, how)
	}
	more := fmt.Sprintf("%d more hits", omitted)
	if omitted == 1 {
		more = "1 more hit"
	}
	return fmt.Sprintf("%s left out by the %d-token budget; %s to see them", more, s.Budget, how)
}
