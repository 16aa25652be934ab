package kg

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/palace-dev/palace/core/store"
)

// RemoveRequest names a wrong fact to delete. A fact that was true and
// stopped being so is invalidated instead: it stays for as-of queries and
// the timeline.
type RemoveRequest struct {
	FactID string `json:"fact_id"`
	// DryRun looks the fact up and says what removing it would do,
	// writing nothing.
	DryRun bool `json:"dry_run,omitempty"`
}

// RemoveResult is the fact removed, or for a dry run the one that would
// be.
type RemoveResult struct {
	DryRun  bool   `json:"dry_run,omitempty"`
	Removed bool   `json:"removed"`
	Fact    Triple `json:"fact"`
	// DroppedEntities are the ids of the entities the removal left with
	// no fact, type or alias, removed with it (none for a dry run).
	DroppedEntities []string `json:"dropped_entities"`
}

// Validate checks the request without touching the palace.
func (r RemoveRequest) Validate() error {
	id := strings.TrimSpace(r.FactID)
	if id == "" {
		return invalid("fact_id", "is empty")
	}
	if !store.IsTripleID(id) {
		return invalid("fact_id", "%s is not a fact id (t_ and 24 hex digits, as add, query and timeline show them)", quote(id))
	}
	return nil
}

// Remove deletes a fact by id, audited as a removal (kg.rm), distinct from
// invalidation. An unknown id is an error matching store.ErrNotFound.
func Remove(ctx context.Context, st *store.Store, r RemoveRequest) (RemoveResult, error) {
	if err := r.Validate(); err != nil {
		return RemoveResult{}, err
	}
	id := strings.TrimSpace(r.FactID)
	res := RemoveResult{DryRun: r.DryRun, DroppedEntities: []string{}}
	var err error
	if r.DryRun {
		res.Fact, err = st.KGTriple(ctx, id)
	} else {
		res.Fact, res.DroppedEntities, err = st.KGRemove(ctx, id)
		res.Removed = err == nil
	}
	if errors.Is(err, store.ErrNotFound) {
		return RemoveResult{}, fmt.Errorf("fact %s: %w (no fact has this id; query or timeline show the ids)", id, store.ErrNotFound)
	}
	return res, err
}
