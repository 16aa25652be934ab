package search

import (
	"context"
	"fmt"
	"sort"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/palace"
)

// hybridDepth is how many hits each side contributes before fusion.
const hybridDepth = 50

// rrfK is the reciprocal rank fusion constant: a hit's fused score is the
// sum over sides of 1/(rrfK + rank). 60 is the usual choice; it keeps one
// side's top hit from drowning the other side's list.
const rrfK = 60

// VectorsReady returns the embedder when the palace holds vectors of its
// model, else nil and a one-line notice saying how to get them.
func VectorsReady(ctx context.Context, p *palace.Palace) (embed.Embedder, string, error) {
	emb, choice, err := p.Embedder()
	if err != nil {
		return nil, "lexical only: " + choice.Reason, nil
	}
	if emb == nil {
		return nil, "lexical only: " + choice.Reason, nil
	}
	model, any, err := p.Store.VecReady(ctx)
	if err != nil {
		return nil, "", err
	}
	switch {
	case model != emb.ModelID() && model != "":
		return nil, fmt.Sprintf("lexical only: the vectors were made with %s, not %s; run `palace reindex`", model, emb.ModelID()), nil
	case !any:
		return nil, "lexical only: no drawer has a vector yet; run `palace reindex`", nil
	}
	return emb, "", nil
}

// fuseHits merges a lexical and a vector ranking by reciprocal rank fusion,
// recording each side's score and rank.
func fuseHits(lex, vec []Hit, limit int) []Hit {
	byID := map[string]*Hit{}
	var order []string
	add := func(list []Hit, side string) {
		for i, h := range list {
			rank, score := i+1, h.Score
			cur, ok := byID[h.ID]
			if !ok {
				c := h
				c.Scores, c.Ranks = &Scores{}, &Ranks{}
				cur = &c
				byID[h.ID] = cur
				order = append(order, h.ID)
			}
			cur.Scores.Fused += 1 / float64(rrfK+rank)
			if side == "bm25" {
				cur.Scores.BM25, cur.Ranks.BM25 = &score, &rank
			} else {
				cur.Scores.Vector, cur.Ranks.Vector = &score, &rank
			}
		}
	}
	add(lex, "bm25")
	add(vec, "vector")
	sort.SliceStable(order, func(i, j int) bool { return byID[order[i]].Scores.Fused > byID[order[j]].Scores.Fused })
	if len(order) > limit {
		order = order[:limit]
	}
	out := make([]Hit, len(order))
	for i, id := range order {
		out[i] = *byID[id]
		out[i].Score = out[i].Scores.Fused
	}
	return out
}
