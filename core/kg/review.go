package kg

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/store"
)

// Review: proposals never change the graph by themselves. Listing them
// says what accepting each would do (add it, end the subject's other value
// of a functional predicate, end a move's old fact, end the fact a
// retraction takes back, or nothing since the graph learned the fact
// meanwhile); accepting writes the fact through Add, with its confidence
// and source drawer, or for a retraction ends it through Invalidate;
// rejecting remembers the fact so it is not proposed again. Accepting in
// bulk goes in the order things were said, so a later statement
// supersedes an earlier one instead of being blocked by it.

// ReviewItem is a pending proposal with what accepting it would do.
type ReviewItem struct {
	Proposal
	// Supersedes are the current facts accepting would close at the
	// proposal's date: the subject's other value of a functional predicate
	// (owner, works_at, ...). The proposal is a proposed supersession.
	Supersedes []Triple `json:"supersedes"`
	// Ends are the open facts of the object a move replaces ("moved from
	// MySQL to Postgres" ends "uses MySQL"), or of a retraction's fact.
	Ends []Triple `json:"ends"`
	// Known says the graph holds the fact already, or for a retraction
	// holds no open fact to end: accepting writes nothing new.
	Known bool `json:"known"`
	// Blocked says why accepting would fail: a conflicting fact that
	// starts on or after the proposal's date cannot be superseded.
	Blocked string `json:"blocked,omitempty"`
}

// ReviewList is the pending proposals, most confident first.
type ReviewList struct {
	Pending []ReviewItem `json:"pending"`
	// Total counts every pending proposal at or above the confidence
	// asked, beyond the limit too.
	Total int `json:"total"`
}

// Pending lists up to limit (0: all) pending proposals at or above min
// confidence whose drawer is live, each with what accepting it would do.
func Pending(ctx context.Context, st *store.Store, min float64, limit int) (ReviewList, error) {
	ps, total, err := st.KGProposals(ctx, store.ProposalFilter{Status: store.ProposalPending, MinConfidence: min, Live: true, Limit: limit})
	if err != nil {
		return ReviewList{}, err
	}
	out := ReviewList{Pending: make([]ReviewItem, 0, len(ps)), Total: total}
	for _, p := range ps {
		it := ReviewItem{Proposal: p, Supersedes: []Triple{}, Ends: []Triple{}}
		if p.Ends {
			if it.Ends, err = openFacts(ctx, st, p.SubjectID, p.Predicate, p.ObjectID); err != nil {
				return ReviewList{}, err
			}
			it.Known = len(it.Ends) == 0
			for _, t := range it.Ends {
				if p.ValidFrom != nil && t.ValidFrom != nil && !t.ValidFrom.Before(*p.ValidFrom) {
					it.Blocked = fmt.Sprintf("conflict: cannot end %s on %s: it starts on or after that day", Describe(t), p.ValidFrom.Format(time.DateOnly))
				}
			}
			out.Pending = append(out.Pending, it)
			continue
		}
		res, err := Check(ctx, st, proposedFact(p), AddOptions{Supersede: true})
		var ce *ConflictError
		switch {
		case errors.As(err, &ce):
			it.Blocked = ce.Error()
		case err != nil:
			return ReviewList{}, fmt.Errorf("review %s: %w", p.ID, err)
		}
		it.Known = res.Duplicate
		it.Supersedes = append(it.Supersedes, res.Superseded...)
		if p.Replaces != "" {
			if it.Ends, err = openFacts(ctx, st, p.SubjectID, p.Predicate, NormalizeName(p.Replaces)); err != nil {
				return ReviewList{}, err
			}
		}
		out.Pending = append(out.Pending, it)
	}
	return out, nil
}

// PendingCount counts the pending proposals whose drawer is live.
func PendingCount(ctx context.Context, st *store.Store) (int, error) {
	_, n, err := st.KGProposals(ctx, store.ProposalFilter{Status: store.ProposalPending, Live: true, Limit: 1})
	return n, err
}

// proposedFact is the fact accepting p adds.
func proposedFact(p Proposal) Fact {
	c := p.Confidence
	return Fact{Subject: p.Subject, Predicate: p.Predicate, Object: p.Object, ValidFrom: FormatTime(p.ValidFrom),
		Confidence: &c, SourceDrawer: p.SourceDrawer}
}

// openFacts are the facts subject predicate object still true (no end).
func openFacts(ctx context.Context, st *store.Store, subject, predicate, object string) ([]Triple, error) {
	ts, err := st.KGQuery(ctx, subject, nil, DirOut)
	if err != nil {
		return nil, err
	}
	out := []Triple{}
	for _, t := range ts {
		if t.Predicate == predicate && t.ObjectID == object && t.ValidTo == nil {
			out = append(out, t)
		}
	}
	return out, nil
}

// Decided is what a decision did to one proposal.
type Decided struct {
	ID     string `json:"id"`
	Status string `json:"status"` // accepted, rejected, or unchanged when Error is set
	// Fact is what accepting wrote (added, merged, or already known),
	// superseded facts included.
	Fact *AddResult `json:"fact,omitempty"`
	// Ended are the facts a move's or a retraction's acceptance closed.
	Ended []Triple `json:"ended,omitempty"`
	// Error says why the proposal was left pending: a conflict accepting
	// cannot resolve, or it was decided before.
	Error string `json:"error,omitempty"`
}

// proposals loads the proposals ids name; an unknown id is an error
// matching store.ErrNotFound, and nothing is decided.
func proposals(ctx context.Context, st *store.Store, ids []string) ([]Proposal, error) {
	ps, _, err := st.KGProposals(ctx, store.ProposalFilter{IDs: ids})
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		if !slices.ContainsFunc(ps, func(p Proposal) bool { return p.ID == id }) {
			return nil, fmt.Errorf("proposal %s: %w", quote(id), store.ErrNotFound)
		}
	}
	// In the order asked: a later proposal of the same functional
	// predicate supersedes an earlier one.
	slices.SortStableFunc(ps, func(a, b Proposal) int { return slices.Index(ids, a.ID) - slices.Index(ids, b.ID) })
	return ps, nil
}

// Accept accepts the proposals ids name, in that order, each through Add
// with supersede (a proposal shown as a supersession closes the facts it
// names). One that conflicts stays pending with Error set; the others are
// accepted. The error matches ErrConflict when any conflicted.
func Accept(ctx context.Context, st *store.Store, ids []string, o AddOptions) ([]Decided, error) {
	ps, err := proposals(ctx, st, ids)
	if err != nil {
		return nil, err
	}
	return accept(ctx, st, ps, o)
}

// AcceptAbove accepts every pending proposal at or above min confidence
// (whose drawer is live) in the order they were said, so of two
// conflicting values the later one supersedes the earlier, and a
// retraction ends a fact accepted before it.
func AcceptAbove(ctx context.Context, st *store.Store, min float64, o AddOptions) ([]Decided, error) {
	ps, _, err := st.KGProposals(ctx, store.ProposalFilter{Status: store.ProposalPending, MinConfidence: min, Live: true, Said: true})
	if err != nil {
		return nil, err
	}
	return accept(ctx, st, ps, o)
}

func accept(ctx context.Context, st *store.Store, ps []Proposal, o AddOptions) ([]Decided, error) {
	out := make([]Decided, 0, len(ps))
	var conflicts []string
	for _, p := range ps {
		d := Decided{ID: p.ID, Status: p.Status}
		if p.Status != store.ProposalPending {
			d.Error = fmt.Sprintf("already %s", p.Status)
			out = append(out, d)
			continue
		}
		if p.Ends {
			ended, err := endFact(ctx, st, p, o)
			if errors.Is(err, ErrInvalid) {
				d.Error = "conflict: " + err.Error()
				conflicts = append(conflicts, p.ID+": "+d.Error)
				out = append(out, d)
				continue
			}
			if err != nil {
				return out, fmt.Errorf("accept %s: %w", p.ID, err)
			}
			d.Ended = ended
			triple := ""
			if len(ended) > 0 {
				triple = ended[0].ID
			}
			if err := st.KGDecide(ctx, p.ID, store.ProposalAccepted, triple); err != nil && !errors.Is(err, store.ErrNotPending) {
				return out, fmt.Errorf("accept %s: %w", p.ID, err)
			}
			d.Status = store.ProposalAccepted
			out = append(out, d)
			continue
		}
		res, err := Add(ctx, st, proposedFact(p), AddOptions{Supersede: true, Now: o.Now})
		var ce *ConflictError
		if errors.As(err, &ce) {
			d.Error = ce.Error()
			conflicts = append(conflicts, p.ID+": "+ce.Error())
			out = append(out, d)
			continue
		}
		if err != nil {
			return out, fmt.Errorf("accept %s: %w", p.ID, err)
		}
		d.Fact = &res
		if p.Replaces != "" {
			// The old fact ends where the new one starts: the move's day,
			// or now when the drawer had no time.
			ended := ""
			if p.ValidFrom != nil {
				ended = p.ValidFrom.UTC().Format(time.RFC3339)
			}
			inv, err := Invalidate(ctx, st, InvalidateRequest{Subject: p.Subject, Predicate: p.Predicate, Object: p.Replaces,
				Ended: ended, Now: o.Now})
			switch {
			case errors.Is(err, ErrInvalid):
				// The old fact starts on or after the move: it is not the
				// one the move ended; leave it.
			case err != nil:
				return out, fmt.Errorf("accept %s: %w", p.ID, err)
			default:
				d.Ended = inv.Closed
			}
		}
		if err := st.KGDecide(ctx, p.ID, store.ProposalAccepted, res.Triple.ID); err != nil && !errors.Is(err, store.ErrNotPending) {
			return out, fmt.Errorf("accept %s: %w", p.ID, err)
		}
		d.Status = store.ProposalAccepted
		out = append(out, d)
	}
	if len(conflicts) > 0 {
		return out, fmt.Errorf("%w: %d of %d proposals left pending (%s); the others were accepted",
			ErrConflict, len(conflicts), len(ps), strings.Join(conflicts, "; "))
	}
	return out, nil
}

// endFact ends the open facts a retraction p takes back, on the day it
// was said (now when its drawer had no time). A fact that starts on or
// after that day is not the one it took back: the error matches
// ErrInvalid and nothing is ended.
func endFact(ctx context.Context, st *store.Store, p Proposal, o AddOptions) ([]Triple, error) {
	at := ""
	if p.ValidFrom != nil {
		at = p.ValidFrom.UTC().Format(time.RFC3339)
	}
	inv, err := Invalidate(ctx, st, InvalidateRequest{Subject: p.Subject, Predicate: p.Predicate, Object: p.Object, Ended: at, Now: o.Now})
	if err != nil {
		return nil, err
	}
	return inv.Closed, nil
}

// Reject rejects the proposals ids name: they leave review, and the same
// fact is not proposed again. One decided before keeps its decision, with
// Error saying so.
func Reject(ctx context.Context, st *store.Store, ids []string) ([]Decided, error) {
	ps, err := proposals(ctx, st, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Decided, 0, len(ps))
	for _, p := range ps {
		d := Decided{ID: p.ID, Status: store.ProposalRejected}
		err := st.KGDecide(ctx, p.ID, store.ProposalRejected, "")
		switch {
		case errors.Is(err, store.ErrNotPending):
			d.Status, d.Error = p.Status, "already "+p.Status
		case err != nil:
			return out, fmt.Errorf("reject %s: %w", p.ID, err)
		}
		out = append(out, d)
	}
	return out, nil
}
