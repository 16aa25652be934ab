// Package vectors fills the palace's vector index: it embeds drawers that
// have no vector of the current model, in batches, after their text is
// already searchable. Vectors are an accelerant: a drawer without one is
// still found lexically.
package vectors

import (
	"context"
	"fmt"
	"time"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

// DefaultBatch is how many drawers are embedded and committed together.
const DefaultBatch = 64

// Options control a fill.
type Options struct {
	Batch    int
	Progress func(done, total int) // may be nil
}

// Summary reports a fill.
type Summary struct {
	Backend  string  `json:"backend"`
	Model    string  `json:"model,omitempty"`
	Reason   string  `json:"reason,omitempty"`
	Embedded int     `json:"embedded"`
	Pending  int     `json:"pending"` // still without a vector afterwards
	Rebuilt  bool    `json:"rebuilt"` // the index was (re)created for this model
	Seconds  float64 `json:"seconds"`
}

// Fill embeds every live drawer that lacks a vector of the palace's model.
// Without a model it does nothing and says why. It is resumable: each batch
// commits on its own, and an interrupted fill continues where it stopped.
func Fill(ctx context.Context, p *palace.Palace, o Options) (Summary, error) {
	start := time.Now()
	emb, choice, err := p.Embedder()
	sum := Summary{Backend: choice.Backend, Reason: choice.Reason}
	if err != nil {
		return sum, fmt.Errorf("embeddings: %w", err)
	}
	if emb == nil {
		vi, err := p.Store.VecInfo(ctx)
		sum.Pending = vi.Pending
		return sum, err
	}
	if o.Batch <= 0 {
		o.Batch = DefaultBatch
	}
	model := emb.ModelID()
	sum.Model = model
	if sum.Rebuilt, err = p.Store.EnsureVectors(ctx, model, emb.Dim()); err != nil {
		return sum, err
	}
	vi, err := p.Store.VecInfo(ctx)
	if err != nil {
		return sum, err
	}
	total := vi.Pending
	var after int64
	for {
		if err := ctx.Err(); err != nil {
			sum.Pending = total - sum.Embedded
			return sum, fmt.Errorf("embedding interrupted after %d drawers; run again to resume: %w", sum.Embedded, err)
		}
		batch, err := p.Store.PendingVectors(ctx, model, after, o.Batch)
		if err != nil {
			return sum, err
		}
		if len(batch) == 0 {
			break
		}
		after = batch[len(batch)-1].Seq
		texts := make([]string, len(batch))
		for i, b := range batch {
			texts[i] = b.Text
		}
		vecs, err := emb.Embed(ctx, texts)
		if err != nil {
			return sum, fmt.Errorf("embed drawers: %w", err)
		}
		n, err := p.Store.PutVectors(context.WithoutCancel(ctx), model, batch, vecs)
		if err != nil {
			return sum, err
		}
		sum.Embedded += n
		if o.Progress != nil {
			o.Progress(sum.Embedded, total)
		}
	}
	vi, err = p.Store.VecInfo(ctx)
	sum.Pending = vi.Pending
	sum.Seconds = time.Since(start).Seconds()
	return sum, err
}

// Near is a drawer close to a text.
type Near struct {
	ID         string  `json:"id"`
	Wing       string  `json:"wing"`
	Room       string  `json:"room"`
	Citation   string  `json:"citation"`
	Similarity float64 `json:"similarity"` // cosine, 1 is identical
	Content    string  `json:"content"`
}

// Nearest returns the drawers whose vectors are closest to text's.
func Nearest(ctx context.Context, p *palace.Palace, text string, f store.Filter, limit int) ([]Near, error) {
	emb, choice, err := p.Embedder()
	if err != nil {
		return nil, fmt.Errorf("embeddings: %w", err)
	}
	if emb == nil {
		return nil, fmt.Errorf("no embedding model: %s", choice.Reason)
	}
	model, _, err := p.Store.VecReady(ctx)
	if err != nil {
		return nil, err
	}
	if model != emb.ModelID() {
		return nil, fmt.Errorf("the palace has no vectors of %s; run `palace reindex`", emb.ModelID())
	}
	qv, err := p.QueryVector(ctx, emb, text)
	if err != nil {
		return nil, err
	}
	hits, err := p.Store.SearchVector(ctx, qv, f, limit)
	if err != nil {
		return nil, err
	}
	out := []Near{}
	for _, h := range hits {
		out = append(out, Near{ID: h.ID, Wing: h.Wing, Room: h.Room, Citation: search.Citation(h.Drawer), Similarity: h.Score, Content: h.Content})
	}
	return out, nil
}

// Status is what status, doctor and the servers say about vectors: the
// backend and why, and the vector counts.
type Status struct {
	Backend  string `json:"backend"`
	Reason   string `json:"reason"`
	ModelDir string `json:"model_dir,omitempty"`
	ORTLib   string `json:"ort_lib,omitempty"`
	Model    string `json:"model,omitempty"` // the model the vectors came from
	Vectors  int    `json:"vectors"`
	Pending  int    `json:"pending"`
}

// StatusOf loads the model if one is configured (the first search would
// anyway) and counts the vectors.
func StatusOf(ctx context.Context, p *palace.Palace) (Status, error) {
	_, choice, _ := p.Embedder()
	vi, err := p.Store.VecInfo(ctx)
	if err != nil {
		return Status{}, fmt.Errorf("vector index: %w", err)
	}
	return Status{Backend: choice.Backend, Reason: choice.Reason, ModelDir: choice.ModelDir,
		ORTLib: choice.ORTLib, Model: vi.Model, Vectors: vi.Vectors, Pending: vi.Pending}, nil
}
