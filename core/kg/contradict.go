package kg

import (
	"context"
	"fmt"
	"time"

	"github.com/palace-dev/palace/core/store"
)

// Contradiction is a subject whose functional predicate holds different
// values over overlapping dates. Add never writes one; a team sync does,
// since it applies every member's facts as they come rather than refuse
// one member's fact for another's (an import of another palace's graph
// can too). Both facts stay, and the one that starts later is the current
// value (Current): the member who wrote it knew of a change the other did
// not.
type Contradiction struct {
	Subject   string   `json:"subject"` // as first written
	Predicate string   `json:"predicate"`
	Facts     []Triple `json:"facts"` // oldest start first; since always first
	// Current is the fact with the latest valid_from (on a tie, the one
	// recorded last): the value a query marks current.
	Current Triple `json:"current"`
}

// Contradictions lists every contradiction of a functional predicate in
// the graph, by subject and predicate.
func Contradictions(ctx context.Context, st *store.Store) ([]Contradiction, error) {
	list, set, err := st.KGFunctional(ctx)
	if err != nil {
		return nil, err
	}
	if !set {
		list = DefaultFunctional
	}
	ts, err := st.KGContradicting(ctx, list)
	if err != nil {
		return nil, fmt.Errorf("check the graph: %w", err)
	}
	out := []Contradiction{}
	for _, t := range ts {
		if n := len(out); n == 0 || out[n-1].Facts[0].SubjectID != t.SubjectID || out[n-1].Predicate != t.Predicate {
			out = append(out, Contradiction{Subject: t.Subject, Predicate: t.Predicate})
		}
		c := &out[len(out)-1]
		c.Facts = append(c.Facts, t)
		if later(t, c.Current) {
			c.Current = t
		}
	}
	return out, nil
}

// later reports whether a starts after b (a fact true since always starts
// first), a tie going to the fact recorded last. An empty b is earliest.
func later(a, b Triple) bool {
	if b.ID == "" {
		return true
	}
	af, bf := span(a.ValidFrom, a.ValidTo).from, span(b.ValidFrom, b.ValidTo).from
	if af != bf {
		return af > bf
	}
	if !a.CreatedAt.Equal(b.CreatedAt) {
		return a.CreatedAt.After(b.CreatedAt)
	}
	return a.ID > b.ID
}

// outvoted returns the ids of facts true at now that a contradicting fact
// also true at now outvotes by starting later: they are not current.
func outvoted(ctx context.Context, st *store.Store, now time.Time) (map[string]bool, error) {
	cs, err := Contradictions(ctx, st)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	at := now.Unix()
	for _, c := range cs {
		var live []Triple
		var top Triple
		for _, t := range c.Facts {
			if iv := span(t.ValidFrom, t.ValidTo); iv.from <= at && at < iv.to {
				live = append(live, t)
				if later(t, top) {
					top = t
				}
			}
		}
		for _, t := range live {
			if t.ID != top.ID && t.ObjectID != top.ObjectID {
				out[t.ID] = true
			}
		}
	}
	return out, nil
}
