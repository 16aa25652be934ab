package ops

import (
	"context"
	"strings"

	"github.com/palace-dev/palace/core/memory"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// Note defaults and limits. Text over MaxTextBytes belongs in a mine.
const (
	DefaultRoom       = memory.DefaultRoom
	DefaultSource     = memory.DefaultSource
	DefaultImportance = memory.DefaultImportance
	MinImportance     = memory.MinImportance
	MaxImportance     = memory.MaxImportance
	MaxTextBytes      = memory.MaxTextBytes
	MaxSourceBytes    = memory.MaxSourceBytes
)

// Provenance says where a note, a diary entry or a fact was saved: the
// session (an MCP connection's "mcp-..." id, a hook's transcript session)
// and its turns when known. Notes and diary entries keep it in their
// metadata, facts in their own column.
type Provenance = store.Provenance

// TurnRange is a range of a session's turns, 1-based and inclusive.
type TurnRange = store.TurnRange

// RememberRequest is a note as every front receives it.
type RememberRequest struct {
	Text   string
	Wing   string
	Room   string // "": DefaultRoom
	Source string // "": DefaultSource; shown as the note's citation
	// Importance ranks the note in wake-up, MinImportance to
	// MaxImportance. It is required, so that 0 is never read as
	// "unimportant" by mistake: a front passes DefaultImportance when its
	// caller gives none.
	Importance int
	// Force writes the note even when the wing already holds it or a near
	// duplicate (they are still reported).
	Force bool
	// Provenance is the session the note is saved in, when the front
	// knows it (an MCP connection, a hook's transcript).
	Provenance Provenance
}

// RememberResult says what Remember did; a skipped duplicate is an
// answer (Added false, Duplicates listed), not an error. A close drawer
// that differs from the note in meaning does not stop it: the note is
// written and the drawer listed in Updates, with how they differ.
type RememberResult = memory.RememberResult

func (r RememberRequest) note() memory.Note {
	return memory.Note{Text: r.Text, Wing: r.Wing, Room: r.Room, Source: r.Source, Importance: r.Importance,
		Provenance: r.Provenance}
}

// Validate names the first bad field.
func (r RememberRequest) Validate() error { return r.note().Validate() }

// Remember files r as a note drawer unless its wing already holds it or a
// near duplicate differing only in wording, and no newer close note
// changed what that says (see memory.Remember): secrets are redacted first, the
// near-duplicate check uses every finder the palace has (vectors when it
// keeps them, always lexical), and a busy palace is waited for.
func Remember(ctx context.Context, p *palace.Palace, r RememberRequest) (RememberResult, error) {
	n := r.note()
	if err := n.Validate(); err != nil {
		return RememberResult{}, err
	}
	finders, notice := memory.DefaultFinders(ctx, p)
	res, err := retryBusy(ctx, "remember", func() (RememberResult, error) {
		return memory.Remember(ctx, p, n, memory.RememberOptions{Force: r.Force, Near: finders})
	})
	res.Notice = strings.TrimSpace(notice + " " + res.Notice)
	if err == nil && res.Added {
		var facts KGExtractResult
		facts, notice = proposeAfterWrite(ctx, p, "", []string{res.ID}, WriteExtractBudget)
		res.Proposed, res.Notice = facts.Proposals, withNotice(res.Notice, notice)
	}
	return res, err
}
