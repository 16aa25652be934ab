package kg

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/palace-dev/palace/core/extract"
	"github.com/palace-dev/palace/core/store"
)

// Proposal is a fact the extractor read in a drawer: pending review,
// accepted or rejected.
type Proposal = store.Proposal

// MaxListedProposals caps the new proposals an extraction lists; the
// count covers them all.
const MaxListedProposals = 100

// extractBatch is how many drawers one write marks read: a stopped
// extraction loses at most this many drawers' reading, never a write.
const extractBatch = 64

// ExtractOptions say which drawers to read.
type ExtractOptions struct {
	// Wing limits reading to one wing; "" is every wing.
	Wing string
	// Drawers limits reading to these drawers (those a write just made);
	// nil is every drawer not read yet.
	Drawers []string
	// MinConfidence drops weaker proposals (extract.DefaultMinConfidence
	// unless the caller wants more).
	MinConfidence float64
	// Tagger tags Chinese; nil skips Chinese sentences.
	Tagger extract.Tagger
}

// ExtractResult says what an extraction read and proposed.
type ExtractResult struct {
	// Read is the number of drawers read (conversations, notes, diary
	// entries; never code or project files).
	Read int `json:"drawers_read"`
	// Proposed is the number of new proposals, waiting for review.
	Proposed int `json:"proposed"`
	// Known is the number of facts read that the graph holds already, or
	// that are pending or were rejected.
	Known int `json:"known"`
	// Left is the number of drawers still unread because the time ran out
	// (Stopped); 'palace kg extract' reads them.
	Left    int  `json:"left"`
	Stopped bool `json:"stopped"`
	// Proposals are the new proposals, at most MaxListedProposals.
	Proposals []Proposal `json:"proposals"`
}

// Extract reads the drawers not read yet (conversations, notes and diary
// entries) and keeps the facts they state as proposals for review. It
// resumes: each batch of drawers is marked read in the write that keeps
// their proposals, so when ctx ends (a write's time budget) what was not
// written stays unread, and the result says Stopped with what is Left;
// that is not an error. Facts the graph already holds, and facts pending
// or rejected, are not proposed again.
func Extract(ctx context.Context, st *store.Store, o ExtractOptions) (ExtractResult, error) {
	ex := extract.New(o.Tagger)
	res := ExtractResult{Proposals: []Proposal{}}
	list, set, err := st.KGFunctional(ctx)
	if err != nil && ctx.Err() == nil {
		return res, err
	}
	for ctx.Err() == nil {
		ds, err := st.UnreadDrawers(ctx, o.Wing, o.Drawers, extractBatch)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			return res, err
		}
		if len(ds) == 0 {
			break
		}
		var ps []Proposal
		var read []string
		for _, d := range ds {
			if ctx.Err() != nil {
				break
			}
			found, err := ex.Extract(readable(d), o.MinConfidence)
			if err != nil {
				return res, fmt.Errorf("extract drawer %s: %w", d.ID, err)
			}
			for _, f := range found {
				p, ok, err := proposal(ctx, st, f, list, set)
				p.Wing = d.Wing
				if err != nil {
					return res, err
				}
				if !ok {
					res.Known++
					continue
				}
				ps = append(ps, p)
			}
			read = append(read, d.ID)
		}
		if len(read) == 0 {
			break
		}
		// What was read is written even when the time ran out while
		// reading it: the budget bounds the reading, and a write cut
		// short by it would leave a failed line in the audit log.
		kept, err := st.KGPropose(context.WithoutCancel(ctx), ps, read, extract.Version)
		if err != nil {
			return res, err
		}
		res.Read += len(read)
		res.Proposed += len(kept)
		res.Known += len(ps) - len(kept)
		for _, p := range kept {
			if len(res.Proposals) < MaxListedProposals {
				res.Proposals = append(res.Proposals, p)
			}
		}
	}
	if ctx.Err() != nil {
		res.Stopped = true
		if res.Left, err = left(context.WithoutCancel(ctx), st, o); err != nil {
			return res, err
		}
	}
	return res, nil
}

// left counts the drawers an extraction left unread.
func left(ctx context.Context, st *store.Store, o ExtractOptions) (int, error) {
	if o.Drawers == nil {
		return st.UnreadCount(ctx, o.Wing)
	}
	ds, err := st.UnreadDrawers(ctx, o.Wing, o.Drawers, len(o.Drawers))
	return len(ds), err
}

// readable is a drawer as the extractor reads it. "We" is the wing (the
// project) in conversations and notes; a diary's "I" is its agent, and its
// "we" (the agent and whoever it works with) is nobody the graph can name.
func readable(d store.Drawer) extract.Drawer {
	in := extract.Drawer{ID: d.ID, Text: d.Content, Time: d.OccurredAt}
	if in.Time.IsZero() {
		in.Time = d.CreatedAt
	}
	if d.Kind == store.KindDiary {
		var m struct {
			Agent string `json:"agent"`
		}
		if json.Unmarshal([]byte(d.Metadata), &m) == nil {
			in.Speaker = m.Agent
		}
		return in
	}
	in.We = d.Wing
	return in
}

// proposal turns what the extractor read into a proposal to keep; ok is
// false when the graph already holds the fact over its dates, or would
// refuse one of its names (too long, control characters): both count as
// known.
func proposal(ctx context.Context, st *store.Store, p extract.Proposal, list []string, set bool) (Proposal, bool, error) {
	f := Fact{Subject: p.Subject, Predicate: p.Predicate, Object: p.Object, SourceDrawer: p.Drawer}
	if !p.ValidFrom.IsZero() {
		f.ValidFrom = FormatTime(&p.ValidFrom)
	}
	n, err := f.triple()
	if errors.Is(err, ErrInvalid) {
		return Proposal{}, false, nil
	}
	if err != nil {
		return Proposal{}, false, err
	}
	over, err := st.KGOverlapping(ctx, n.SubjectID, n.Predicate, n.ValidFrom, n.ValidTo)
	if err != nil {
		return Proposal{}, false, fmt.Errorf("propose %s: %w", Describe(n), err)
	}
	if p.Ends {
		done, err := ended(ctx, st, n)
		if err != nil || done {
			return Proposal{}, false, err
		}
	} else if plan(n, over, isFunctional(n.Predicate, list, set), false).duplicate {
		return Proposal{}, false, nil
	}
	return Proposal{Subject: n.Subject, SubjectID: n.SubjectID, Predicate: n.Predicate, Object: n.Object,
		ObjectID: n.ObjectID, Replaces: p.Replaces, Ends: p.Ends, ValidFrom: n.ValidFrom, Confidence: p.Confidence,
		Sentence: p.Sentence, SourceDrawer: p.Drawer}, true, nil
}

// ended says whether the graph already holds the end a retraction n
// proposes: it has facts of n's subject, predicate and object, and none
// is still true on n's day. With no such fact at all the retraction is
// kept: the fact it ends may be pending review.
func ended(ctx context.Context, st *store.Store, n Triple) (bool, error) {
	ts, err := st.KGQuery(ctx, n.SubjectID, nil, DirOut)
	if err != nil {
		return false, fmt.Errorf("propose ending %s: %w", Describe(n), err)
	}
	found := false
	for _, t := range ts {
		if t.Predicate != n.Predicate || t.ObjectID != n.ObjectID {
			continue
		}
		if t.ValidTo == nil || (n.ValidFrom != nil && t.ValidTo.After(*n.ValidFrom)) {
			return false, nil
		}
		found = true
	}
	return found, nil
}
