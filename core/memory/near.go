package memory

import (
	"context"
	"fmt"
	"math"
	"strings"
	"unicode"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/query"
	"github.com/palace-dev/palace/core/store"
)

// Lexical near-duplicate defaults.
const (
	// DefaultLexicalThreshold is the word-set cosine at which two texts
	// count as near duplicates. Changing one content word in ten scores
	// 0.90 and one in five 0.80, so a restated note is caught; "deploy on
	// Friday" against "deploy on Monday" scores 0.50 (stop words do not
	// count), so a changed fact is not.
	DefaultLexicalThreshold = 0.8
	// DefaultLexicalCandidates is how many full-text hits are compared.
	DefaultLexicalCandidates = 20
	// maxQueryWords caps the words of the full-text query built from a
	// note: a near duplicate shares nearly all its words, so any 32 of them
	// find it, and a 1 MiB note does not become a 100 000-term query.
	maxQueryWords = 32
)

// LexicalFinder finds near-duplicates without vectors: a full-text query
// made of the note's distinct content words (any of them) fetches
// candidates from the wing, and each candidate is scored by the cosine of
// the two texts' content-word sets, |A∩B| / sqrt(|A|·|B|). Content words
// are the letter and digit runs, lower-cased, without the search stop
// words, Chinese segmented as search segments it. Words are compared as
// written (no stemming), so "deploys" and "deploy" differ.
type LexicalFinder struct {
	P *palace.Palace
	// Threshold is the lowest similarity reported; 0 means
	// DefaultLexicalThreshold.
	Threshold float64
	// Candidates is how many full-text hits are scored; 0 means
	// DefaultLexicalCandidates.
	Candidates int
}

// Lexical is the default near finder of palace p.
func Lexical(p *palace.Palace) LexicalFinder { return LexicalFinder{P: p} }

// Name implements NearFinder.
func (LexicalFinder) Name() string { return "lexical" }

// FindNear implements NearFinder.
func (f LexicalFinder) FindNear(ctx context.Context, wing, text string) ([]Neighbour, error) {
	threshold := f.Threshold
	if threshold <= 0 {
		threshold = DefaultLexicalThreshold
	}
	words, hits, err := f.candidates(ctx, wing, text, store.Filter{Wing: wing})
	if err != nil {
		return nil, err
	}
	var out []Neighbour
	for _, h := range hits {
		other, err := contentWords(f.P, h.Content)
		if err != nil {
			return nil, err
		}
		if sim := Similarity(words, other); sim >= threshold {
			out = append(out, neighbour(h.Drawer, sim))
		}
	}
	return out, nil
}

// candidates are text's content words and the drawers of filter holding
// any of them, by BM25, at most f.Candidates (0: the default).
func (f LexicalFinder) candidates(ctx context.Context, wing, text string, filter store.Filter) ([]string, []store.Hit, error) {
	limit := f.Candidates
	if limit <= 0 {
		limit = DefaultLexicalCandidates
	}
	words, err := contentWords(f.P, text)
	if err != nil || len(words) == 0 {
		return nil, nil, err
	}
	// The words are plain letter and digit runs, so query.Parse turns them
	// into quoted FTS terms without reading any of them as syntax.
	q, err := query.Parse(strings.Join(words[:min(len(words), maxQueryWords)], " "), nil)
	if err != nil || q.Any == "" {
		return nil, nil, err
	}
	hits, err := f.P.Store.SearchFTS(ctx, q.Any, filter, limit, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("lexical near-duplicates in %s: %w", wing, err)
	}
	return words, hits, nil
}

// Similarity is the cosine of two word sets taken as binary vectors:
// |A∩B| / sqrt(|A|·|B|), 1 for equal sets, 0 when either is empty.
// Duplicates within a list are ignored.
func Similarity(a, b []string) float64 {
	sa, sb := set(a), set(b)
	if len(sa) == 0 || len(sb) == 0 {
		return 0
	}
	common := 0
	for w := range sa {
		if sb[w] {
			common++
		}
	}
	return float64(common) / math.Sqrt(float64(len(sa))*float64(len(sb)))
}

func set(ws []string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// contentWords returns text's distinct content words in order of first
// appearance (see LexicalFinder).
func contentWords(p *palace.Palace, text string) ([]string, error) {
	runs := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r)
	})
	q, err := query.Parse(strings.Join(runs, " "), p.SegmentQuery)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, t := range q.Terms {
		w := strings.ToLower(t.Text)
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out, nil
}
