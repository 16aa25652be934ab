package ops

import (
	"context"

	"github.com/palace-dev/palace/core/compress"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/palace"
)

// The typed graph's actions: an entity's type and aliases, the paths from
// an entity, and removing a wrong fact.
const (
	KGActionEntity   = "entity"
	KGActionTraverse = "traverse"
	KGActionRm       = "rm"
)

// Entity types: the built-in ones; a user may use their own word.
var KGTypes = kg.BuiltinTypes

// KGTypeUnknown clears a type set by hand.
const KGTypeUnknown = kg.TypeUnknown

// Traversal bounds.
const (
	DefaultTraverseDepth = kg.DefaultTraverseDepth
	MaxTraverseDepth     = kg.MaxTraverseDepth
	DefaultTraversePaths = kg.DefaultTraversePaths
	MaxTraversePaths     = kg.MaxTraversePaths
	// MaxKGListItems bounds a list of aliases or predicates in one request.
	MaxKGListItems = 32
)

// Timeline formats: facts (the default) or one AAAK document with an ARC:
// line.
const (
	KGFormatFacts = "facts"
	KGFormatAAAK  = "aaak"
)

// KGFormats are the timeline formats; "" is facts.
var KGFormats = []string{KGFormatFacts, KGFormatAAAK}

// CheckKGFormat names a timeline format that is not one of KGFormats. A
// front lists facts with KGTimeline and writes AAAK with KGTimelineAAAK.
func CheckKGFormat(format string) error { return checkEnum("format", format, KGFormats) }

// KGEntityRequest shows an entity, or sets its type and aliases.
type KGEntityRequest struct {
	// Entity is the entity's name or one of its aliases.
	Entity string
	// Type is one of KGTypes or the user's own lowercase word; KGTypeUnknown
	// clears a type set by hand; "" leaves it.
	Type string
	// Alias adds other names of the entity; Unalias removes some.
	Alias   []string
	Unalias []string
}

// KGEntityResult is the entity after the request: its type (set by hand,
// or inferred with its evidence), aliases and fact counts.
type KGEntityResult = kg.EntityResult

func (r KGEntityRequest) request() kg.EntityRequest {
	return kg.EntityRequest{Name: r.Entity, Type: r.Type, Alias: r.Alias, Unalias: r.Unalias}
}

// Validate names the first bad field.
func (r KGEntityRequest) Validate() error {
	if err := checkItems("alias", len(r.Alias), MaxKGListItems); err != nil {
		return err
	}
	if err := checkItems("unalias", len(r.Unalias), MaxKGListItems); err != nil {
		return err
	}
	return r.request().Validate()
}

// KGEntity shows an entity (an unknown one is ErrNotFound) or, when the
// request sets a type or aliases, changes it (creating it if no fact
// mentions it yet). An alias that is another entity's, or an entity with
// facts of its own, is invalid: aliases never merge entities.
func KGEntity(ctx context.Context, p *palace.Palace, r KGEntityRequest) (KGEntityResult, error) {
	if err := r.Validate(); err != nil {
		return KGEntityResult{}, err
	}
	req := r.request()
	if !req.Changes() {
		return kg.Entity(ctx, p.Store, req)
	}
	return retryBusy(ctx, "kg entity", func() (KGEntityResult, error) { return kg.Entity(ctx, p.Store, req) })
}

// KGTraverseRequest asks for the paths from an entity.
type KGTraverseRequest struct {
	Entity string
	// Depth is 1 to MaxTraverseDepth hops; 0 is DefaultTraverseDepth.
	Depth int
	// AsOf follows only facts true at that instant; "" every fact.
	AsOf string
	// Predicates, when given, are the only ones followed.
	Predicates []string
	// Direction is one of KGDirections; "" is out.
	Direction string
	// Limit is 1 to MaxTraversePaths paths; 0 is DefaultTraversePaths.
	Limit int
}

// KGTraverseResult lists the paths, each hop with its dated fact.
type KGTraverseResult = kg.TraverseResult

func (r KGTraverseRequest) request() kg.TraverseRequest {
	return kg.TraverseRequest{Entity: r.Entity, Depth: r.Depth, AsOf: r.AsOf, Predicates: r.Predicates,
		Direction: r.Direction, Limit: r.Limit}
}

// Validate names the first bad field.
func (r KGTraverseRequest) Validate() error {
	if err := checkEnum("direction", r.Direction, KGDirections); err != nil {
		return err
	}
	if err := checkItems("predicate", len(r.Predicates), MaxKGListItems); err != nil {
		return err
	}
	return r.request().Validate()
}

// KGTraverse walks the graph breadth first from an entity. An entity no
// fact mentions is ErrNotFound.
func KGTraverse(ctx context.Context, p *palace.Palace, r KGTraverseRequest) (KGTraverseResult, error) {
	if err := r.Validate(); err != nil {
		return KGTraverseResult{}, err
	}
	return kg.Traverse(ctx, p.Store, r.request())
}

// KGRmRequest names a wrong fact to delete.
type KGRmRequest struct {
	FactID string
	// DryRun shows the fact that would be removed, writing nothing.
	DryRun bool
}

// KGRmResult is the fact removed (or, for a dry run, that would be).
type KGRmResult = kg.RemoveResult

func (r KGRmRequest) request() kg.RemoveRequest {
	return kg.RemoveRequest{FactID: r.FactID, DryRun: r.DryRun}
}

// Validate names the first bad field.
func (r KGRmRequest) Validate() error { return r.request().Validate() }

// KGRm deletes a fact that was wrong, audited as kg.rm. A fact that was
// true once is invalidated instead (KGInvalidate). An unknown id is
// ErrNotFound.
func KGRm(ctx context.Context, p *palace.Palace, r KGRmRequest) (KGRmResult, error) {
	if err := r.Validate(); err != nil {
		return KGRmResult{}, err
	}
	if r.DryRun {
		return kg.Remove(ctx, p.Store, r.request())
	}
	return retryBusy(ctx, "kg rm", func() (KGRmResult, error) { return kg.Remove(ctx, p.Store, r.request()) })
}

// KGTimelineAAAKResult is a timeline as one AAAK document.
type KGTimelineAAAKResult struct {
	compress.KGDocument
	// Truncated says more facts exist than the request's limit.
	Truncated bool `json:"truncated"`
}

// KGTimelineAAAK writes the timeline KGTimeline lists as one AAAK
// document: a zettel per fact and an ARC: line (compress.KGTimeline).
func KGTimelineAAAK(ctx context.Context, p *palace.Palace, r KGTimelineRequest) (KGTimelineAAAKResult, error) {
	tl, err := KGTimeline(ctx, p, r)
	if err != nil {
		return KGTimelineAAAKResult{}, err
	}
	facts := make([]compress.KGFact, len(tl.Facts))
	for i, t := range tl.Facts {
		bare := t
		bare.ID = "" // the quote says the fact, not its id
		facts[i] = compress.KGFact{Triple: t, Text: kg.Describe(bare)}
	}
	name := ""
	if tl.Entity != nil {
		name = tl.Entity.Name
	}
	doc, err := compress.KGTimeline(ctx, p, name, facts)
	return KGTimelineAAAKResult{KGDocument: doc, Truncated: tl.Truncated}, err
}

// checkItems bounds a list in one request.
func checkItems(field string, n, max int) error {
	if n > max {
		return input.Invalid(field, "%d items: the limit is %d", n, max)
	}
	return nil
}
