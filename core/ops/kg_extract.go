package ops

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/palace"
)

// Extraction after a write: a note, a diary entry or a mine is read for
// facts right after it commits, within a time budget, so an agent sees
// what it proposed in the write's answer. What the budget leaves unread
// stays marked unread, and 'palace kg extract' (or the next write's
// extraction, for a mine) reads it.
const (
	// WriteExtractBudget bounds the reading of one note or diary entry.
	WriteExtractBudget = 200 * time.Millisecond
	// MineExtractBudget bounds the reading after a mine, whatever it
	// wrote: a long chat export is read by 'palace kg extract'.
	MineExtractBudget = time.Second
)

// proposeAfterWrite reads the drawers ids name (nil: every unread drawer
// of wing) for at most budget, and says in a notice what it left or why it
// failed. The write has committed: a failed or stopped reading never fails
// it.
func proposeAfterWrite(ctx context.Context, p *palace.Palace, wing string, ids []string, budget time.Duration) (kg.ExtractResult, string) {
	bctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	res, err := kg.Extract(bctx, p.Store, kg.ExtractOptions{Wing: wing, Drawers: ids, MinConfidence: DefaultMinConfidence, Tagger: p.Seg})
	switch {
	case err != nil && bctx.Err() == nil:
		return res, fmt.Sprintf("Reading facts failed (%v); `palace kg extract` tries again.", err)
	case res.Left > 0:
		return res, fmt.Sprintf("%d drawer(s) not yet read for facts after %s; `palace kg extract` reads them.", res.Left, budget)
	}
	return res, ""
}

// withNotice appends a notice to another.
func withNotice(a, b string) string { return strings.TrimSpace(a + " " + b) }
