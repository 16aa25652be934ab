package kg

import (
	"math"
	"slices"
	"time"
)

// The contradiction rules, as pure functions of the facts already stored so
// Add (inside its write transaction) and Check (without one) decide exactly
// alike.
//
// Intervals are half-open, [valid_from, valid_to); a nil bound is unbounded.
// Two facts overlap when each starts before the other ends, so a fact ending
// at 2023-06-01 and one starting at 2023-06-01 do not overlap.
//
// For a new fact N = (S, P, O, [f, t)) and the stored facts E with the same
// S and P whose interval overlaps N's, in this order:
//  1. Without supersede, if some E with object O covers N (see covers), N
//     is a duplicate: nothing is written, whatever else overlaps, since a
//     restatement cannot add a contradiction.
//  2. P functional and E.object != O: E conflicts with N. Without supersede
//     nothing is written. With supersede every conflicting E that starts
//     before f is closed at f (valid_to = f); one that starts at or after f
//     cannot be fixed by closing it, so the add is still a conflict.
//  3. E.object == O: N restates E. If E covers N, N is a duplicate;
//     otherwise E is widened to the union of N and every same-object fact N
//     overlaps (a merge), so one stint stays one row. An undated N (no
//     valid_from) restates only the latest such E and never moves its start.
//  4. Otherwise N is inserted. Non-functional predicates never conflict.

// interval is a half-open validity interval in Unix seconds, with the
// extremes standing for "unbounded".
type interval struct{ from, to int64 }

func span(from, to *time.Time) interval {
	iv := interval{math.MinInt64, math.MaxInt64}
	if from != nil {
		iv.from = from.Unix()
	}
	if to != nil {
		iv.to = to.Unix()
	}
	return iv
}

func (a interval) overlaps(b interval) bool { return a.from < b.to && b.from < a.to }

// outcome is what adding one fact means; plan fills it.
type outcome struct {
	insert     bool
	duplicate  bool
	merged     bool
	conflicts  []Triple // functional contradictions found
	stuck      []Triple // conflicts supersede cannot close
	superseded []Triple // conflicts closed at the new fact's start, as they will be
	existing   *Triple  // the stored fact a duplicate or merge resolves to, as it will be
	reshape    []Reshape
}

// plan decides what adding n means given the stored facts with n's subject
// and predicate that overlap it.
func plan(n Triple, overlapping []Triple, functional, supersede bool) outcome {
	var o outcome
	ni := span(n.ValidFrom, n.ValidTo)
	var same []Triple
	for _, e := range overlapping {
		if !span(e.ValidFrom, e.ValidTo).overlaps(ni) {
			continue // the store already filtered; this keeps plan honest on its own
		}
		if e.ObjectID == n.ObjectID {
			same = append(same, e)
		} else if functional {
			o.conflicts = append(o.conflicts, e)
		}
	}
	if !supersede {
		// A restatement of a stored fact writes nothing, so it cannot add a
		// contradiction; reporting old conflicts around it would only make
		// re-asserting a current fact (often undated) fail.
		for _, e := range same {
			if covers(e, n) {
				o.conflicts = nil
				o.duplicate = true
				ex := e
				o.existing = &ex
				return o
			}
		}
	}
	if len(o.conflicts) > 0 {
		if !supersede {
			return o
		}
		for _, e := range o.conflicts {
			if n.ValidFrom == nil || (e.ValidFrom != nil && !e.ValidFrom.Before(*n.ValidFrom)) {
				o.stuck = append(o.stuck, e)
				continue
			}
			closed := e
			at := *n.ValidFrom
			closed.ValidTo = &at
			o.superseded = append(o.superseded, closed)
			o.reshape = append(o.reshape, Reshape{ID: e.ID, ValidFrom: e.ValidFrom, ValidTo: &at})
		}
		if len(o.stuck) > 0 {
			o.superseded, o.reshape = nil, nil
			return o
		}
	}
	if len(same) == 0 {
		o.insert = true
		return o
	}
	if n.ValidFrom == nil {
		// An undated restatement says "O (still) holds" without saying since
		// when; it refers to the latest stint, so earlier stints (and the gaps
		// between them) stay as they are.
		same = []Triple{slices.MaxFunc(same, func(a, b Triple) int { return CompareFrom(a.ValidFrom, b.ValidFrom) })}
	}
	for _, e := range same {
		if covers(e, n) {
			o.duplicate = true
			ex := e
			o.existing = &ex
			return o
		}
	}
	// Merge: widen the oldest restated fact to cover N and every other
	// same-object fact N touches. Each of those overlaps N, so the union is
	// one unbroken interval. N's missing valid_from adds no information and
	// widens nothing.
	keep := slices.MinFunc(same, func(a, b Triple) int { return a.CreatedAt.Compare(b.CreatedAt) })
	from, to := keep.ValidFrom, keep.ValidTo
	if n.ValidFrom != nil && from != nil && n.ValidFrom.Before(*from) {
		from = n.ValidFrom
	}
	if to != nil && (n.ValidTo == nil || n.ValidTo.After(*to)) {
		to = n.ValidTo
	}
	for _, e := range same {
		if from != nil && (e.ValidFrom == nil || e.ValidFrom.Before(*from)) {
			from = e.ValidFrom
		}
		if to != nil && (e.ValidTo == nil || e.ValidTo.After(*to)) {
			to = e.ValidTo
		}
	}
	keep.ValidFrom, keep.ValidTo = from, to
	o.merged = true
	o.existing = &keep
	o.reshape = append(o.reshape, Reshape{ID: keep.ID, ValidFrom: from, ValidTo: to})
	return o
}

// covers says whether stored fact e already states everything n states: it
// starts no later (n's missing start is "unknown", not "earlier") and ends
// no earlier (n's missing end is "still true", so only an open e covers it).
func covers(e, n Triple) bool {
	if n.ValidFrom != nil && e.ValidFrom != nil && e.ValidFrom.After(*n.ValidFrom) {
		return false
	}
	if n.ValidTo == nil {
		return e.ValidTo == nil
	}
	return e.ValidTo == nil || !e.ValidTo.Before(*n.ValidTo)
}

// CompareFrom orders start bounds, nil (since always) first.
func CompareFrom(a, b *time.Time) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return a.Compare(*b)
}
