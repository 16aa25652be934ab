package ops

import (
	"context"
	"strings"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
	"github.com/palace-dev/palace/core/vectors"
)

// HealthCheck is the outcome of one of the checks Doctor runs and Repair
// runs again: integrity, fts, metadata, vectors, audit.
type HealthCheck = store.HealthCheck

// DoctorRequest asks for the palace's health. It has no options yet.
type DoctorRequest struct{}

// Validate names the first bad field.
func (DoctorRequest) Validate() error { return nil }

// DoctorResult is the palace's health: its schema, the checks, and the
// embedding backend.
type DoctorResult struct {
	Home      string `json:"home"`
	Schema    int    `json:"schema_version"`
	Supported int    `json:"schema_supported"`
	// Integrity is "ok", or what the integrity and fts checks found: the
	// database and its full-text index, as before the checks had names.
	Integrity string         `json:"integrity"`
	Embedding vectors.Status `json:"embedding"`
	OK        bool           `json:"ok"`
	Checks    []HealthCheck  `json:"checks"`
	// Failed names the checks that did not pass.
	Failed []string `json:"failed,omitempty"`
	// ReadOnly: this user may not write the palace, so a repair cannot run.
	ReadOnly bool `json:"read_only,omitempty"`
}

// Doctor runs every check. A failed check is in the result, not an error:
// the error is for a doctor that could not run (a cancelled ctx, an
// unreadable schema).
func Doctor(ctx context.Context, p *palace.Palace, r DoctorRequest) (DoctorResult, error) {
	res := DoctorResult{Home: p.Store.Home(), Supported: store.SchemaVersion(), Integrity: "ok", ReadOnly: p.Store.ReadOnly()}
	if err := r.Validate(); err != nil {
		return res, err
	}
	var err error
	if res.Schema, err = p.Store.SchemaVersionOf(ctx); err != nil {
		return res, err
	}
	if res.Checks, err = p.Store.Check(ctx); err != nil {
		return res, err
	}
	res.OK = store.Healthy(res.Checks)
	res.Failed = store.FailedChecks(res.Checks)
	var broken []string
	for _, ch := range res.Checks {
		if !ch.OK && (ch.Name == store.CheckIntegrity || ch.Name == store.CheckFTS) {
			broken = append(broken, ch.Name+": "+ch.Detail)
		}
	}
	if len(broken) > 0 {
		res.Integrity = strings.Join(broken, "; ")
	}
	if res.Embedding, err = vectors.StatusOf(ctx, p); err != nil {
		return res, err
	}
	return res, nil
}

// RepairRequest asks to mend what Doctor finds broken.
type RepairRequest struct {
	// Progress, when set, is called as the refill embeds drawers.
	Progress func(done, total int)
}

// Validate names the first bad field.
func (RepairRequest) Validate() error { return nil }

// RepairResult is what the repair did and the checks afterwards.
type RepairResult = vectors.RepairResult

// Repair rebuilds the derived indexes from the drawers (never touching a
// drawer), embeds what that leaves pending, and runs the checks again; a
// check still failing is in the result (OK false), not an error. Each step
// is its own write and a step with nothing to do writes nothing, so a
// repair that met a busy palace is simply run again.
func Repair(ctx context.Context, p *palace.Palace, r RepairRequest) (RepairResult, error) {
	if err := r.Validate(); err != nil {
		return RepairResult{}, err
	}
	return retryBusy(ctx, "repair", func() (RepairResult, error) {
		return vectors.Repair(ctx, p, vectors.Options{Progress: r.Progress})
	})
}
