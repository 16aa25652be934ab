package ops

import (
	"context"

	"github.com/palace-dev/palace/core/embed"

	"github.com/palace-dev/palace/core/memory"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
	"github.com/palace-dev/palace/core/vectors"
)

// StatusRequest asks for the palace's status; it has no fields.
type StatusRequest struct{}

// Validate has nothing to check.
func (StatusRequest) Validate() error { return nil }

// StatusResult is the palace at a glance, the same on every front (the
// servers add their session): where it is, its schema and size, live and
// forgotten drawers per wing and room, the wings a filter may name, the
// embedding backend with its vector counts, and the specialist agents.
type StatusResult struct {
	store.Status
	// Wings are the names a wing filter accepts: wings holding a drawer or
	// a taxonomy room.
	Wings     []string       `json:"wings"`
	Embedding vectors.Status `json:"embedding"`
	// Agents is the registry of specialist agents, sorted by id, so an
	// agent finds its own diary wing and knows of the others.
	Agents []Agent `json:"agents"`
}

// Status reads the counts and loads the embedding model if one is
// configured, to say whether it works (the first search would anyway).
func Status(ctx context.Context, p *palace.Palace, _ StatusRequest) (StatusResult, error) {
	st, err := p.Store.Status(ctx)
	if err != nil {
		return StatusResult{}, err
	}
	res := StatusResult{Status: st, Wings: []string{}, Agents: []Agent{}}
	wings, err := p.Store.Wings(ctx)
	if err != nil {
		return res, err
	}
	if wings != nil {
		res.Wings = wings
	}
	if res.Agents, err = memory.ListAgents(ctx, p); err != nil {
		return res, err
	}
	if res.Embedding, err = vectors.StatusOf(ctx, p); err != nil {
		return res, err
	}
	return res, nil
}

// NoModel reports whether the palace has no embedding model: no drawer
// will be embedded, so none waits for a vector, and searches are lexical.
func (r StatusResult) NoModel() bool { return r.Embedding.Backend == embed.BackendNone }
