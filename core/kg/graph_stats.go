package kg

import (
	"cmp"
	"context"
	"slices"

	"github.com/palace-dev/palace/core/store"
)

// MostConnected is how many entities the statistics list as the most
// connected.
const MostConnected = 10

// TypeCount is how many entities have one type, and how many of those
// have it inferred rather than set by hand.
type TypeCount struct {
	Type     string `json:"type"`
	Entities int    `json:"entities"`
	Inferred int    `json:"inferred"`
}

// Connected is an entity with the number of facts it is in.
type Connected struct {
	Node
	Facts int `json:"facts"`
}

// typeStats counts the graph's entities by type (most first, ties by
// name; the untyped ones as unknown) and lists the most connected
// entities with their types.
func typeStats(ctx context.Context, st *store.Store, entities int) ([]TypeCount, []Connected, error) {
	set, err := st.KGSetTypes(ctx)
	if err != nil {
		return nil, nil, err
	}
	facts, err := st.KGTypeFacts(ctx, typePredicates(), "")
	if err != nil {
		return nil, nil, err
	}
	inferred := inferTypes(facts)
	// typeOf is an entity's type as describeEntity gives it.
	typeOf := func(e store.Entity) Node {
		n := Node{ID: e.ID, Name: e.Name, Type: e.Type}
		if inf, ok := inferred[e.ID]; ok && e.Type == TypeUnknown {
			n.Type, n.Inferred = inf.typ, true
		}
		return n
	}
	counts := map[string]*TypeCount{}
	count := func(typ string, inf bool) {
		c := counts[typ]
		if c == nil {
			c = &TypeCount{Type: typ}
			counts[typ] = c
		}
		c.Entities++
		if inf {
			c.Inferred++
		}
	}
	for _, typ := range set {
		count(typ, false)
	}
	typed := len(set)
	for id, inf := range inferred {
		if _, ok := set[id]; !ok {
			count(inf.typ, true)
			typed++
		}
	}
	types := []TypeCount{}
	for _, c := range counts {
		types = append(types, *c)
	}
	if entities > typed {
		types = append(types, TypeCount{Type: TypeUnknown, Entities: entities - typed})
	}
	slices.SortFunc(types, func(a, b TypeCount) int {
		return cmp.Or(cmp.Compare(b.Entities, a.Entities), cmp.Compare(a.Type, b.Type))
	})
	top, err := st.KGMostConnected(ctx, MostConnected)
	if err != nil {
		return nil, nil, err
	}
	most := make([]Connected, len(top))
	for i, e := range top {
		most[i] = Connected{Node: typeOf(e.Entity), Facts: e.Facts}
	}
	return types, most, nil
}
