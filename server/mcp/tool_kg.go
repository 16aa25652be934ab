package mcp

import (
	"context"
	"fmt"

	"github.com/palace-dev/palace/core/ops"
)

func toolKG() *tool {
	fact := []string{ops.KGActionAdd, ops.KGActionCheck, ops.KGActionInvalidate}
	addCheck := []string{ops.KGActionAdd, ops.KGActionCheck}
	return &tool{
		name:  "palace_kg",
		title: "Knowledge graph",
		desc: "Dated facts (subject predicate object, true from valid_from until valid_to) with contradiction checks. " +
			"action add records a fact; if the predicate holds one value at a time (works_at, lives_in, role, status, owner, ...) and the subject already has another overlapping value, " +
			"nothing is written and the call fails with a message starting \"conflict: \" that lists the conflicting facts — then invalidate the old fact or add again with supersede: true. " +
			"check answers what add would do without writing (and fails the same way when add would conflict). invalidate closes a fact that stopped being true (history is kept). " +
			"query lists the facts about an entity (optionally as of a date), timeline lists facts in date order, stats counts them. " +
			"Names match ignoring case, apostrophes and spacing. Dates are YYYY-MM-DD or RFC 3339. " +
			reviewDesc,
		// Nothing is ever deleted: invalidate and supersede set an end date
		// and the timeline keeps the fact, so the updates are additive.
		destructive: false, idempotent: true,
		params: append([]param{
			{name: "action", kind: kString, required: true, enum: ops.KGActions,
				desc: "add: record a fact; check: what add would do, writing nothing; invalidate: close a fact that stopped being true; query: facts about an entity; timeline: facts in date order; stats: counts; " +
					"extract: read stored conversations, notes and diaries for facts and propose them; review: list the proposed facts, accept or reject them."},
			{name: "subject", kind: kString, maxLen: ops.KGMaxNameBytes, actions: fact, requiredFor: fact,
				desc: "Who or what the fact is about, such as \"Alice\" or \"billing-service\"."},
			{name: "predicate", kind: kString, maxLen: ops.KGMaxNameBytes, actions: fact, requiredFor: fact,
				desc: "The relation in snake_case, such as works_at, owns, depends_on, status."},
			{name: "object", kind: kString, maxLen: ops.KGMaxNameBytes, actions: fact, requiredFor: fact,
				desc: "The value, such as \"Acme\" or \"deprecated\"."},
			{name: "valid_from", kind: kString, maxLen: 64, actions: addCheck,
				desc: "When the fact became true: YYYY-MM-DD (that day's start) or RFC 3339. Omit for \"since always\" (with supersede: from now)."},
			{name: "valid_to", kind: kString, maxLen: 64, actions: addCheck,
				desc: "When it stopped being true, excluded; a date keeps it true that whole day. Omit for \"still true\"."},
			{name: "supersede", kind: kBoolean, actions: addCheck,
				desc: "Close the conflicting facts at this fact's valid_from instead of refusing the fact. Only when you know the new value replaces the old."},
			{name: "confidence", kind: kNumber, min: num(0), max: num(1), actions: []string{ops.KGActionAdd},
				desc: "How sure the fact is, 0 to 1 (default 1)."},
			{name: "source_drawer", kind: kString, maxLen: ops.KGMaxNameBytes, actions: []string{ops.KGActionAdd},
				desc: "Id of the drawer the fact was read from, for provenance; it must exist."},
			{name: "ended", kind: kString, maxLen: 64, actions: []string{ops.KGActionInvalidate},
				desc: "When the fact stopped being true: YYYY-MM-DD (true through that day) or RFC 3339. Default now."},
			{name: "entity", kind: kString, maxLen: ops.KGMaxNameBytes, actions: []string{ops.KGActionQuery, ops.KGActionTimeline}, requiredFor: []string{ops.KGActionQuery},
				desc: "The entity to list facts about. For timeline, omit it to list every fact."},
			{name: "as_of", kind: kString, maxLen: 64, actions: []string{ops.KGActionQuery},
				desc: "Only facts true at this date or time; omit for every fact, past and present."},
			{name: "direction", kind: kString, enum: ops.KGDirections, actions: []string{ops.KGActionQuery},
				desc: "out: facts where the entity is the subject; in: where it is the object; both (default)."},
			{name: "limit", kind: kInteger, min: num(1), max: num(ops.MaxTimelineLimit), actions: []string{ops.KGActionTimeline},
				desc: fmt.Sprintf("Maximum number of facts (default %d).", ops.DefaultTimelineLimit)},
		}, reviewParams...),
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
	// extract and review (tool_kg_review.go)
	Wing          string   `json:"wing"`
	Decision      string   `json:"decision"`
	IDs           []string `json:"ids"`
	MinConfidence *float64 `json:"min_confidence"`
}

func runKG(ctx context.Context, s *Server, a args) (any, error) {
	var in kgArgs
	if err := a.decode(&in); err != nil {
		return nil, err
	}
	switch in.Action {
	case ops.KGActionAdd, ops.KGActionCheck:
		req := ops.KGAddRequest{Subject: in.Subject, Predicate: in.Predicate, Object: in.Object, ValidFrom: in.ValidFrom,
			ValidTo: in.ValidTo, Confidence: in.Confidence, SourceDrawer: in.SourceDrawer, Supersede: in.Supersede}
		if in.Action == ops.KGActionCheck {
			return ops.KGCheck(ctx, s.p, req)
		}
		return ops.KGAdd(ctx, s.p, req)
	case ops.KGActionInvalidate:
		return ops.KGInvalidate(ctx, s.p, ops.KGInvalidateRequest{Subject: in.Subject, Predicate: in.Predicate, Object: in.Object, Ended: in.Ended})
	case ops.KGActionQuery:
		return ops.KGQuery(ctx, s.p, ops.KGQueryRequest{Entity: in.Entity, AsOf: in.AsOf, Direction: in.Direction})
	case ops.KGActionTimeline:
		return ops.KGTimeline(ctx, s.p, ops.KGTimelineRequest{Entity: in.Entity, Limit: in.Limit})
	case ops.KGActionStats:
		return ops.KGStats(ctx, s.p)
	case ops.KGActionExtract, ops.KGActionReview:
		return runKGReview(ctx, s, in)
	}
	return nil, fmt.Errorf("palace_kg: unknown action %q", in.Action) // unreachable: the enum is checked first
}
