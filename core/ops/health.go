package ops

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
	"github.com/palace-dev/palace/core/vectors"
)

// HealthCheck is the outcome of one of the checks Doctor runs and Repair
// runs again: integrity, fts, metadata, vectors, audit, kg.
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
	// Next says what to do about the failed checks ("" when all passed).
	Next string `json:"next,omitempty"`
}

// CheckOpen is the check DoctorAt adds when the palace could not be opened
// normally (its schema read or migrated): the checks then ran on the file
// opened read-only.
const CheckOpen = "open"

// CheckSchema is the check Doctor adds when the schema version cannot be
// read.
const CheckSchema = "schema"

// DoctorAt opens the palace at home, never creating one, and runs Doctor.
// A palace that cannot be opened normally (a damaged file fails the schema
// migration) is opened read-only without its schema and checked all the
// same, with the reason as a failed "open" check: the doctor of a damaged
// palace must still say what is wrong; one cut short gets a Next that
// goes straight to salvage, since repair in place is refused. Only a
// missing or lost palace (a database missing, empty or without tables
// beside an audit log of committed writes: nothing to check, and the
// error says so) or a cancelled ctx is an error.
func DoctorAt(ctx context.Context, home string, o palace.Options, r DoctorRequest) (DoctorResult, error) {
	if err := r.Validate(); err != nil {
		return DoctorResult{}, err
	}
	o.NoCreate = true
	p, openErr := Open(ctx, home, o)
	if openErr != nil {
		if errors.Is(openErr, store.ErrNoPalace) || errors.Is(openErr, store.ErrLostPalace) || ctx.Err() != nil {
			return DoctorResult{}, openErr
		}
		resolved, err := store.ResolveHome(home)
		if err != nil {
			return DoctorResult{}, err
		}
		if p, err = palace.OpenForCheck(resolved, o); err != nil {
			return DoctorResult{}, errors.Join(openErr, err)
		}
	}
	defer p.Close()
	res, err := Doctor(ctx, p, r)
	if openErr != nil {
		open := HealthCheck{Name: CheckOpen, Detail: "could not open normally (checked read-only): " + openErr.Error()}
		// After integrity, which comes first.
		at := min(1, len(res.Checks))
		res.Checks = append(res.Checks[:at], append([]HealthCheck{open}, res.Checks[at:]...)...)
		res.ReadOnly = false // opened read-only here, not for this user
		summarize(&res)
		if errors.Is(openErr, store.ErrDamagedPalace) {
			// Repair in place is refused for a file cut short: salvage is
			// the only step.
			res.Next = "the database file is cut short (see the open check). Keep a copy of the palace folder, " +
				"then copy every row SQLite can still read into a new palace with `palace repair --into NEWHOME`: " +
				"it lists the rows it lost and checks the new palace"
		}
	}
	return res, err
}

// Doctor runs every check it can; one that cannot run fails with the
// reason instead of hiding the others. A failed check is in the result, not
// an error: the error is for a cancelled ctx.
func Doctor(ctx context.Context, p *palace.Palace, r DoctorRequest) (DoctorResult, error) {
	res := DoctorResult{Home: p.Store.Home(), Supported: store.SchemaVersion(), Integrity: "ok", ReadOnly: p.Store.ReadOnly()}
	if err := r.Validate(); err != nil {
		return res, err
	}
	var err error
	var schemaErr error
	res.Schema, schemaErr = p.Store.SchemaVersionOf(ctx)
	if res.Checks, err = p.Store.Check(ctx); err != nil {
		return res, err
	}
	if schemaErr != nil {
		res.Checks = append(res.Checks, HealthCheck{Name: CheckSchema, Detail: "could not check: " + schemaErr.Error()})
	}
	if res.Embedding, err = vectors.StatusOf(ctx, p); err != nil {
		if ctx.Err() != nil {
			return res, err
		}
		// The vectors check already fails with this reason.
		res.Embedding.Reason = "could not read the vector index: " + err.Error()
	}
	summarize(&res)
	return res, nil
}

// summarize derives OK, Failed, Integrity and Next from the checks.
func summarize(res *DoctorResult) {
	res.OK = store.Healthy(res.Checks)
	res.Failed = store.FailedChecks(res.Checks)
	res.Integrity = "ok"
	var broken []string
	damaged := false
	for _, ch := range res.Checks {
		if !ch.OK && (ch.Name == store.CheckIntegrity || ch.Name == store.CheckFTS) {
			broken = append(broken, ch.Name+": "+ch.Detail)
		}
		if !ch.OK && ch.Name == store.CheckIntegrity {
			damaged = true
		}
		// A palace that fails to open only because a newer binary wrote it
		// is whole: the advice is to upgrade, not to salvage it.
		if !ch.OK && ch.Name == CheckOpen && res.Schema <= store.SchemaVersion() {
			damaged = true
		}
	}
	if len(broken) > 0 {
		res.Integrity = strings.Join(broken, "; ")
	}
	switch {
	case res.OK:
		res.Next = ""
	case damaged:
		res.Next = "the database file is damaged. Keep a copy of the palace folder. `palace repair` mends damaged " +
			"indexes, not damaged drawer pages: if the checks still fail after it, " + strings.ToLower(salvageAdvice[:1]) + salvageAdvice[1:]
	case res.Schema > store.SchemaVersion():
		res.Next = fmt.Sprintf("a newer palace wrote this file (schema v%d; this binary reads up to v%d): upgrade palace; nothing is damaged", res.Schema, store.SchemaVersion())
	case res.ReadOnly:
		res.Next = "the palace is read-only for this user, and a repair needs write access"
	case len(res.Failed) == 1 && res.Failed[0] == store.CheckKG:
		// Repair rebuilds derived data; a fact is the palace's own, so
		// whether to keep it (added again whole) or drop it is the user's.
		res.Next = "repair does not change the knowledge graph: remove each fact the kg check names with `palace kg rm ID`, " +
			"or record it again whole with `palace kg add`"
	default:
		res.Next = "run `palace repair`"
	}
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
	res, err := retryBusy(ctx, "repair", func() (RepairResult, error) {
		return vectors.Repair(ctx, p, vectors.Options{Progress: r.Progress})
	})
	if store.IsCorrupt(err) {
		// Rebuilding indexes reads the drawers; damaged drawer pages
		// stop it. What is readable can still be saved.
		err = fmt.Errorf("%w; the database file is damaged where repair cannot mend it (it rebuilds indexes, "+
			"not drawer pages): nothing was lost by this attempt. %s", err, salvageAdvice)
	}
	return res, err
}

// salvageAdvice is how to save a palace whose file is damaged.
const salvageAdvice = "Copy what is readable into a new palace with `palace repair --into NEWHOME`: it lists the unreadable rows " +
	"it lost and checks the new palace (the same as `palace export > FILE.jsonl`, then `palace --home NEWHOME import FILE.jsonl`)"
