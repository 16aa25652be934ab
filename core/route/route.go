// Package route proposes a wing and room for a query from the taxonomy's
// keywords, the way mempal routes queries: the query's words are matched
// against every room's name and keywords, and the room with the most
// distinct matches, if it is the only one with that many, becomes a search
// filter. Confidence is 0.6, 0.8 or 1.0 for 1, 2 or 3+ matches and a route
// is applied from 0.5 up.
//
// A route is a guess, so it must never cost the agent its answer: a route
// narrows the search to a room name, never to a wing the caller did not
// name (see Narrow); the search that applies one reruns without it when
// the routed search finds nothing (Fallback) or only partial matches where
// the rest of the palace has a complete one (Widen); the caller can turn
// routing off (Off); and every result reports the route it used.
package route

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/palace-dev/palace/core/query"
	"github.com/palace-dev/palace/core/store"
)

// MinConfidence is the confidence from which a route filters the search.
const MinConfidence = 0.5

// MaxQueryBytes bounds the query text routing reads. A longer "query" is a
// pasted document, not a question about a room; it is searched unrouted
// rather than paying to tokenise megabytes for a guess.
const MaxQueryBytes = 64 << 10

// ReasonNoMatch is the reason of a route no taxonomy keyword supports.
const ReasonNoMatch = "no taxonomy keyword in the query"

// Route is the routing decision reported with every search result.
type Route struct {
	Wing       string  `json:"wing"`
	Room       string  `json:"room"`
	Confidence float64 `json:"confidence"`
	// Applied says whether the route filtered the hits returned.
	Applied bool   `json:"applied"`
	Reason  string `json:"reason"`

	// within is the wing the caller restricted routing to, so Fallback can
	// say how far the unrouted search went.
	within string
}

// String is the route on one line, for text outputs.
func (r Route) String() string {
	if r.Room == "" {
		return "no route: " + r.Reason
	}
	state := "applied"
	if !r.Applied {
		state = "not applied"
	}
	return fmt.Sprintf("%s/%s (confidence %.1f, %s): %s", r.Wing, r.Room, r.Confidence, state, r.Reason)
}

// Scope is what the routed search covers (see Narrow): the room in the
// wing the caller named, or the room's name in every wing when the caller
// named none, since a keyword of one wing must not hide the others.
func (r Route) Scope() string {
	if r.within != "" {
		return r.within + "/" + r.Room
	}
	return "room " + r.Room + " of every wing"
}

// Off is the route of a search whose caller turned routing off.
func Off(wing string) Route {
	return Route{Reason: "routing is off; searched " + everywhere(wing), within: wing}
}

// everywhere names the unrouted search: the whole palace, or the wing the
// caller named.
func everywhere(wing string) string {
	if wing != "" {
		return "all of wing " + wing
	}
	return "everywhere"
}

// Confidence maps a number of distinct matched keywords to a confidence:
// 0, 0.6, 0.8, then 1.0 from three matches on.
func Confidence(matches int) float64 {
	switch {
	case matches <= 0:
		return 0
	case matches == 1:
		return 0.6
	case matches == 2:
		return 0.8
	default:
		return 1
	}
}

// Decide is the routing a search runs: none when the request already names
// a room (the caller chose; a guess must not override it), otherwise
// Propose within the request's wing, if any.
func Decide(ctx context.Context, st *store.Store, q string, f store.Filter) (Route, error) {
	if f.Room != "" {
		return Route{Reason: "the search names a room; not routed", within: f.Wing}, nil
	}
	return Propose(ctx, st, q, f.Wing)
}

// Propose routes q over the taxonomy of every wing, or of wing alone when
// wing is not empty. It reads the taxonomy table, which palace.yaml
// refreshes at every mine.
func Propose(ctx context.Context, st *store.Store, q, wing string) (Route, error) {
	if len(q) > MaxQueryBytes {
		return Route{Reason: fmt.Sprintf("query longer than %d bytes; not routed", MaxQueryBytes), within: wing}, nil
	}
	var rooms []store.Room
	var err error
	if wing != "" {
		rooms, err = st.Taxonomy(ctx, wing)
	} else {
		rooms, err = st.AllTaxonomy(ctx)
	}
	if err != nil {
		return Route{}, fmt.Errorf("route query: %w", err)
	}
	return Match(rooms, q, wing), nil
}

// Match routes q over rooms, keeping only wing's rooms when wing is not
// empty. It is Propose without the database, and deterministic: rooms are
// compared in (wing, room) order and reasons list names sorted.
func Match(rooms []store.Room, q, wing string) Route {
	none := Route{Reason: ReasonNoMatch, within: wing}
	if len(q) > MaxQueryBytes {
		none.Reason = fmt.Sprintf("query longer than %d bytes; not routed", MaxQueryBytes)
		return none
	}
	words := Words(q)
	if len(words) == 0 {
		return none
	}
	sorted := append([]store.Room(nil), rooms...)
	sort.Slice(sorted, func(i, j int) bool {
		if sorted[i].Wing != sorted[j].Wing {
			return sorted[i].Wing < sorted[j].Wing
		}
		return sorted[i].Room < sorted[j].Room
	})
	type scored struct {
		room    store.Room
		matched []string
	}
	var best []scored
	bestN := 0
	for _, rm := range sorted {
		if wing != "" && rm.Wing != wing {
			continue
		}
		m := matches(rm, words)
		switch {
		case len(m) == 0 || len(m) < bestN:
		case len(m) > bestN:
			best, bestN = []scored{{rm, m}}, len(m)
		default:
			best = append(best, scored{rm, m})
		}
	}
	switch {
	case bestN == 0:
		return none
	case len(best) > 1:
		names := make([]string, len(best))
		for i, b := range best {
			names[i] = b.room.Wing + "/" + b.room.Room
		}
		const shown = 5
		list := strings.Join(names[:min(len(names), shown)], ", ")
		if len(names) > shown {
			list += fmt.Sprintf(" and %d more", len(names)-shown)
		}
		none.Reason = fmt.Sprintf("ambiguous: %s each match %d query %s; not routed",
			list, bestN, plural(bestN, "word", "words"))
		return none
	}
	b := best[0]
	r := Route{
		Wing: b.room.Wing, Room: b.room.Room, Confidence: Confidence(bestN), within: wing,
		Reason: fmt.Sprintf("query matches %s of %s/%s", strings.Join(b.matched, ", "), b.room.Wing, b.room.Room),
	}
	if r.Confidence >= MinConfidence {
		r.Applied = true
		r.Reason += "; searching " + r.Scope()
	} else {
		r.Reason += fmt.Sprintf("; confidence below %.1f, not routed", MinConfidence)
	}
	return r
}

// Fallback is r after its routed search found nothing and the search ran
// again without the route: no longer applied, with a reason saying so. A
// route that was not applied is returned unchanged.
func Fallback(r Route) Route {
	if !r.Applied {
		return r
	}
	r.Applied = false
	r.Reason = fmt.Sprintf("routed to %s but it had no hits; searched %s", r.Scope(), everywhere(r.within))
	return r
}

// Widen is r after its routed search found only partial matches (no hit
// holding every query word) while the search without the route found a
// complete one: the unrouted search answers, since its ranking holds the
// room's hits too, scored alike. A route that was not applied is returned
// unchanged.
func Widen(r Route) Route {
	if !r.Applied {
		return r
	}
	r.Applied = false
	r.Reason = fmt.Sprintf("routed to %s but no hit there holds every query word and one elsewhere does; searched %s",
		r.Scope(), everywhere(r.within))
	return r
}

// Narrow returns f limited to the route's room when the route is applied,
// and f unchanged otherwise. The wing stays the caller's: with one named,
// routing only proposes that wing's rooms; without one, a keyword of one
// wing's room must not hide every other wing, so the room's name is
// searched in all of them.
func (r Route) Narrow(f store.Filter) store.Filter {
	if r.Applied {
		f.Room = r.Room
	}
	return f
}

// Words returns the distinct lowercase words of q that routing compares
// with keywords, sorted. It reads q as search does (query.Parse): stop words
// are dropped unless nothing else is left, and -excluded words are left out,
// because a word the agent excludes must not route the search towards it.
// Terms split into words the way the miner splits content for keyword
// counting: runs of letters, digits, '-' and '_'.
func Words(q string) []string {
	pq, _ := query.Parse(q, nil) // without a segmenter Parse cannot fail
	seen := map[string]bool{}
	var out []string
	for _, t := range pq.Terms {
		for _, w := range strings.FieldsFunc(strings.ToLower(t.Text), notWord) {
			if !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	sort.Strings(out)
	return out
}

// matches returns the room's name and keywords found among words, sorted
// and distinct. A name that is a generic programming word (see Generic) is
// no keyword: a folder called http says where code sits, not what a query
// about HTTP is after; keywords the user lists always count. Words compare
// exactly, except that a keyword written in a
// script without spaces between words (Chinese, Japanese) is found inside a
// longer word: an unsegmented query such as 认证模块 is one "word", and
// exact comparison would never match the keyword 认证.
func matches(rm store.Room, words []string) []string {
	set := map[string]bool{}
	keys := rm.Keywords
	if !Generic(rm.Room) {
		keys = append([]string{rm.Room}, keys...)
	}
	for _, k := range keys {
		k = strings.ToLower(strings.TrimSpace(k))
		if k == "" || set[k] {
			continue
		}
		unspaced := strings.IndexFunc(k, isUnspaced) >= 0
		for _, w := range words {
			if w == k || (unspaced && strings.Contains(w, k)) {
				set[k] = true
				break
			}
		}
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// notWord splits text into the words routing and keyword counting compare
// (the miner's definition, core/mine).
func notWord(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' }

func isUnspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
