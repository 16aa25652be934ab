// Package kg is Palace's temporal knowledge graph: dated facts (subject,
// predicate, object, valid over [valid_from, valid_to)) between named
// entities, with contradiction detection on every add. It holds the rules;
// core/store holds the SQL. core/ops wraps these functions as the
// knowledge-graph operations every front (CLI, MCP) calls.
//
// Time: bounds are UTC, kept to the second. Intervals are half-open: a fact
// is true at instant x when valid_from <= x < valid_to; a missing
// valid_from means "since always", a missing valid_to "still true". A
// date-only valid_from is that day's start; a date-only valid_to (or
// invalidation end) is the next day's start, so the fact holds for the whole
// named day. A date-only as_of is that day's start.
//
// Names: entities are matched by NormalizeName (case, apostrophes and
// spacing ignored) and shown as first written; predicates are stored
// normalised.
//
// Functional predicates hold one value at a time per subject (works_at,
// lives_in, role, status, owner by default; the list is editable). Adding a
// fact whose functional predicate already has a different, overlapping value
// is a conflict: nothing is written, and the result lists the existing
// facts, unless the caller asks to supersede them. The rules are in plan.go.
package kg

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/dates"
	"github.com/palace-dev/palace/core/store"
)

// Triple is a stored fact. Subject and Object are the names as first
// written; SubjectID and ObjectID their normalised ids.
type Triple = store.Triple

// Reshape changes an existing fact's interval.
type Reshape = store.KGReshape

// Query directions.
const (
	DirOut  = store.DirOut
	DirIn   = store.DirIn
	DirBoth = store.DirBoth
)

// DefaultFunctional are the predicates that hold one value at a time until
// the palace's list is edited.
var DefaultFunctional = []string{"lives_in", "owner", "role", "status", "works_at"}

// DefaultTimelineLimit caps a timeline when the caller gives no limit.
const DefaultTimelineLimit = 100

// ErrConflict is matched (errors.Is) by a *ConflictError.
var ErrConflict = errors.New("conflict")

// ConflictError is returned by Add when the fact contradicts stored facts.
// Nothing was written.
type ConflictError struct {
	Fact      Triple   // the refused fact
	Conflicts []Triple // the stored facts it contradicts
	// Unresolvable lists the conflicts supersede could not close because
	// they start at or after the new fact (or the new fact has no start).
	Unresolvable []Triple
}

func (e *ConflictError) Error() string {
	var b strings.Builder
	if len(e.Unresolvable) > 0 {
		fmt.Fprintf(&b, "conflict: cannot supersede ")
		for i, t := range e.Unresolvable {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString(Describe(t))
		}
		b.WriteString(": it starts at or after the new fact; invalidate or correct it first; nothing written")
		return b.String()
	}
	fmt.Fprintf(&b, "conflict: %s holds one value at a time and %s overlaps ", e.Fact.Predicate, Describe(e.Fact))
	for i, t := range e.Conflicts {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(Describe(t))
	}
	b.WriteString("; nothing written (supersede to close the existing facts at the new one's start")
	if e.Fact.ValidFrom == nil {
		b.WriteString("; the new fact has no valid_from, so it counts as true since always")
	}
	b.WriteString(")")
	return b.String()
}

// Is makes errors.Is(err, ErrConflict) true.
func (e *ConflictError) Is(target error) bool { return target == ErrConflict }

// AddOptions tune Add and Check.
type AddOptions struct {
	// Supersede closes conflicting facts at the new fact's valid_from
	// instead of refusing the fact. A new fact without valid_from then
	// starts now.
	Supersede bool
	// Now is the current time; zero means time.Now(). Tests set it.
	Now time.Time
}

func (o AddOptions) now() time.Time {
	if o.Now.IsZero() {
		return time.Now().UTC().Truncate(time.Second)
	}
	return o.Now.UTC().Truncate(time.Second)
}

// AddResult says what an add did, or for Check (DryRun) what it would do.
// Exactly one of Added, Duplicate, Merged and Conflict is true.
type AddResult struct {
	DryRun bool `json:"dry_run,omitempty"`
	// Added: the fact was written as a new triple (Triple).
	Added bool `json:"added"`
	// Duplicate: a stored fact with the same object already covers the
	// interval (Triple is that fact); nothing new was written.
	Duplicate bool `json:"duplicate"`
	// Merged: a stored fact with the same object overlapped; it was widened
	// to cover the new interval (Triple is that fact as widened).
	Merged bool `json:"merged"`
	// Conflict: the fact contradicts Conflicts; nothing was written.
	Conflict bool `json:"conflict"`
	// Functional says whether the predicate holds one value at a time.
	Functional bool    `json:"functional"`
	Triple     *Triple `json:"triple,omitempty"`
	// Conflicts are the stored facts the new one contradicts (also when
	// they were superseded).
	Conflicts []Triple `json:"conflicts"`
	// Superseded are the facts closed at the new fact's start, as closed.
	Superseded []Triple `json:"superseded"`
	// Reason explains a conflict in one line.
	Reason string `json:"reason,omitempty"`
}

// prepare validates f and applies the supersede default start.
func prepare(f Fact, opts AddOptions) (Triple, error) {
	n, err := f.triple()
	if err != nil {
		return Triple{}, err
	}
	if opts.Supersede && n.ValidFrom == nil {
		// "It is X now": superseding from the dawn of time would close
		// nothing sensible, so the new fact starts, and the old ones end, now.
		now := opts.now()
		if n.ValidTo != nil && !n.ValidTo.After(now) {
			return Triple{}, invalid("valid_from", "is needed to supersede with a valid_to in the past (until %s): without it the new fact would start now", formatEnd(*n.ValidTo))
		}
		n.ValidFrom = &now
	}
	return n, nil
}

func isFunctional(pred string, list []string, set bool) bool {
	if !set {
		list = DefaultFunctional
	}
	return slices.Contains(list, pred)
}

func result(n Triple, o outcome, functional bool) AddResult {
	r := AddResult{Functional: functional, Conflicts: o.conflicts, Superseded: o.superseded}
	if r.Conflicts == nil {
		r.Conflicts = []Triple{}
	}
	if r.Superseded == nil {
		r.Superseded = []Triple{}
	}
	switch {
	case len(o.conflicts) > 0 && len(o.superseded) == 0:
		r.Conflict = true
		r.Reason = (&ConflictError{Fact: n, Conflicts: o.conflicts, Unresolvable: o.stuck}).Error()
	case o.duplicate:
		r.Duplicate, r.Triple = true, o.existing
	case o.merged:
		r.Merged, r.Triple = true, o.existing
	default:
		r.Added = true
		t := n
		r.Triple = &t
	}
	return r
}

// Add records a fact. The contradiction check and the write happen in one
// write transaction, so of two concurrent contradicting adds exactly one
// succeeds. A conflict returns the result (Conflict set) together with a
// *ConflictError; bad input returns an error matching ErrInvalid. In both
// cases nothing is written.
func Add(ctx context.Context, st *store.Store, f Fact, opts AddOptions) (AddResult, error) {
	n, err := prepare(f, opts)
	if err != nil {
		return AddResult{}, err
	}
	var res AddResult
	added, err := st.KGAdd(ctx, n, func(s store.KGAddState) (store.KGPlan, error) {
		n.SubjectID, n.ObjectID = s.SubjectID, s.ObjectID // a name may be an alias
		functional := isFunctional(n.Predicate, s.Functional, s.FunctionalSet)
		o := plan(n, s.Overlapping, functional, opts.Supersede)
		res = result(n, o, functional)
		if res.Conflict {
			return store.KGPlan{}, &ConflictError{Fact: n, Conflicts: o.conflicts, Unresolvable: o.stuck}
		}
		return store.KGPlan{Insert: o.insert, Reshape: o.reshape}, nil
	})
	if err != nil {
		var ce *ConflictError
		if errors.As(err, &ce) {
			return res, err
		}
		if errors.Is(err, store.ErrUnknownDrawer) {
			return AddResult{}, invalid("source_drawer", "%s does not exist", quote(n.SourceDrawer))
		}
		return AddResult{}, fmt.Errorf("add %s: %w", Describe(n), err)
	}
	if res.Added {
		res.Triple = &added
	}
	return res, nil
}

// Check answers what Add would do with f and opts, without writing: the
// result has DryRun set. When Add would refuse, Conflict is set and the
// error is the *ConflictError Add would return, so a check and an add of
// the same fact have the same outcome.
func Check(ctx context.Context, st *store.Store, f Fact, opts AddOptions) (AddResult, error) {
	n, err := prepare(f, opts)
	if err != nil {
		return AddResult{}, err
	}
	if n.SourceDrawer != "" {
		if _, err := st.GetDrawer(ctx, n.SourceDrawer); errors.Is(err, store.ErrNotFound) {
			return AddResult{}, invalid("source_drawer", "%s does not exist", quote(n.SourceDrawer))
		} else if err != nil {
			return AddResult{}, err
		}
	}
	list, set, err := st.KGFunctional(ctx)
	if err != nil {
		return AddResult{}, err
	}
	if n.SubjectID, err = st.KGResolve(ctx, n.SubjectID); err != nil {
		return AddResult{}, err
	}
	if n.ObjectID, err = st.KGResolve(ctx, n.ObjectID); err != nil {
		return AddResult{}, err
	}
	over, err := st.KGOverlapping(ctx, n.SubjectID, n.Predicate, n.ValidFrom, n.ValidTo)
	if err != nil {
		return AddResult{}, fmt.Errorf("check %s: %w", Describe(n), err)
	}
	functional := isFunctional(n.Predicate, list, set)
	o := plan(n, over, functional, opts.Supersede)
	res := result(n, o, functional)
	res.DryRun = true
	if res.Conflict {
		return res, &ConflictError{Fact: n, Conflicts: o.conflicts, Unresolvable: o.stuck}
	}
	return res, nil
}

// InvalidateRequest names the fact to close.
type InvalidateRequest struct {
	Subject   string `json:"subject"`
	Predicate string `json:"predicate"`
	Object    string `json:"object"`
	// Ended is when the fact stopped being true, exclusive; a date-only
	// value keeps it true through that day. "" means now.
	Ended string `json:"ended,omitempty"`
	// Now is the current time; zero means time.Now().
	Now time.Time `json:"-"`
}

// InvalidateResult lists the facts closed.
type InvalidateResult struct {
	Ended  time.Time `json:"ended"`
	Closed []Triple  `json:"closed"`
}

func (r InvalidateRequest) parse() (s, p, o string, ended time.Time, err error) {
	for _, f := range []struct{ name, v string }{{"subject", r.Subject}, {"predicate", r.Predicate}, {"object", r.Object}} {
		if err := checkText(f.name, f.v, false); err != nil {
			return "", "", "", time.Time{}, err
		}
	}
	e, err := ParseTime("ended", r.Ended, true)
	if err != nil {
		return "", "", "", time.Time{}, err
	}
	if e == nil {
		n := AddOptions{Now: r.Now}.now()
		e = &n
	}
	return NormalizeName(r.Subject), NormalizePredicate(r.Predicate), NormalizeName(r.Object), *e, nil
}

// Validate checks the request without touching the palace.
func (r InvalidateRequest) Validate() error {
	_, _, _, _, err := r.parse()
	return err
}

// Invalidate closes every open fact (no valid_to) matching subject,
// predicate and object at Ended. Nothing matching is not an error: Closed is
// empty. If a matching fact starts at or after Ended nothing is written and
// the error matches ErrInvalid.
func Invalidate(ctx context.Context, st *store.Store, r InvalidateRequest) (InvalidateResult, error) {
	s, p, o, ended, err := r.parse()
	if err != nil {
		return InvalidateResult{}, err
	}
	closed, err := st.KGInvalidate(ctx, s, p, o, ended)
	if errors.Is(err, store.ErrInterval) {
		return InvalidateResult{}, invalid("ended", "%s: %v", formatEnd(ended), err)
	}
	if err != nil {
		return InvalidateResult{}, fmt.Errorf("invalidate %s %s %s: %w", s, p, o, err)
	}
	return InvalidateResult{Ended: ended, Closed: closed}, nil
}

// QueryRequest asks for the facts about one entity.
type QueryRequest struct {
	Entity string `json:"entity"`
	// AsOf keeps only facts true at that instant (a date is its start);
	// "" returns every fact, past and present.
	AsOf string `json:"as_of,omitempty"`
	// Direction is out (the entity is the subject), in (the object) or both
	// (the default, also "").
	Direction string `json:"direction,omitempty"`
	// Now is the current time, for Fact.Current; zero means time.Now().
	Now time.Time `json:"-"`
}

// QueryFact is a stored fact as a query returns it.
type QueryFact struct {
	Triple
	// Direction is out when the queried entity is the subject, else in.
	Direction string `json:"direction"`
	// Current says whether the fact is true now and, when another value
	// of a functional predicate contradicts it, starts later (Contradiction).
	Current bool `json:"current"`
}

// QueryResult holds the facts about one entity.
type QueryResult struct {
	Entity    EntityInfo  `json:"entity"`
	AsOf      *time.Time  `json:"as_of"`
	Direction string      `json:"direction"`
	Facts     []QueryFact `json:"facts"`
}

func (r QueryRequest) parse() (id string, asOf *time.Time, dir string, err error) {
	if err := checkText("entity", r.Entity, false); err != nil {
		return "", nil, "", err
	}
	if asOf, err = ParseTime("as_of", r.AsOf, false); err != nil {
		return "", nil, "", err
	}
	if dir, err = ParseDirection(r.Direction); err != nil {
		return "", nil, "", err
	}
	return NormalizeName(r.Entity), asOf, dir, nil
}

// Validate checks the request without touching the palace.
func (r QueryRequest) Validate() error {
	_, _, _, err := r.parse()
	return err
}

// Query returns the facts about an entity in chronological order. An entity
// the graph has never seen is an error matching store.ErrNotFound.
func Query(ctx context.Context, st *store.Store, r QueryRequest) (QueryResult, error) {
	id, asOf, dir, err := r.parse()
	if err != nil {
		return QueryResult{}, err
	}
	e, err := entity(ctx, st, r.Entity, id)
	if err != nil {
		return QueryResult{}, err
	}
	id = e.ID // the entity an alias names
	info, err := describeEntity(ctx, st, e)
	if err != nil {
		return QueryResult{}, err
	}
	ts, err := st.KGQuery(ctx, id, asOf, dir)
	if err != nil {
		return QueryResult{}, err
	}
	nowT := AddOptions{Now: r.Now}.now()
	now := nowT.Unix()
	// Of contradicting values (a team sync keeps both), only the one that
	// starts later is current.
	out, err := outvoted(ctx, st, nowT)
	if err != nil {
		return QueryResult{}, err
	}
	res := QueryResult{Entity: info, AsOf: asOf, Direction: dir, Facts: make([]QueryFact, 0, len(ts))}
	for _, t := range ts {
		d := DirOut
		if t.SubjectID != id {
			d = DirIn
		}
		iv := span(t.ValidFrom, t.ValidTo)
		res.Facts = append(res.Facts, QueryFact{Triple: t, Direction: d, Current: iv.from <= now && now < iv.to && !out[t.ID]})
	}
	return res, nil
}

// entity looks an entity up, with a message that names what was asked for.
func entity(ctx context.Context, st *store.Store, asked, id string) (store.Entity, error) {
	e, err := st.KGEntity(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return e, fmt.Errorf("entity %s: %w (no fact mentions it)", quote(strings.TrimSpace(asked)), store.ErrNotFound)
	}
	return e, err
}

// TimelineRequest asks for facts in chronological order.
type TimelineRequest struct {
	// Entity limits the timeline to facts about one entity; "" is every fact.
	Entity string `json:"entity,omitempty"`
	// Limit caps the number of facts; 0 means DefaultTimelineLimit.
	Limit int `json:"limit,omitempty"`
}

// TimelineResult is a chronological list of facts: facts true since always
// first, then by valid_from, ties by creation.
type TimelineResult struct {
	Entity    *EntityInfo `json:"entity,omitempty"`
	Facts     []Triple    `json:"facts"`
	Truncated bool        `json:"truncated"` // more facts than Limit exist
}

// Validate checks the request without touching the palace.
func (r TimelineRequest) Validate() error {
	if r.Entity != "" {
		if err := checkText("entity", r.Entity, false); err != nil {
			return err
		}
	}
	if r.Limit < 0 {
		return invalid("limit", "%d: want 1 or more (0 for the default %d)", r.Limit, DefaultTimelineLimit)
	}
	return nil
}

// Timeline returns facts in chronological order. An unknown entity is an
// error matching store.ErrNotFound.
func Timeline(ctx context.Context, st *store.Store, r TimelineRequest) (TimelineResult, error) {
	if err := r.Validate(); err != nil {
		return TimelineResult{}, err
	}
	limit := r.Limit
	if limit == 0 {
		limit = DefaultTimelineLimit
	}
	var res TimelineResult
	id := ""
	if r.Entity != "" {
		e, err := entity(ctx, st, r.Entity, NormalizeName(r.Entity))
		if err != nil {
			return TimelineResult{}, err
		}
		info, err := describeEntity(ctx, st, e)
		if err != nil {
			return TimelineResult{}, err
		}
		id, res.Entity = e.ID, &info
	}
	ts, err := st.KGTimeline(ctx, id, limit+1)
	if err != nil {
		return TimelineResult{}, err
	}
	if len(ts) > limit {
		ts, res.Truncated = ts[:limit], true
	}
	res.Facts = ts
	return res, nil
}

// StatsResult counts the graph; Functional is the predicate list in force.
type StatsResult struct {
	store.KGStats
	Functional []string `json:"functional"`
	// Types counts entities by type (graph_stats.go), MostConnected lists
	// the entities in the most facts.
	Types         []TypeCount `json:"types"`
	MostConnected []Connected `json:"most_connected"`
}

// Stats counts entities and facts, current (true now), expired and future,
// per predicate too, entities by type, and the most connected entities.
func Stats(ctx context.Context, st *store.Store) (StatsResult, error) {
	s, err := st.KGStats(ctx, time.Now().UTC())
	if err != nil {
		return StatsResult{}, err
	}
	fn, err := Functional(ctx, st)
	if err != nil {
		return StatsResult{}, err
	}
	res := StatsResult{KGStats: s, Functional: fn}
	if res.Types, res.MostConnected, err = typeStats(ctx, st, s.Entities); err != nil {
		return StatsResult{}, err
	}
	return res, nil
}

// Functional returns the functional predicates in force, sorted.
func Functional(ctx context.Context, st *store.Store) ([]string, error) {
	list, set, err := st.KGFunctional(ctx)
	if err != nil {
		return nil, err
	}
	if !set {
		list = DefaultFunctional
	}
	out := slices.Clone(list)
	slices.Sort(out)
	return out, nil
}

// ValidatePredicate checks a predicate name without touching the palace.
func ValidatePredicate(p string) error { return checkText("predicate", p, false) }

// SetFunctional declares predicate functional (on) or not (off) and returns
// the list now in force, sorted. Both are idempotent. The first change turns
// the default list into a stored one.
func SetFunctional(ctx context.Context, st *store.Store, predicate string, on bool) ([]string, error) {
	if err := ValidatePredicate(predicate); err != nil {
		return nil, err
	}
	p := NormalizePredicate(predicate)
	return st.KGUpdateFunctional(ctx, DefaultFunctional, func(cur []string) []string {
		cur = slices.DeleteFunc(slices.Clone(cur), func(s string) bool { return s == p })
		if on {
			cur = append(cur, p)
		}
		slices.Sort(cur)
		return cur
	})
}

// FormatTime shows a bound: a date when it falls on midnight UTC, else the
// full time; nil is "".
func FormatTime(t *time.Time) string {
	if t == nil {
		return ""
	}
	u := t.UTC()
	if u.Hour() == 0 && u.Minute() == 0 && u.Second() == 0 {
		return u.Format(dates.DateLayout)
	}
	return u.Format(time.RFC3339)
}

// FormatInterval reads [from, to) in words: "since F", "F until L",
// "until L", "always". L is the last day included when the end falls on
// midnight UTC, as a date-only --to or --ended does (stored as the next
// day's start, excluded: --to 2024-03-31 reads "until 2024-03-31"); any
// other end is the exact instant, marked "(exclusive)".
func FormatInterval(from, to *time.Time) string {
	switch {
	case from == nil && to == nil:
		return "always"
	case to == nil:
		return "since " + FormatTime(from)
	case from == nil:
		return "until " + formatEnd(*to)
	}
	return FormatTime(from) + " until " + formatEnd(*to)
}

// formatEnd shows an exclusive end bound for people: a midnight UTC end as
// the day before it, the last one included; any other as the instant.
func formatEnd(t time.Time) string {
	u := t.UTC()
	if u.Hour() == 0 && u.Minute() == 0 && u.Second() == 0 && u.Nanosecond() == 0 {
		return u.AddDate(0, 0, -1).Format(dates.DateLayout)
	}
	return u.Format(time.RFC3339) + " (exclusive)"
}

// Describe is a fact in one line: "Alice works_at Acme (since 2020-01-01)".
func Describe(t Triple) string {
	s := fmt.Sprintf("%s %s %s (%s)", t.Subject, t.Predicate, t.Object, FormatInterval(t.ValidFrom, t.ValidTo))
	if t.ID != "" {
		s += " [" + t.ID + "]"
	}
	return s
}
