package lsp

import (
	"context"
	"encoding/json"
	"time"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/ops"
)

// graphResult is an entity's neighbourhood as editors read it: the
// entity's name, the facts around it with camel-cased interval fields
// (the editor contract's names), and the page drawing them.
type graphResult struct {
	Entity string      `json:"entity"`
	Facts  []graphFact `json:"facts"`
	HTML   string      `json:"html"`
}

type graphFact struct {
	ID           string     `json:"id"`
	Subject      string     `json:"subject"`
	Predicate    string     `json:"predicate"`
	Object       string     `json:"object"`
	ValidFrom    *time.Time `json:"validFrom"` // null: since always
	ValidTo      *time.Time `json:"validTo"`   // null: still true; excluded
	Current      bool       `json:"current"`
	Confidence   float64    `json:"confidence"`
	SourceDrawer string     `json:"sourceDrawer,omitempty"`
}

// palaceGraph answers the facts within two hops of an entity and the page
// drawing them on a timeline: {entity, asOf?, nonce?}. An unknown entity
// is an error naming it.
func palaceGraph(ctx context.Context, s *server, raw json.RawMessage) (any, error) {
	var ps struct {
		Entity string `json:"entity"`
		AsOf   string `json:"asOf"`
		Nonce  string `json:"nonce"`
	}
	if err := decodeParams(raw, &ps); err != nil {
		return nil, err
	}
	g, err := ops.GraphPage(ctx, s.p, ops.GraphRequest{Entity: ps.Entity, AsOf: ps.AsOf, Nonce: ps.Nonce})
	if err != nil {
		return nil, input.Rename(err, map[string]string{"as_of": "asOf"}) // the name the client sent
	}
	res := graphResult{Entity: g.Graph.Entity.Name, Facts: make([]graphFact, len(g.Graph.Facts)), HTML: g.HTML}
	for i, f := range g.Graph.Facts {
		res.Facts[i] = graphFact{ID: f.ID, Subject: f.Subject, Predicate: f.Predicate, Object: f.Object,
			ValidFrom: f.ValidFrom, ValidTo: f.ValidTo, Current: f.Current, Confidence: f.Confidence, SourceDrawer: f.SourceDrawer}
	}
	return res, nil
}
