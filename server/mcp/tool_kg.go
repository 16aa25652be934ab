package mcp

import (
	"context"
	"errors"
	"fmt"

	"github.com/palace-dev/palace/core/kg"
)

const (
	kgAdd        = "add"
	kgCheck      = "check"
	kgInvalidate = "invalidate"
	kgQuery      = "query"
	kgTimeline   = "timeline"
	kgStats      = "stats"
)

func toolKG() *tool {
	fact := []string{kgAdd, kgCheck, kgInvalidate}
	addCheck := []string{kgAdd, kgCheck}
	return &tool{
		name:  "palace_kg",
		title: "Knowledge graph",
		desc: "Dated facts (subject predicate object, true from valid_from until valid_to) with contradiction checks. " +
			"action add records a fact; if the predicate holds one value at a time (works_at, lives_in, role, status, owner, ...) and the subject already has another overlapping value, " +
			"nothing is written and the answer has conflict: true with the conflicting facts — then invalidate the old fact or add again with supersede: true. " +
			"check answers what add would do without writing. invalidate closes a fact that stopped being true (history is kept). " +
			"query lists the facts about an entity (optionally as of a date), timeline lists facts in date order, stats counts them. " +
			"Names match ignoring case, apostrophes and spacing. Dates are YYYY-MM-DD or RFC 3339.",
		// Nothing is ever deleted: invalidate and supersede set an end date
		// and the timeline keeps the fact, so the updates are additive.
		destructive: false, idempotent: true,
		params: []param{
			{name: "action", kind: kString, required: true, enum: []string{kgAdd, kgCheck, kgInvalidate, kgQuery, kgTimeline, kgStats},
				desc: "add: record a fact; check: what add would do, writing nothing; invalidate: close a fact that stopped being true; query: facts about an entity; timeline: facts in date order; stats: counts."},
			{name: "subject", kind: kString, maxLen: kg.MaxNameBytes, actions: fact, requiredFor: fact,
				desc: "Who or what the fact is about, such as \"Alice\" or \"billing-service\"."},
			{name: "predicate", kind: kString, maxLen: kg.MaxNameBytes, actions: fact, requiredFor: fact,
				desc: "The relation in snake_case, such as works_at, owns, depends_on, status."},
			{name: "object", kind: kString, maxLen: kg.MaxNameBytes, actions: fact, requiredFor: fact,
				desc: "The value, such as \"Acme\" or \"deprecated\"."},
			{name: "valid_from", kind: kString, maxLen: 64, actions: addCheck,
				desc: "When the fact became true: YYYY-MM-DD (that day's start) or RFC 3339. Omit for \"since always\" (with supersede: from now)."},
			{name: "valid_to", kind: kString, maxLen: 64, actions: addCheck,
				desc: "When it stopped being true, excluded; a date keeps it true that whole day. Omit for \"still true\"."},
			{name: "supersede", kind: kBoolean, actions: addCheck,
				desc: "Close the conflicting facts at this fact's valid_from instead of refusing the fact. Only when you know the new value replaces the old."},
			{name: "confidence", kind: kNumber, min: num(0), max: num(1), actions: []string{kgAdd},
				desc: "How sure the fact is, 0 to 1 (default 1)."},
			{name: "source_drawer", kind: kString, maxLen: 200, actions: []string{kgAdd},
				desc: "Id of the drawer the fact was read from, for provenance; it must exist."},
			{name: "ended", kind: kString, maxLen: 64, actions: []string{kgInvalidate},
				desc: "When the fact stopped being true: YYYY-MM-DD (true through that day) or RFC 3339. Default now."},
			{name: "entity", kind: kString, maxLen: kg.MaxNameBytes, actions: []string{kgQuery, kgTimeline}, requiredFor: []string{kgQuery},
				desc: "The entity to list facts about. For timeline, omit it to list every fact."},
			{name: "as_of", kind: kString, maxLen: 64, actions: []string{kgQuery},
				desc: "Only facts true at this date or time; omit for every fact, past and present."},
			{name: "direction", kind: kString, enum: []string{kg.DirOut, kg.DirIn, kg.DirBoth}, actions: []string{kgQuery},
				desc: "out: facts where the entity is the subject; in: where it is the object; both (default)."},
			{name: "limit", kind: kInteger, min: num(1), max: num(10000), actions: []string{kgTimeline},
				desc: "Maximum number of facts (default 100)."},
		},
		run: runKG,
	}
}

type kgArgs struct {
	Action       string   `json:"action"`
	Subject      string   `json:"subject"`
	Predicate    string   `json:"predicate"`
	Object       string   `json:"object"`
	ValidFrom    string   `json:"valid_from"`
	ValidTo      string   `json:"valid_to"`
	Supersede    bool     `json:"supersede"`
	Confidence   *float64 `json:"confidence"`
	SourceDrawer string   `json:"source_drawer"`
	Ended        string   `json:"ended"`
	Entity       string   `json:"entity"`
	AsOf         string   `json:"as_of"`
	Direction    string   `json:"direction"`
	Limit        int      `json:"limit"`
}

func runKG(ctx context.Context, s *Server, a args) (any, error) {
	var in kgArgs
	if err := a.decode(&in); err != nil {
		return nil, err
	}
	st := s.p.Store
	switch in.Action {
	case kgAdd, kgCheck:
		f := kg.Fact{Subject: in.Subject, Predicate: in.Predicate, Object: in.Object, ValidFrom: in.ValidFrom,
			ValidTo: in.ValidTo, Confidence: in.Confidence, SourceDrawer: in.SourceDrawer}
		opts := kg.AddOptions{Supersede: in.Supersede}
		if in.Action == kgCheck {
			return kg.Check(ctx, st, f, opts)
		}
		res, err := kg.Add(ctx, st, f, opts)
		// A contradiction is an answer (conflict: true, nothing written),
		// not a failure: the agent must see the conflicting facts.
		if err != nil && !errors.Is(err, kg.ErrConflict) {
			return nil, err
		}
		return res, nil
	case kgInvalidate:
		return kg.Invalidate(ctx, st, kg.InvalidateRequest{Subject: in.Subject, Predicate: in.Predicate, Object: in.Object, Ended: in.Ended})
	case kgQuery:
		return kg.Query(ctx, st, kg.QueryRequest{Entity: in.Entity, AsOf: in.AsOf, Direction: in.Direction})
	case kgTimeline:
		return kg.Timeline(ctx, st, kg.TimelineRequest{Entity: in.Entity, Limit: in.Limit})
	case kgStats:
		return kg.Stats(ctx, st)
	}
	return nil, fmt.Errorf("palace_kg: unknown action %q", in.Action) // unreachable: the enum is checked first
}
