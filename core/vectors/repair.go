package vectors

import (
	"context"
	"fmt"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// RepairResult is what `palace repair` did and the checks afterwards.
type RepairResult struct {
	store.RepairReport
	// Vectors is the fill that embedded what the repair left pending (and
	// whatever was pending before).
	Vectors Summary `json:"vectors"`
	// Resegmented counts drawers whose Chinese index text an earlier
	// segmentation wrote, brought up to date (palace.Resegment).
	Resegmented int                 `json:"resegmented"`
	OK          bool                `json:"ok"`
	Checks      []store.HealthCheck `json:"checks"`
}

// Repair mends the palace's derived indexes (store.Repair), re-segments
// Chinese index text an earlier version wrote (palace.Resegment), fills the
// vectors that leaves pending with the palace's model (none without one:
// those drawers stay searchable lexically), and runs every check again. The
// store cannot fill vectors itself: embedding needs the model, which only
// the palace handle loads.
func Repair(ctx context.Context, p *palace.Palace, o Options) (RepairResult, error) {
	var res RepairResult
	var err error
	if res.RepairReport, err = p.Store.Repair(ctx); err != nil {
		return res, fmt.Errorf("repair: %w", err)
	}
	if res.Resegmented, err = p.Resegment(ctx); err != nil {
		return res, fmt.Errorf("repair: %w", err)
	}
	if res.Vectors, err = Fill(ctx, p, o); err != nil {
		return res, fmt.Errorf("repair: refill vectors: %w", err)
	}
	if res.Checks, err = p.Store.Check(ctx); err != nil {
		return res, fmt.Errorf("repair: check again: %w", err)
	}
	res.OK = store.Healthy(res.Checks)
	return res, nil
}
