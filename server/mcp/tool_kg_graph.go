package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/palace-dev/palace/core/ops"
)

// palace_kg's typed-graph actions: entity, traverse and rm, and timeline's
// AAAK format.

// kgEntityActions take the entity parameter; kgEntityRequired need it.
var (
	kgEntityActions  = []string{ops.KGActionQuery, ops.KGActionTimeline, ops.KGActionEntity, ops.KGActionTraverse}
	kgEntityRequired = []string{ops.KGActionQuery, ops.KGActionEntity, ops.KGActionTraverse}
)

func kgGraphParams() []param {
	entity := []string{ops.KGActionEntity}
	traverse := []string{ops.KGActionTraverse}
	return []param{
		{name: "type", kind: kString, maxLen: 64, actions: entity,
			desc: "Set the entity's type: " + strings.Join(ops.KGTypes, ", ") + ", or your own lowercase word; unknown clears it. " +
				"Omit to keep it: without a type set, one is inferred from the facts (works_at makes a person, uses a tool, ...) and shown with inferred: true and its evidence."},
		{name: "aliases", kind: kStrings, actions: entity,
			desc: "Other names of the entity to add, such as [\"Kai Chen\"]: facts under an alias are the entity's. A name that is another entity's alias, or an entity with facts of its own, is refused."},
		{name: "unalias", kind: kStrings, actions: entity,
			desc: "Aliases to remove from the entity."},
		{name: "depth", kind: kInteger, min: num(1), max: num(ops.MaxTraverseDepth), actions: traverse,
			desc: fmt.Sprintf("Most hops a path takes (default %d): 3 answers \"which database does the project Kai works on use\" (Kai works_on P, P uses D, D is_a database).", ops.DefaultTraverseDepth)},
		{name: "predicates", kind: kStrings, actions: traverse,
			desc: "Follow only these predicates, such as [\"works_on\", \"uses\"]; omit to follow every one."},
		{name: "fact_id", kind: kString, maxLen: 64, actions: []string{ops.KGActionRm}, requiredFor: []string{ops.KGActionRm},
			desc: "The id (t_...) of the wrong fact to delete, from add, query, timeline or traverse. The removal is audited and cannot be undone; use invalidate for a fact that was true and stopped being so."},
		{name: "format", kind: kString, enum: ops.KGFormats, actions: []string{ops.KGActionTimeline},
			desc: "facts (default): the facts as JSON; aaak: one compact AAAK document, a zettel per fact and an ARC: line of the feelings along the timeline."},
	}
}

// runKGGraph runs entity, traverse and rm. rm asks no confirmation: the
// tool is marked destructive, so a client that gates destructive tools
// asks its user, and the description sends an agent to invalidate for a
// fact that stopped being true.
func runKGGraph(ctx context.Context, s *Server, in kgArgs) (any, error) {
	switch in.Action {
	case ops.KGActionEntity:
		return ops.KGEntity(ctx, s.p, ops.KGEntityRequest{Entity: in.Entity, Type: in.Type, Alias: in.Aliases, Unalias: in.Unalias})
	case ops.KGActionTraverse:
		return ops.KGTraverse(ctx, s.p, ops.KGTraverseRequest{Entity: in.Entity, Depth: in.Depth, AsOf: in.AsOf,
			Predicates: in.Predicates, Direction: in.Direction, Limit: in.Limit})
	}
	return ops.KGRm(ctx, s.p, ops.KGRmRequest{FactID: in.FactID})
}
