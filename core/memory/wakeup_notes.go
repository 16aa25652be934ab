package memory

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// Bounds of the Decided section's work. Notes are compared pairwise, so
// the candidates are bounded: the newest wakeNewestNotes, plus the
// wakeImportantNotes most important ones however old.
const (
	wakeNewestNotes    = 200
	wakeImportantNotes = 30
	// correctionSimilarity is the closeness at which a newer note that
	// reads as a correction ("Correction: ...", "Actually ...", "no
	// longer ...") replaces an older one it differs from: the word-set
	// cosine (see Similarity) or the share of the older note's words the
	// correction holds, whichever is higher. A correction restates its
	// subject and adds words of its own ("... moved to the green cluster
	// last week, after the outage"), so the cosine alone falls below the
	// near-duplicate threshold that applies without such a word.
	correctionSimilarity = 0.6
)

// correctionCue matches the words with which a note says it changes an
// earlier one.
var correctionCue = regexp.MustCompile(`(?i)\b(correction|corrected|correcting|actually|instead|no longer|not anymore|` +
	`rather than|changed|switched|switching|reverted|replaced|replaces|supersedes?|scratch that|wrong|mistaken|update[ds]?|from now on|now)\b`)

// decided is a note the Decided section shows: the newest of the notes
// that say the same thing, with what it replaced.
type decided struct {
	d store.Drawer
	// importance is the highest of the note and those it stands for: a
	// correction of an important decision is as important.
	importance float64
	// rank is the note's place in written order (higher is newer).
	rank int
	// replaces are the older notes it corrects or changes, duplicates
	// those saying the same thing; both are left out of the text.
	replaces, duplicates []string
	// was are the words only the older note it directly replaced says
	// ("increase" for "decrease"), for the line.
	was []string
}

// noteInfo is what the comparison reads of a candidate note once.
type noteInfo struct {
	d     store.Drawer
	words []string
	m     meaning
	cue   bool
}

// relation is how an older note stands to a newer one.
type relation int

const (
	unrelated relation = iota
	sameNote           // says the same: a duplicate, collapsed
	replaced           // changed by the newer note: left out
)

// decide selects the notes in force: every candidate note of the wing,
// compared with every newer one in written order (store.WrittenOrder),
// is left out when a newer note says the same thing (the same text, or a
// near duplicate that differs only in wording: Differences is empty) or
// changes it (a close note differing in meaning: a negation, a number, a
// word...), the same rule Remember uses to report updates. The notes left
// are ordered by importance, then newest first, then by id, so the same
// palace always gives the same order, whatever second two notes shared.
func decide(ctx context.Context, p *palace.Palace, wing string) ([]decided, error) {
	newest, err := p.Store.ListDrawers(ctx, store.Filter{Wing: wing, Kind: store.KindNote}, wakeNewestNotes)
	if err != nil {
		return nil, fmt.Errorf("wake-up: notes: %w", err)
	}
	top, err := p.Store.TopDrawers(ctx, wing, wakeImportantNotes)
	if err != nil {
		return nil, fmt.Errorf("wake-up: notes: %w", err)
	}
	byID := map[string]store.Drawer{}
	ids := []string{}
	for _, d := range append(newest, top...) {
		if _, seen := byID[d.ID]; seen || d.Kind != store.KindNote {
			continue
		}
		byID[d.ID] = d
		ids = append(ids, d.ID)
	}
	order, err := p.Store.WrittenOrder(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("wake-up: notes: %w", err)
	}
	notes := make([]noteInfo, 0, len(order))
	for _, id := range order {
		d := byID[id]
		ws, err := contentWords(p, d.Content)
		if err != nil {
			return nil, fmt.Errorf("wake-up: note %s: %w", id, err)
		}
		m, err := meaningOf(d.Content, p.SegmentQuery)
		if err != nil {
			return nil, fmt.Errorf("wake-up: note %s: %w", id, err)
		}
		notes = append(notes, noteInfo{d: d, words: ws, m: m, cue: correctionCue.MatchString(d.Content)})
	}
	// next[i] is the newest note that i relates to; a note with none is
	// in force. Following next from a note ends at the note in force that
	// stands for it.
	next := make([]int, len(notes))
	rel := make([]relation, len(notes))
	was := make([][]string, len(notes))
	for i := range notes {
		next[i] = -1
		for j := len(notes) - 1; j > i; j-- {
			if r, w := relate(notes[i], notes[j]); r != unrelated {
				next[i], rel[i], was[i] = j, r, w
				break
			}
		}
	}
	out := make([]decided, 0, len(notes))
	at := map[int]int{} // note index -> its place in out
	for i, n := range notes {
		if next[i] < 0 {
			at[i] = len(out)
			out = append(out, decided{d: n.d, importance: n.d.Importance, rank: i})
		}
	}
	// Oldest first, so a directly replaced note seen last is the newest
	// one: its changed words are the ones the line shows.
	for i, n := range notes {
		if next[i] < 0 {
			continue
		}
		k := i
		for next[k] >= 0 {
			k = next[k]
		}
		o := &out[at[k]]
		o.importance = max(o.importance, n.d.Importance)
		if rel[i] == sameNote {
			o.duplicates = append(o.duplicates, n.d.ID)
			continue
		}
		o.replaces = append(o.replaces, n.d.ID)
		if next[i] == k {
			o.was = was[i]
		}
	}
	slices.SortFunc(out, func(a, b decided) int {
		if c := cmp.Compare(b.importance, a.importance); c != 0 {
			return c
		}
		if c := cmp.Compare(b.rank, a.rank); c != 0 {
			return c
		}
		return cmp.Compare(a.d.ID, b.d.ID)
	})
	return out, nil
}

// relate says how the older note a stands to the newer note b, and the
// words only a says when b changes it.
func relate(a, b noteInfo) (relation, []string) {
	// Each project decides for itself: a whole-palace wake-up compares a
	// note with its own wing's only.
	if a.d.Wing != b.d.Wing {
		return unrelated, nil
	}
	if a.d.ContentHash == b.d.ContentHash {
		return sameNote, nil
	}
	sim := Similarity(a.words, b.words)
	close := sim
	threshold := DefaultLexicalThreshold
	if b.cue {
		close, threshold = max(sim, containment(a.words, b.words)), correctionSimilarity
	}
	if close < threshold {
		return unrelated, nil
	}
	d := a.m.against(b.m)
	switch {
	case len(d.Kinds) == 0 && sim >= DefaultLexicalThreshold:
		return sameNote, nil
	case len(d.Kinds) > 0:
		return replaced, d.Was
	}
	return unrelated, nil
}

// containment is the share of a's distinct words that b holds.
func containment(a, b []string) float64 {
	sa, sb := set(a), set(b)
	if len(sa) == 0 {
		return 0
	}
	n := 0
	for w := range sa {
		if sb[w] {
			n++
		}
	}
	return float64(n) / float64(len(sa))
}
