package relevant

import (
	"context"
	"fmt"
	"strings"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/query"
	"github.com/palace-dev/palace/core/store"
)

// MaxMentions bounds the count Mentions makes; past it the count is shown
// as "N+".
const MaxMentions = 50

// MentionsRequest asks how many drawers mention a symbol.
type MentionsRequest struct {
	Symbol string
	// Wing is the symbol's wing; conversations of every wing count too
	// unless NoConversations. Empty searches every wing.
	Wing            string
	NoConversations bool
	// Path and Line (1-based) are where the symbol is being read: drawers
	// holding that line are not counted.
	Path string
	Line int
}

// Mentions counts drawers mentioning a symbol, best first.
type Mentions struct {
	Symbol string `json:"symbol"`
	Count  int    `json:"count"`
	// More is true when the count stopped at MaxMentions.
	More bool  `json:"more"`
	Top  []Hit `json:"top"`
}

// FindMentions counts the drawers that mention r.Symbol (lexically, so a
// hover stays fast) and returns the best few.
func FindMentions(ctx context.Context, p *palace.Palace, r MentionsRequest) (Mentions, error) {
	sym := strings.TrimSpace(r.Symbol)
	res := Mentions{Symbol: sym, Top: []Hit{}}
	if sym == "" {
		return res, input.Invalid("symbol", "is empty")
	}
	q, err := query.Parse(`"`+strings.ReplaceAll(sym, `"`, "")+`"`, p.SegmentQuery)
	if err != nil {
		return res, fmt.Errorf("mentions of %s: %w", sym, err)
	}
	if q.All == "" {
		return res, nil
	}
	scopes := []store.Filter{{Wing: r.Wing}}
	if r.Wing != "" && !r.NoConversations {
		scopes = append(scopes, store.Filter{Kind: store.KindConversation})
	}
	seen := map[string]bool{}
	var hits []store.Hit
	for _, f := range scopes {
		hs, err := p.Store.SearchFTS(ctx, q.All, f, MaxMentions+1, seen)
		if err != nil {
			return res, fmt.Errorf("mentions of %s: %w", sym, err)
		}
		for _, h := range hs {
			if seen[h.ID] {
				continue
			}
			seen[h.ID] = true
			if r.Path != "" && h.Source == r.Path && h.LineStart <= r.Line && h.LineEnd >= r.Line {
				continue
			}
			hits = append(hits, h)
		}
	}
	res.Count = min(len(hits), MaxMentions)
	res.More = len(hits) > MaxMentions
	for _, h := range hits[:min(len(hits), 3)] {
		res.Top = append(res.Top, Hit{Hit: HitOf(h, "all"), Matched: []string{sym}, Why: "mentions " + sym})
	}
	return res, nil
}
