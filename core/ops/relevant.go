package ops

import (
	"context"
	"strings"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/relevant"
)

// The contract's names for what an editor asks about a place in a
// document (core/relevant holds the rules).
type (
	// RelevantRequest asks for the drawers relevant at a cursor or
	// selection; its Validate names the first bad field.
	RelevantRequest = relevant.Request
	// RelevantResult is the answer: the clues, the query, the hits, what
	// they are about, why none, and what was skipped as noise.
	RelevantResult = relevant.Result
	// RelevantHit is a drawer found, with why it was chosen.
	RelevantHit = relevant.Hit
	// Position is a 0-based line and a column in runes.
	Position = relevant.Position
	// LineSpan is a range of 1-based lines, inclusive.
	LineSpan = relevant.Span
	// Mentions counts the drawers mentioning a symbol, best first.
	Mentions = relevant.Mentions
)

// MaxDocumentBytes bounds a document an editor asks about (relevant,
// hover): a bigger one is refused rather than scanned.
const MaxDocumentBytes = relevant.MaxTextBytes

// Relevant answers which drawers matter at a place in a document: the
// definition of the name under the cursor first, then its callers and
// mentions, leaving out r.Exclude's lines.
func Relevant(ctx context.Context, p *palace.Palace, r RelevantRequest) (RelevantResult, error) {
	if err := r.Validate(); err != nil {
		return RelevantResult{}, err
	}
	return relevant.Find(ctx, p, r)
}

// MentionsRequest asks how many drawers mention the identifier at a place
// in a document (an editor's hover).
type MentionsRequest struct {
	// Path is the document's absolute path; Text what the reader sees.
	Path, Text string
	At         Position
	// Wing is the document's wing ("" searches every wing);
	// conversations of every wing count too.
	Wing string
}

// MentionsAt counts the drawers mentioning the identifier at r.At, not
// counting those holding that very line. A place with no identifier has
// no mentions (Symbol "", Count 0), which is no error: a pointer rests on
// spaces and punctuation as often as on names.
func MentionsAt(ctx context.Context, p *palace.Palace, r MentionsRequest) (Mentions, error) {
	none := Mentions{Top: []RelevantHit{}}
	if len(r.Text) > MaxDocumentBytes {
		return none, input.Invalid("text", "is %d bytes; the limit is %d", len(r.Text), MaxDocumentBytes)
	}
	sym := relevant.Extract(r.Text, r.At, r.At, "", "").Identifier
	if strings.TrimSpace(sym) == "" {
		return none, nil
	}
	return relevant.FindMentions(ctx, p, relevant.MentionsRequest{Symbol: sym, Path: r.Path, Line: r.At.Line + 1, Wing: r.Wing})
}
