package relevant

import (
	"context"
	"fmt"
	"sort"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/query"
	"github.com/palace-dev/palace/core/store"
)

// Words found in many of the palace's drawers rank little and cost the
// most: the index scores every drawer holding any query word, so one such
// word makes a search read thousands of drawers (on Go's source tree,
// "copyright" alone is in 7,400 of 122,000). Before a search, each clue's
// document frequency is read from the index itself; the search is sent the
// strongest clues that are rare and, together, cheap; the others still
// count when hits are ranked.
const (
	// commonFraction is the share of the palace's drawers from which a word
	// is too common to search for.
	commonFraction = 0.02
	// maxPostings bounds how many drawers the searched clues after the
	// strongest may be found in, together: the search's cost is about the
	// number of drawers holding any of its words (BM25 and a row read for
	// each), and the strongest clue is already bounded by the common cut.
	maxPostings = 3000
	// minIndexed is the palace size below which every clue is searched:
	// such a search is cheap, and a handful of drawers says little about
	// which words are common.
	minIndexed = 50
	// minCut is the fewest drawers the common cut allows, whatever the
	// palace's size: a clue in so few drawers is as cheap to search as a
	// whole palace below minIndexed, and without it 2% of a palace of a few
	// hundred drawers would leave out clues held by 2 or 3 of them, losing
	// recall where searches cost least. It equals minIndexed, so a palace
	// just past minIndexed still searches every clue; 2% takes over from
	// 2,500 drawers.
	minCut = minIndexed
	// maxSearched bounds the clues sent to the index.
	maxSearched = 6
)

// frequencies are the palace's size and each clue's document frequency,
// counted no further than just past the common cut.
type frequencies struct {
	n  int
	df []int
}

// frequenciesOf reads from the index how common each term is. The counts
// are the whole palace's, as BM25's are, whatever the wing: a search's cost
// is the length of its words' posting lists in the whole index.
func frequenciesOf(ctx context.Context, p *palace.Palace, terms []weighted) (frequencies, error) {
	n, err := p.Store.IndexedDrawers(ctx)
	if err != nil {
		return frequencies{}, fmt.Errorf("relevant: %w", err)
	}
	f := frequencies{n: n, df: make([]int, len(terms))}
	if n < minIndexed {
		return f, nil
	}
	matches := make([]string, 0, len(terms))
	var at []int // index in terms of each match
	for i, t := range terms {
		// Each clue is parsed as the search parses it, so it is counted
		// with the same quoting, segmenting and stemming.
		q, err := query.Parse(t.term, p.SegmentQuery)
		if err != nil {
			return f, fmt.Errorf("relevant: %w", err)
		}
		if q.Any != "" {
			matches = append(matches, q.Any)
			at = append(at, i)
		}
	}
	counts, err := p.Store.DocFrequencies(ctx, matches, store.Filter{}, f.cut()+1)
	if err != nil {
		return f, fmt.Errorf("relevant: %w", err)
	}
	for j, c := range counts {
		f.df[at[j]] = c
	}
	return f, nil
}

// maxDefiningRows is the most drawers holding the identifier that are
// read for its definitions across the whole wing: each costs a row read
// and a look at its metadata (a few microseconds), so the lookup stays
// within about ten milliseconds.
const maxDefiningRows = 2000

// widelyHeld reports whether the identifier at the cursor is in more than
// maxDefiningRows drawers. Its count is known up to the common cut; past
// the cut, when the cut is below maxDefiningRows (palaces under 100,000
// drawers), it is counted again up to just past maxDefiningRows.
func widelyHeld(ctx context.Context, p *palace.Palace, f frequencies, terms []weighted) (bool, error) {
	for i, t := range terms {
		if t.role != roleCursor {
			continue
		}
		if f.n < minIndexed || f.df[i] <= f.cut() {
			return false, nil // in few drawers, or a palace too small to matter
		}
		if f.cut() >= maxDefiningRows {
			return true, nil
		}
		q, err := query.Parse(t.term, p.SegmentQuery)
		if err != nil || q.Any == "" {
			return false, err
		}
		n, err := p.Store.DocFrequencies(ctx, []string{q.Any}, store.Filter{}, maxDefiningRows+1)
		if err != nil {
			return false, fmt.Errorf("relevant: %w", err)
		}
		return n[0] > maxDefiningRows, nil
	}
	return false, nil
}

// cut is the most drawers a clue may be found in and still be searched.
func (f frequencies) cut() int { return max(minCut, int(commonFraction*float64(f.n))) }

// choose picks the clues to search for and reports whether any was left
// out. Clues are taken strongest first (rarer first among equals): none
// that is common or in no drawer at all, path words only when nothing
// stronger is left (they mostly say where the reader already is), at most
// maxSearched, and past the first only while their drawers stay within
// maxPostings. When every clue is common, the strongest one found in some
// drawer is searched, so a place full of common words still finds
// something. A palace smaller than minIndexed is searched with its
// strongest clues, whatever their counts.
func (f frequencies) choose(terms []weighted) ([]weighted, bool) {
	if f.n < minIndexed {
		out := strongest(terms)
		return out, len(out) < len(terms)
	}
	order := make([]int, len(terms))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ta, tb := terms[order[a]], terms[order[b]]
		if ta.weight != tb.weight {
			return ta.weight > tb.weight
		}
		return f.df[order[a]] < f.df[order[b]]
	})
	var out []weighted
	total := 0
	for _, i := range order {
		t, df := terms[i], f.df[i]
		switch {
		case df == 0 || df > f.cut() || len(out) == maxSearched:
		case t.weight < weightNearby && len(out) > 0 && out[0].weight >= weightNearby:
		case len(out) > 0 && total+df > maxPostings:
		default:
			if len(out) > 0 {
				total += df
			}
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		// Every clue is common or in no drawer. Counts stop just past the
		// cut, so the common ones all read cut+1 and which is rarest is
		// not known; counting them in full would read the long posting
		// lists the cut is there to avoid. The strongest found in some
		// drawer is searched: it says most about the place. When none is
		// in any drawer, the search finds nothing whatever it is sent, so
		// it is sent the strongest clue.
		pick := order[0]
		for _, i := range order {
			if f.df[i] > 0 {
				pick = i
				break
			}
		}
		out = []weighted{terms[pick]}
	}
	return out, len(out) < len(terms)
}

// strongest keeps the clues worth a search: all but path words, at most
// maxSearched. A place with nothing else searches its path words.
func strongest(terms []weighted) []weighted {
	var out []weighted
	for _, t := range terms {
		if t.weight >= weightNearby && len(out) < maxSearched {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return terms
	}
	return out
}
