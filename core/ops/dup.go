package ops

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/palace-dev/palace/core/memory"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
	"github.com/palace-dev/palace/core/vectors"
)

// Near-duplicate finders, as DupResult.Finder names them.
const (
	// FinderVector ranks by the cosine of embeddings; it needs vectors of
	// the palace's model.
	FinderVector = "vector"
	// FinderLexical ranks by the cosine of the two texts' content-word sets
	// (memory.LexicalFinder), among the drawers full-text search finds for
	// any of the text's words.
	FinderLexical = "lexical"
)

// Dup limits.
const (
	DefaultDupLimit = 5
	MaxDupLimit     = 100
)

// DupRequest asks for the drawers nearest to a text.
type DupRequest struct {
	Text  string
	Wing  string
	Limit int // 0: DefaultDupLimit
}

// DupResult lists the nearest drawers, most similar first, and says how
// they were found.
type DupResult struct {
	// Finder is FinderVector, or FinderLexical when the palace has no
	// vectors of its model; Notice then says why.
	Finder string         `json:"finder"`
	Notice string         `json:"notice,omitempty"`
	Near   []vectors.Near `json:"near"`
}

// Validate names the first bad field.
func (r DupRequest) Validate() error {
	if err := checkText("text", r.Text); err != nil {
		return err
	}
	return checkLimit("limit", r.Limit, MaxDupLimit)
}

// Dup finds the drawers nearest to r.Text: by vectors when the palace has
// vectors of its model, else lexically, so a palace without a model still
// answers.
func Dup(ctx context.Context, p *palace.Palace, r DupRequest) (DupResult, error) {
	res := DupResult{Near: []vectors.Near{}}
	if err := r.Validate(); err != nil {
		return res, err
	}
	if err := checkWing(ctx, p, "wing", r.Wing); err != nil {
		return res, err
	}
	limit := r.Limit
	if limit == 0 {
		limit = DefaultDupLimit
	}
	emb, notice, err := search.VectorsReady(ctx, p)
	if err != nil {
		return res, err
	}
	if emb != nil {
		res.Finder = FinderVector
		res.Near, err = vectors.Nearest(ctx, p, r.Text, store.Filter{Wing: r.Wing}, limit)
		return res, err
	}
	res.Finder, res.Notice = FinderLexical, notice
	// Every candidate that shares a content word is scored, so the list
	// ranks the nearest as the vector finder does, with no threshold.
	f := memory.LexicalFinder{P: p, Threshold: math.SmallestNonzeroFloat64,
		Candidates: max(memory.DefaultLexicalCandidates, 4*limit)}
	ns, err := f.FindNear(ctx, r.Wing, r.Text)
	if err != nil {
		return res, err
	}
	slices.SortFunc(ns, func(a, b memory.Neighbour) int {
		return cmp.Or(cmp.Compare(b.Similarity, a.Similarity), cmp.Compare(a.ID, b.ID))
	})
	for _, n := range ns[:min(len(ns), limit)] {
		res.Near = append(res.Near, vectors.Near{ID: n.ID, Wing: n.Wing, Room: n.Room, Citation: n.Citation,
			Similarity: n.Similarity, Content: n.Content})
	}
	return res, nil
}
