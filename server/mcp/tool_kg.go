package mcp

import (
	"context"
	"fmt"

	"github.com/palace-dev/palace/core/ops"
)

// The knowledge graph is three tools, so an agent reads only what it uses:
// palace_kg records and reads dated facts (both profiles), palace_kg_graph
// types and walks the graph and deletes wrong facts, and palace_kg_review
// decides on the facts Palace proposes (full profile).

// kgActions are palace_kg's actions.
var kgActions = []string{ops.KGActionAdd, ops.KGActionCheck, ops.KGActionInvalidate,
	ops.KGActionQuery, ops.KGActionTimeline, ops.KGActionStats}

// kgMoved sends the actions palace_kg used to take to the tools that took
// them over.
var kgMoved = map[string]string{
	ops.KGActionEntity: "palace_kg_graph", ops.KGActionTraverse: "palace_kg_graph", ops.KGActionRm: "palace_kg_graph",
	ops.KGActionExtract: "palace_kg_review", ops.KGActionReview: "palace_kg_review",
}

func toolKG() *tool {
	fact := []string{ops.KGActionAdd, ops.KGActionCheck, ops.KGActionInvalidate}
	addCheck := []string{ops.KGActionAdd, ops.KGActionCheck}
	read := []string{ops.KGActionQuery, ops.KGActionTimeline}
	return &tool{
		name:  "palace_kg",
		title: "Facts",
		desc:  "Dated facts (subject predicate object) that change over time: who owns what, a status, a version. Query before asserting one.",
		// Only additive: invalidate and supersede set an end date, and the
		// timeline keeps the fact (deleting one is palace_kg_graph's rm).
		idempotent: true,
		moved:      kgMoved,
		params: []param{
			{name: "action", kind: kString, required: true, enum: kgActions,
				desc: "add: record a fact; overlapping another value of a one-value predicate (works_at, owner...) fails with \"conflict:\": invalidate the old or supersede. " +
					"check: add without writing. invalidate: no longer true. query: an entity's facts. timeline: by date. stats: counts."},
			{name: "subject", kind: kString, maxLen: ops.KGMaxNameBytes, actions: fact, requiredFor: fact,
				desc: "Such as Alice."},
			{name: "predicate", kind: kString, maxLen: ops.KGMaxNameBytes, actions: fact, requiredFor: fact,
				desc: "snake_case, such as works_at, owns, status."},
			{name: "object", kind: kString, maxLen: ops.KGMaxNameBytes, actions: fact, requiredFor: fact,
				desc: "Such as Acme."},
			{name: "valid_from", kind: kString, maxLen: ops.MaxDateBytes, actions: addCheck,
				desc: "True since: YYYY-MM-DD or RFC 3339; omit for always."},
			{name: "valid_to", kind: kString, maxLen: ops.MaxDateBytes, actions: addCheck, full: true,
				desc: "When it stopped being true, excluded; a date keeps it true that whole day. Omit for still true."},
			{name: "supersede", kind: kBoolean, actions: addCheck,
				desc: "End the conflicting facts instead, when the new value replaces them."},
			{name: "confidence", kind: kNumber, min: num(0), max: num(1), actions: []string{ops.KGActionAdd}, full: true,
				desc: "How sure the fact is, 0 to 1 (default 1)."},
			{name: "source_drawer", kind: kString, maxLen: ops.KGMaxNameBytes, actions: []string{ops.KGActionAdd}, full: true,
				desc: "Id of the drawer the fact was read from, for provenance; it must exist."},
			{name: "wing", kind: kString, maxLen: ops.MaxNameBytes, actions: []string{ops.KGActionAdd}, full: true,
				desc: "The project the fact belongs to, whose wake-up lists it (default this session's project wing)."},
			{name: "ended", kind: kString, maxLen: ops.MaxDateBytes, actions: []string{ops.KGActionInvalidate},
				desc: "True until (default now)."},
			{name: "entity", kind: kString, maxLen: ops.KGMaxNameBytes, actions: read, requiredFor: []string{ops.KGActionQuery},
				desc: "A name or alias; timeline: omit for all."},
			{name: "as_of", kind: kString, maxLen: ops.MaxDateBytes, actions: []string{ops.KGActionQuery},
				desc: "Only facts true then."},
			{name: "direction", kind: kString, enum: ops.KGDirections, actions: []string{ops.KGActionQuery}, full: true,
				desc: "out: facts with the entity as subject; in: as object; both (default)."},
			{name: "limit", kind: kInteger, min: num(1), max: num(ops.MaxTimelineLimit), actions: []string{ops.KGActionTimeline}, full: true,
				desc: fmt.Sprintf("Most facts (default %d).", ops.DefaultTimelineLimit)},
			{name: "format", kind: kString, enum: ops.KGFormats, actions: []string{ops.KGActionTimeline}, full: true,
				desc: "facts (default): JSON; aaak: one compact AAAK document, a zettel per fact and an ARC: line of the feelings along the timeline."},
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
	Wing         string   `json:"wing"`
	Ended        string   `json:"ended"`
	Entity       string   `json:"entity"`
	AsOf         string   `json:"as_of"`
	Direction    string   `json:"direction"`
	Limit        int      `json:"limit"`
	Format       string   `json:"format"`
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
		req.Wing, req.Provenance = in.Wing, s.provenance(ctx)
		if req.Wing == "" {
			// Tied to the session's project, so its next wake-up lists
			// the fact; none known leaves the fact wingless, as before.
			req.Wing = s.knownWing(ctx)
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
	}
	return nil, fmt.Errorf("palace_kg: unknown action %q", in.Action) // unreachable: the enum is checked first
}
