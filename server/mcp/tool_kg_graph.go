package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/palace-dev/palace/core/ops"
)

// palace_kg_graph: the typed graph (full profile): an entity's type and
// aliases, paths of facts from an entity, and deleting a wrong fact.

func toolKGGraph() *tool {
	entity := []string{ops.KGActionEntity}
	traverse := []string{ops.KGActionTraverse}
	walk := []string{ops.KGActionEntity, ops.KGActionTraverse}
	return &tool{
		name:  "palace_kg_graph",
		title: "Knowledge graph entities and paths",
		desc: "The typed knowledge graph over palace_kg's facts. action entity shows an entity's type (set or inferred from its facts) and aliases, or sets them; " +
			"traverse follows facts from an entity hop after hop, for questions that cross facts such as which database the project Kai works on uses; " +
			"rm deletes a wrong fact (for a fact that stopped being true, palace_kg invalidate keeps its history). " +
			"Names match ignoring case, apostrophes and spacing.",
		// rm deletes a fact (audited). Setting a type or aliases, or
		// removing a fact, again changes nothing more.
		destructive: true, idempotent: true, full: true,
		params: []param{
			{name: "action", kind: kString, required: true, enum: []string{ops.KGActionEntity, ops.KGActionTraverse, ops.KGActionRm},
				desc: "entity: show an entity, or set its type and aliases; traverse: paths of facts from an entity; rm: delete a wrong fact by fact_id."},
			{name: "entity", kind: kString, maxLen: ops.KGMaxNameBytes, actions: walk, requiredFor: walk,
				desc: "The entity, or one of its aliases, to show, set or start from."},
			{name: "type", kind: kString, maxLen: ops.MaxTokenBytes, actions: entity,
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
			{name: "as_of", kind: kString, maxLen: ops.MaxDateBytes, actions: traverse,
				desc: "Only facts true at this date or time; omit for every fact, past and present."},
			{name: "direction", kind: kString, enum: ops.KGDirections, actions: traverse,
				desc: "out (default): from subject to object, hop after hop; in: from object to subject; both."},
			{name: "limit", kind: kInteger, min: num(1), max: num(ops.MaxTraversePaths), actions: traverse,
				desc: fmt.Sprintf("Most paths (default %d).", ops.DefaultTraversePaths)},
			{name: "fact_id", kind: kString, maxLen: ops.MaxTokenBytes, actions: []string{ops.KGActionRm}, requiredFor: []string{ops.KGActionRm},
				desc: "The id (t_...) of the wrong fact to delete, from palace_kg add, query or timeline, or traverse. The removal is audited and cannot be undone."},
		},
		run: runKGGraph,
	}
}

type kgGraphArgs struct {
	Action     string   `json:"action"`
	Entity     string   `json:"entity"`
	Type       string   `json:"type"`
	Aliases    []string `json:"aliases"`
	Unalias    []string `json:"unalias"`
	Depth      int      `json:"depth"`
	Predicates []string `json:"predicates"`
	AsOf       string   `json:"as_of"`
	Direction  string   `json:"direction"`
	Limit      int      `json:"limit"`
	FactID     string   `json:"fact_id"`
}

func runKGGraph(ctx context.Context, s *Server, a args) (any, error) {
	var in kgGraphArgs
	if err := a.decode(&in); err != nil {
		return nil, err
	}
	switch in.Action {
	case ops.KGActionEntity:
		return ops.KGEntity(ctx, s.p, ops.KGEntityRequest{Entity: in.Entity, Type: in.Type, Alias: in.Aliases, Unalias: in.Unalias})
	case ops.KGActionTraverse:
		return ops.KGTraverse(ctx, s.p, ops.KGTraverseRequest{Entity: in.Entity, Depth: in.Depth, AsOf: in.AsOf,
			Predicates: in.Predicates, Direction: in.Direction, Limit: in.Limit})
	}
	// rm asks no confirmation: the tool is marked destructive, so a client
	// that gates destructive tools asks its user.
	return ops.KGRm(ctx, s.p, ops.KGRmRequest{FactID: in.FactID})
}
