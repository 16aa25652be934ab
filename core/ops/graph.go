package ops

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/picture"
)

// Graph bounds: the entities within GraphDepth hops, either direction,
// over at most GraphPaths paths (a hub's neighbourhood is cut, and says
// so).
const (
	GraphDepth = 2
	GraphPaths = 300
)

// GraphRequest asks for the neighbourhood of an entity as a picture.
type GraphRequest struct {
	Entity string
	// AsOf keeps the facts true at that instant (YYYY-MM-DD or RFC 3339);
	// "" keeps every fact, past and present.
	AsOf string
	// Nonce is as in MapPageRequest.
	Nonce string
}

// Validate names the first bad field.
func (r GraphRequest) Validate() error {
	if err := picture.CheckNonce(r.Nonce); err != nil {
		return err
	}
	return r.traverse().Validate()
}

func (r GraphRequest) traverse() kg.TraverseRequest {
	return kg.TraverseRequest{Entity: r.Entity, Depth: GraphDepth, AsOf: r.AsOf, Direction: kg.DirBoth, Limit: GraphPaths}
}

// GraphResult is an entity, the entities around it and the facts joining
// them, each fact with its validity interval.
type GraphResult struct {
	Entity kg.EntityInfo `json:"entity"`
	AsOf   *time.Time    `json:"as_of"`
	// Nodes are the entities reached, the asked one first (hops 0), then
	// by hops and name.
	Nodes []GraphNode `json:"nodes"`
	// Facts are in chronological order: since-always first, then by
	// start.
	Facts []GraphFact `json:"facts"`
	// Truncated says the neighbourhood had more than GraphPaths paths.
	Truncated bool `json:"truncated"`
}

// GraphNode is an entity and its distance from the asked one.
type GraphNode struct {
	kg.Node
	Hops int `json:"hops"`
}

// GraphFact is a fact and whether it is true now.
type GraphFact struct {
	kg.Triple
	Current bool `json:"current"`
}

// GraphPageResult is the graph and the self-contained page drawing it.
type GraphPageResult struct {
	Graph GraphResult `json:"graph"`
	HTML  string      `json:"html"`
}

// Graph walks GraphDepth hops from an entity both ways (kg.Traverse). An
// entity no fact mentions is ErrNotFound, named.
func Graph(ctx context.Context, p *palace.Palace, r GraphRequest) (GraphResult, error) {
	if err := r.Validate(); err != nil {
		return GraphResult{}, err
	}
	tr, err := kg.Traverse(ctx, p.Store, r.traverse())
	if err != nil {
		return GraphResult{}, err
	}
	res := GraphResult{Entity: tr.Entity, AsOf: tr.AsOf, Truncated: tr.Truncated, Facts: []GraphFact{},
		Nodes: []GraphNode{{Node: kg.Node{ID: tr.Entity.ID, Name: tr.Entity.Name, Type: tr.Entity.Type, Inferred: tr.Entity.Inferred}}}}
	seenNode := map[string]bool{tr.Entity.ID: true}
	seenFact := map[string]bool{}
	now := time.Now().UTC()
	for _, path := range tr.Paths {
		for i, h := range path.Hops {
			if !seenNode[h.To.ID] {
				seenNode[h.To.ID] = true
				res.Nodes = append(res.Nodes, GraphNode{Node: h.To, Hops: i + 1})
			}
			if !seenFact[h.ID] {
				seenFact[h.ID] = true
				res.Facts = append(res.Facts, GraphFact{Triple: h.Triple, Current: trueAt(h.Triple, now)})
			}
		}
	}
	slices.SortStableFunc(res.Nodes[1:], func(a, b GraphNode) int {
		return cmp.Or(cmp.Compare(a.Hops, b.Hops), cmp.Compare(a.Name, b.Name))
	})
	slices.SortStableFunc(res.Facts, func(a, b GraphFact) int {
		return cmp.Or(kg.CompareFrom(a.ValidFrom, b.ValidFrom), a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	return res, nil
}

// trueAt says whether t holds at now: [from, to), open ends unbounded.
func trueAt(t kg.Triple, now time.Time) bool {
	return (t.ValidFrom == nil || !t.ValidFrom.After(now)) && (t.ValidTo == nil || now.Before(*t.ValidTo))
}

// GraphPage reads the graph and draws it as one HTML page that requests
// nothing: the entities around the asked one, and each fact's interval
// on a timeline.
func GraphPage(ctx context.Context, p *palace.Palace, r GraphRequest) (GraphPageResult, error) {
	g, err := Graph(ctx, p, r)
	if err != nil {
		return GraphPageResult{}, err
	}
	html, err := picture.Graph(g, picture.Options{Title: "Palace graph · " + g.Entity.Name, Nonce: r.Nonce})
	if err != nil {
		return GraphPageResult{}, fmt.Errorf("graph page %s: %w", g.Entity.Name, err)
	}
	return GraphPageResult{Graph: g, HTML: html}, nil
}
