package ops

import (
	"context"
	"strings"

	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/route"
)

// The knowledge-graph actions: the MCP palace_kg tool's action values and
// the CLI's 'palace kg' subcommands.
const (
	KGActionAdd        = "add"
	KGActionCheck      = "check"
	KGActionInvalidate = "invalidate"
	KGActionQuery      = "query"
	KGActionTimeline   = "timeline"
	KGActionStats      = "stats"
)

// KGActions are the knowledge-graph actions, in the order help lists them.
var KGActions = []string{KGActionAdd, KGActionCheck, KGActionInvalidate, KGActionQuery, KGActionTimeline, KGActionStats,
	KGActionEntity, KGActionTraverse, KGActionRm, KGActionExtract, KGActionReview}

// Query directions: out keeps the facts whose subject is the entity, in
// those whose object is, both (the default) all of them.
const (
	KGDirOut  = kg.DirOut
	KGDirIn   = kg.DirIn
	KGDirBoth = kg.DirBoth
)

// KGDirections are the directions a query may ask for; "" is both.
var KGDirections = []string{KGDirOut, KGDirIn, KGDirBoth}

// The functional-predicate actions: list them, add one, remove one.
const (
	FunctionalList = "list"
	FunctionalAdd  = "add"
	FunctionalRm   = "rm"
)

// FunctionalActions are the functional-predicate actions, in help order.
var FunctionalActions = []string{FunctionalList, FunctionalAdd, FunctionalRm}

// Knowledge-graph limits.
const (
	// KGMaxNameBytes bounds a subject, predicate, object, entity or
	// source drawer id: a name is a label, not a document.
	KGMaxNameBytes = kg.MaxNameBytes
	// DefaultTimelineLimit is a timeline's length when the caller gives
	// no limit.
	DefaultTimelineLimit = kg.DefaultTimelineLimit
	// MaxTimelineLimit bounds a timeline's limit.
	MaxTimelineLimit = 10000
)

// KGAddRequest is a fact to record (KGAdd) or to check (KGCheck). Names
// match ignoring case, apostrophes and spacing.
type KGAddRequest struct {
	Subject   string
	Predicate string
	Object    string
	// ValidFrom is when the fact became true: YYYY-MM-DD (that day's
	// start) or RFC 3339; "" is since always (with Supersede: now).
	ValidFrom string
	// ValidTo is when it stopped being true, excluded; a date keeps the
	// fact true that whole day; "" is still true.
	ValidTo string
	// Confidence is in [0, 1]; nil is 1.
	Confidence *float64
	// SourceDrawer is the id of the drawer the fact was read from; it must
	// exist.
	SourceDrawer string
	// Supersede closes conflicting facts at ValidFrom instead of refusing
	// the fact.
	Supersede bool
	// Wing ties the fact to a project, so that project's wake-up lists it
	// though no drawer says it: fronts pass the session's wing
	// (ResolveWing of its root) when the caller names none. "" is none.
	Wing string
	// Provenance is the session the fact is stated in, when known.
	Provenance Provenance
}

// KGAddResult says what an add did, or for a check what it would do.
type KGAddResult = kg.AddResult

func (r KGAddRequest) fact() kg.Fact {
	return kg.Fact{Subject: r.Subject, Predicate: r.Predicate, Object: r.Object, ValidFrom: r.ValidFrom,
		ValidTo: r.ValidTo, Confidence: r.Confidence, SourceDrawer: r.SourceDrawer, Wing: r.Wing, Provenance: r.Provenance}
}

// Validate names the first bad field. The wing need not hold anything
// yet: a project's first session may state a fact before any note.
func (r KGAddRequest) Validate() error {
	if err := r.fact().Validate(); err != nil {
		return err
	}
	if strings.TrimSpace(r.Wing) != "" {
		return route.CheckName("wing", r.Wing)
	}
	return nil
}

// KGAdd records a fact. A fact that contradicts stored ones is refused:
// the result has Conflict set and lists them, nothing is written, and the
// error matches ErrConflict. Its message, the result's Reason, begins with
// "conflict: " and says what to do; fronts show it as it is.
func KGAdd(ctx context.Context, p *palace.Palace, r KGAddRequest) (KGAddResult, error) {
	if err := r.Validate(); err != nil {
		return KGAddResult{}, err
	}
	return retryBusy(ctx, "kg add", func() (KGAddResult, error) {
		return kg.Add(ctx, p.Store, r.fact(), kg.AddOptions{Supersede: r.Supersede})
	})
}

// KGCheck answers what KGAdd would do with r, writing nothing (DryRun is
// set). It has KGAdd's outcome: a fact that would conflict is ErrConflict,
// with the same result and message.
func KGCheck(ctx context.Context, p *palace.Palace, r KGAddRequest) (KGAddResult, error) {
	if err := r.Validate(); err != nil {
		return KGAddResult{}, err
	}
	return kg.Check(ctx, p.Store, r.fact(), kg.AddOptions{Supersede: r.Supersede})
}

// KGInvalidateRequest names the facts to close.
type KGInvalidateRequest struct {
	Subject   string
	Predicate string
	Object    string
	// Ended is when the facts stopped being true, excluded: YYYY-MM-DD
	// (true through that day) or RFC 3339; "" is now.
	Ended string
}

// KGInvalidateResult lists the facts closed; none is not an error.
type KGInvalidateResult = kg.InvalidateResult

func (r KGInvalidateRequest) request() kg.InvalidateRequest {
	return kg.InvalidateRequest{Subject: r.Subject, Predicate: r.Predicate, Object: r.Object, Ended: r.Ended}
}

// Validate names the first bad field.
func (r KGInvalidateRequest) Validate() error { return r.request().Validate() }

// KGInvalidate closes every open fact matching subject, predicate and
// object at Ended. The facts stay, for as-of queries and the timeline. An
// Ended at or before a matching fact's start is invalid; nothing is
// written.
func KGInvalidate(ctx context.Context, p *palace.Palace, r KGInvalidateRequest) (KGInvalidateResult, error) {
	if err := r.Validate(); err != nil {
		return KGInvalidateResult{}, err
	}
	return retryBusy(ctx, "kg invalidate", func() (KGInvalidateResult, error) {
		return kg.Invalidate(ctx, p.Store, r.request())
	})
}

// KGQueryRequest asks for the facts about one entity.
type KGQueryRequest struct {
	Entity string
	// AsOf keeps only the facts true at that instant (a date is its
	// start); "" is every fact, past and present.
	AsOf string
	// Direction is one of KGDirections; "" is both.
	Direction string
}

// KGQueryResult holds the facts about one entity, oldest first.
type KGQueryResult = kg.QueryResult

func (r KGQueryRequest) request() kg.QueryRequest {
	return kg.QueryRequest{Entity: r.Entity, AsOf: r.AsOf, Direction: r.Direction}
}

// Validate names the first bad field.
func (r KGQueryRequest) Validate() error {
	if err := checkEnum("direction", r.Direction, KGDirections); err != nil {
		return err
	}
	return r.request().Validate()
}

// KGQuery lists the facts about an entity. An entity no fact mentions is
// ErrNotFound.
func KGQuery(ctx context.Context, p *palace.Palace, r KGQueryRequest) (KGQueryResult, error) {
	if err := r.Validate(); err != nil {
		return KGQueryResult{}, err
	}
	return kg.Query(ctx, p.Store, r.request())
}

// KGTimelineRequest asks for facts in chronological order.
type KGTimelineRequest struct {
	// Entity keeps the facts about one entity; "" is every fact.
	Entity string
	// Limit is 1 to MaxTimelineLimit; 0 is DefaultTimelineLimit.
	Limit int
}

// KGTimelineResult lists facts, since-always ones first, then by start.
type KGTimelineResult = kg.TimelineResult

// Validate names the first bad field.
func (r KGTimelineRequest) Validate() error {
	if err := checkLimit("limit", r.Limit, MaxTimelineLimit); err != nil {
		return err
	}
	return kg.TimelineRequest{Entity: r.Entity, Limit: r.Limit}.Validate()
}

// KGTimeline lists facts in chronological order, Truncated when more than
// the limit exist. An entity no fact mentions is ErrNotFound.
func KGTimeline(ctx context.Context, p *palace.Palace, r KGTimelineRequest) (KGTimelineResult, error) {
	if err := r.Validate(); err != nil {
		return KGTimelineResult{}, err
	}
	return kg.Timeline(ctx, p.Store, kg.TimelineRequest{Entity: r.Entity, Limit: r.Limit})
}

// KGStatsResult counts entities and facts (current, expired, future), per
// predicate too, with the functional predicates in force.
type KGStatsResult = kg.StatsResult

// KGStats counts the graph.
func KGStats(ctx context.Context, p *palace.Palace) (KGStatsResult, error) {
	return kg.Stats(ctx, p.Store)
}

// FunctionalRequest lists the functional predicates (those holding one
// value at a time per subject), or adds or removes one.
type FunctionalRequest struct {
	// Action is one of FunctionalActions; "" is list.
	Action string
	// Predicate is the predicate to add or remove.
	Predicate string
}

// FunctionalResult is the list in force after the request, sorted.
type FunctionalResult struct {
	Functional []string `json:"functional"`
}

// Validate names the first bad field.
func (r FunctionalRequest) Validate() error {
	if err := checkEnum("action", r.Action, FunctionalActions); err != nil {
		return err
	}
	if r.Action == FunctionalAdd || r.Action == FunctionalRm {
		return kg.ValidatePredicate(r.Predicate)
	}
	return nil
}

// Functional lists the functional predicates, or makes one functional
// (add) or multi-valued again (rm). Both edits are idempotent; the first
// one turns the default list into one stored in the palace.
func Functional(ctx context.Context, p *palace.Palace, r FunctionalRequest) (FunctionalResult, error) {
	if err := r.Validate(); err != nil {
		return FunctionalResult{}, err
	}
	var (
		list []string
		err  error
	)
	switch r.Action {
	case FunctionalAdd, FunctionalRm:
		list, err = retryBusy(ctx, "kg functional "+r.Action, func() ([]string, error) {
			return kg.SetFunctional(ctx, p.Store, r.Predicate, r.Action == FunctionalAdd)
		})
	default:
		list, err = kg.Functional(ctx, p.Store)
	}
	return FunctionalResult{Functional: list}, err
}

// KGContradiction is a functional predicate holding different values over
// overlapping dates, with the value that counts as current.
type KGContradiction = kg.Contradiction

// KGContradictionsResult lists the graph's contradictions.
type KGContradictionsResult struct {
	Contradictions []KGContradiction `json:"contradictions"`
}

// KGContradictions lists the contradictions the graph holds: facts of a
// functional predicate with different values whose dates overlap. Adds
// refuse them, so they come from a team sync, which keeps every member's
// fact; the one that starts later is current.
func KGContradictions(ctx context.Context, p *palace.Palace) (KGContradictionsResult, error) {
	cs, err := kg.Contradictions(ctx, p.Store)
	return KGContradictionsResult{Contradictions: cs}, err
}
