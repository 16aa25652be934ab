package memory

import (
	"context"
	"fmt"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
	"github.com/palace-dev/palace/core/vectors"
)

// Vector near-duplicate defaults.
const (
	// DefaultVectorThreshold is the embedding cosine at which two texts
	// count as near duplicates: MemPalace's check_duplicate default (mempal
	// warns from 0.85). Paraphrases of one fact score above it with
	// MiniLM-class models; different facts on one topic mostly below.
	DefaultVectorThreshold = 0.9
	// DefaultVectorCandidates is how many nearest drawers are compared.
	DefaultVectorCandidates = 10
)

// VectorFinder finds near-duplicates by the cosine of embeddings, among
// the wing's drawers that have a vector of the palace's model.
type VectorFinder struct {
	P *palace.Palace
	// Threshold is the lowest similarity reported; 0 means
	// DefaultVectorThreshold.
	Threshold float64
	// Candidates is how many nearest drawers are compared; 0 means
	// DefaultVectorCandidates.
	Candidates int
}

// Name implements NearFinder.
func (VectorFinder) Name() string { return "vector" }

// FindNear implements NearFinder.
func (f VectorFinder) FindNear(ctx context.Context, wing, text string) ([]Neighbour, error) {
	threshold, limit := f.Threshold, f.Candidates
	if threshold <= 0 {
		threshold = DefaultVectorThreshold
	}
	if limit <= 0 {
		limit = DefaultVectorCandidates
	}
	near, err := vectors.Nearest(ctx, f.P, text, store.Filter{Wing: wing}, limit)
	if err != nil {
		return nil, err
	}
	var out []Neighbour
	for _, n := range near {
		if n.Similarity >= threshold {
			out = append(out, Neighbour{ID: n.ID, Wing: n.Wing, Room: n.Room, Citation: n.Citation, Content: n.Content,
				Similarity: min(n.Similarity, 1)})
		}
	}
	return out, nil
}

// DefaultFinders are the near-duplicate checks for p: by vectors when the
// palace has an embedding model and vectors of it, and always lexically,
// which also sees the drawers that have no vector yet. A model that is
// configured but fails to load leaves the lexical check, and a notice; a
// palace with no model, or no vectors yet, says nothing here: the lexical
// check is then simply the check, and search and status report the vectors.
func DefaultFinders(ctx context.Context, p *palace.Palace) ([]NearFinder, string) {
	lex := []NearFinder{Lexical(p)}
	emb, notice, err := search.VectorsReady(ctx, p)
	if err != nil {
		return lex, "vector check skipped: " + err.Error()
	}
	if emb == nil {
		// Embedder is loaded once per palace, so asking again costs
		// nothing; only its load error is worth a notice on every note.
		if _, _, loadErr := p.Embedder(); loadErr != nil {
			return lex, "vector check skipped; " + notice
		}
		return lex, ""
	}
	return []NearFinder{VectorFinder{P: p}, Lexical(p)}, ""
}

// embedNow gives drawer id its vector when the palace keeps vectors of its
// model, and reports whether it did. A model that does not load is not
// reported again here: DefaultFinders has said so, and reindex will.
func embedNow(ctx context.Context, p *palace.Palace, id string) (bool, error) {
	emb, _, err := search.VectorsReady(ctx, p)
	if err != nil || emb == nil {
		return false, nil
	}
	pv, err := p.Store.PendingVectorOf(ctx, id)
	if err != nil {
		return false, err
	}
	// QueryVector caches: the vector check has usually embedded this text.
	v, err := p.QueryVector(ctx, emb, pv.Text)
	if err != nil {
		return false, err
	}
	n, err := p.Store.PutVectors(ctx, emb.ModelID(), []store.PendingVector{pv}, [][]float32{v})
	if err != nil {
		return false, fmt.Errorf("store the vector: %w", err)
	}
	return n == 1, nil
}
