package mcp

import (
	"context"
	"fmt"

	"github.com/palace-dev/palace/core/ops"
)

func toolKG() *tool {
	fact := []string{ops.KGActionAdd, ops.KGActionCheck, ops.KGActionInvalidate}
	addCheck := []string{ops.KGActionAdd, ops.KGActionCheck}
	walk := []string{ops.KGActionQuery, ops.KGActionTraverse}
	return &tool{
		name:  "palace_kg",
		title: "Knowledge graph",
		desc: "Dated facts (subject predicate object, true from valid_from until valid_to) with contradiction checks. " +
			"action add records a fact; if the predicate holds one value at a time (works_at, lives_in, role, status, owner, ...) and the subject already has another overlapping value, " +
			"nothing is written and the call fails with a message starting \"conflict: \" that lists the conflicting facts — then invalidate the old fact or add again with supersede: true. " +
			"check answers what add would do without writing (and fails the same way when add would conflict). invalidate closes a fact that stopped being true (history is kept). " +
			"query lists the facts about an entity (optionally as of a date), timeline lists facts in date order, stats counts them. " +
			"entity shows or sets an entity's type and aliases; traverse follows facts from an entity, several hops, for questions like which database the project Kai works on uses; " +
			"rm deletes a wrong fact by id (for a fact that stopped being true, invalidate instead). " +
			"Names match ignoring case, apostrophes and spacing. Dates are YYYY-MM-DD or RFC 3339. " +
			reviewDesc,
		// rm deletes a wrong fact (audited); invalidate and supersede only
		// set an end date and the timeline keeps the fact.
		destructive: true, idempotent: true,
		params: append(append([]param{
			{name: "action", kind: kString, required: true, enum: ops.KGActions,
				desc: "add: record a fact; check: what add would do, writing nothing; invalidate: close a fact that stopped being true; query: facts about an entity; timeline: facts in date order; stats: counts; " +
					"entity: an entity's type and aliases, shown or set; traverse: paths of facts from an entity; rm: delete a wrong fact by fact_id; " +
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
			{name: "entity", kind: kString, maxLen: ops.KGMaxNameBytes, actions: kgEntityActions, requiredFor: kgEntityRequired,
				desc: "The entity (or one of its aliases) to list facts about, show, set or start from. For timeline, omit it to list every fact."},
			{name: "as_of", kind: kString, maxLen: 64, actions: walk,
				desc: "Only facts true at this date or time; omit for every fact, past and present."},
			{name: "direction", kind: kString, enum: ops.KGDirections, actions: walk,
				desc: "out: facts where the entity is the subject; in: where it is the object; both. Default: both for query, out for traverse (subject to object, hop after hop)."},
			{name: "limit", kind: kInteger, min: num(1), max: num(ops.MaxTimelineLimit), actions: []string{ops.KGActionTimeline, ops.KGActionTraverse},
				desc: fmt.Sprintf("timeline: maximum number of facts (default %d); traverse: maximum number of paths (default %d, at most %d).",
					ops.DefaultTimelineLimit, ops.DefaultTraversePaths, ops.MaxTraversePaths)},
		}, kgGraphParams()...), reviewParams...),
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
	// The typed graph's (tool_kg_graph.go).
	Type       string   `json:"type"`
	Aliases    []string `json:"aliases"`
	Unalias    []string `json:"unalias"`
	Depth      int      `json:"depth"`
	Predicates []string `json:"predicates"`
	FactID     string   `json:"fact_id"`
	Format     string   `json:"format"`
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
		req := ops.KGTimelineRequest{Entity: in.Entity, Limit: in.Limit}
		if in.Format == ops.KGFormatAAAK {
			return ops.KGTimelineAAAK(ctx, s.p, req)
		}
		return ops.KGTimeline(ctx, s.p, req)
	case ops.KGActionStats:
		return ops.KGStats(ctx, s.p)
	case ops.KGActionEntity, ops.KGActionTraverse, ops.KGActionRm:
		return runKGGraph(ctx, s, in)
	case ops.KGActionExtract, ops.KGActionReview:
		return runKGReview(ctx, s, in)
	}
	return nil, fmt.Errorf("palace_kg: unknown action %q", in.Action) // unreachable: the enum is checked first
}
