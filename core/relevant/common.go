package relevant

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// Words found in most of a wing's drawers rank nothing and cost the most:
// the index scores every drawer holding any query word, so one such word
// makes a search read most of the wing. Such words are learnt from a sample
// of the wing's drawers (a corpus's own stop words), left out of the
// search, and still count when hits are ranked.
const (
	sampleSize = 1000
	// commonFraction is the share of sampled drawers from which a word is
	// too common to search for.
	commonFraction = 0.05
	// sampleTTL bounds how stale a sample may be: a wing's vocabulary
	// changes slowly, and a stale sample only costs speed, never a hit that
	// holds a rarer clue.
	sampleTTL   = 5 * time.Minute
	maxSamples  = 32 // wings kept, across palaces
	minSampleOK = 50 // a smaller wing is searched with every clue
)

type sampleKey struct {
	p    *palace.Palace
	wing string
}

// wordSample counts, for each token, the sampled drawers holding it.
type wordSample struct {
	at time.Time
	n  int
	df map[string]int
}

var samples = struct {
	sync.Mutex
	m map[sampleKey]*wordSample
}{m: map[sampleKey]*wordSample{}}

// sampleOf returns the wing's sample ("" for the whole palace), taking a
// new one when there is none or it is older than sampleTTL.
func sampleOf(ctx context.Context, p *palace.Palace, wing string) (*wordSample, error) {
	k := sampleKey{p, wing}
	samples.Lock()
	s, ok := samples.m[k]
	samples.Unlock()
	if ok && time.Since(s.at) < sampleTTL {
		return s, nil
	}
	ds, err := p.Store.ListDrawers(ctx, store.Filter{Wing: wing}, sampleSize)
	if err != nil {
		return nil, fmt.Errorf("relevant: sample wing %q: %w", wing, err)
	}
	s = &wordSample{at: time.Now(), n: len(ds), df: map[string]int{}}
	for _, d := range ds {
		seen := map[string]bool{}
		for _, t := range tokens(d.Content) {
			if !seen[t] {
				seen[t] = true
				s.df[t]++
			}
		}
	}
	samples.Lock()
	defer samples.Unlock()
	if len(samples.m) >= maxSamples {
		var oldest sampleKey
		first := true
		for key, v := range samples.m {
			if first || v.at.Before(samples.m[oldest].at) {
				oldest, first = key, false
			}
		}
		delete(samples.m, oldest)
	}
	samples.m[k] = s
	return s, nil
}

// fraction is the share of sampled drawers holding every token of a term,
// at most that of its rarest token.
func (s *wordSample) fraction(toks []string) float64 {
	if s.n == 0 || len(toks) == 0 {
		return 0
	}
	least := s.n
	for _, t := range toks {
		least = min(least, s.df[t])
	}
	return float64(least) / float64(s.n)
}

// searchable splits terms into those worth searching for and reports
// whether any was left out. When every term is common, the rarest one is
// searched, so a place full of common words still finds something.
func (s *wordSample) searchable(terms []weighted) ([]weighted, bool) {
	if s.n < minSampleOK {
		return terms, false
	}
	var keep []weighted
	rarest, rarestF := -1, 2.0
	for i, t := range terms {
		f := s.fraction(t.tokens)
		if f < rarestF {
			rarest, rarestF = i, f
		}
		if f <= commonFraction {
			keep = append(keep, t)
		}
	}
	if len(keep) == 0 && rarest >= 0 {
		keep = []weighted{terms[rarest]}
	}
	return keep, len(keep) < len(terms)
}

// Prepare takes the word sample of a wing ahead of the first Find, so the
// first request after a server starts costs no more than the others.
func Prepare(ctx context.Context, p *palace.Palace, wing string) error {
	_, err := sampleOf(ctx, p, wing)
	return err
}
