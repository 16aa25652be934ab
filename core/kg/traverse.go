package kg

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/palace-dev/palace/core/store"
)

// Traversal bounds. Paths multiply with every hop, so both the depth and
// the number of paths are capped; a cut result says so.
const (
	DefaultTraverseDepth = 2
	MaxTraverseDepth     = 4
	DefaultTraversePaths = 50
	MaxTraversePaths     = 1000
)

// TraverseRequest asks for the paths leading from one entity.
type TraverseRequest struct {
	Entity string `json:"entity"`
	// Depth is the most hops a path takes, 1 to MaxTraverseDepth; 0 means
	// DefaultTraverseDepth.
	Depth int `json:"depth,omitempty"`
	// AsOf keeps only facts true at that instant (a date is its start);
	// "" follows every fact, past and present.
	AsOf string `json:"as_of,omitempty"`
	// Predicates, when given, are the only ones followed.
	Predicates []string `json:"predicates,omitempty"`
	// Direction is out (follow facts from subject to object, the
	// default, also ""), in (object to subject) or both.
	Direction string `json:"direction,omitempty"`
	// Limit caps the paths returned, 1 to MaxTraversePaths; 0 means
	// DefaultTraversePaths.
	Limit int `json:"limit,omitempty"`
}

// Node is an entity a hop reaches, with its type.
type Node struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Type     string `json:"type"`
	Inferred bool   `json:"inferred"`
}

// Hop is one fact a path follows, with the entity it leads to.
type Hop struct {
	Triple
	// Direction is out when the hop goes from the fact's subject to its
	// object, in when it goes back from the object to the subject.
	Direction string `json:"direction"`
	To        Node   `json:"to"`
}

// Path is a walk from the traversal's entity, one fact per hop.
type Path struct {
	Hops []Hop `json:"hops"`
}

// TraverseResult lists paths breadth first: shorter paths first, the
// facts at each step in chronological order. A path ends where it cannot
// go on without visiting an entity it already passed through, where no
// fact leads further, or at Depth.
type TraverseResult struct {
	Entity     EntityInfo `json:"entity"`
	Depth      int        `json:"depth"`
	AsOf       *time.Time `json:"as_of"`
	Direction  string     `json:"direction"`
	Predicates []string   `json:"predicates"`
	Paths      []Path     `json:"paths"`
	// Truncated says more paths exist than Limit: the paths listed are
	// cut where the limit was reached.
	Truncated bool `json:"truncated"`
}

type traversal struct {
	root       string
	depth      int
	limit      int
	asOf       *time.Time
	dir        string
	predicates []string
}

func (r TraverseRequest) parse() (traversal, error) {
	var t traversal
	if err := checkText("entity", r.Entity, false); err != nil {
		return t, err
	}
	if r.Depth < 0 || r.Depth > MaxTraverseDepth {
		return t, invalid("depth", "%d: want 1 to %d", r.Depth, MaxTraverseDepth)
	}
	if r.Limit < 0 || r.Limit > MaxTraversePaths {
		return t, invalid("limit", "%d: want 1 to %d", r.Limit, MaxTraversePaths)
	}
	var err error
	if t.asOf, err = ParseTime("as_of", r.AsOf, false); err != nil {
		return t, err
	}
	if t.dir = DirOut; r.Direction != "" {
		if t.dir, err = ParseDirection(r.Direction); err != nil {
			return t, err
		}
	}
	t.predicates = []string{}
	for _, p := range r.Predicates {
		if err := checkText("predicate", p, false); err != nil {
			return t, err
		}
		if n := NormalizePredicate(p); !slices.Contains(t.predicates, n) {
			t.predicates = append(t.predicates, n)
		}
	}
	t.root = NormalizeName(r.Entity)
	t.depth = cmp.Or(r.Depth, DefaultTraverseDepth)
	t.limit = cmp.Or(r.Limit, DefaultTraversePaths)
	return t, nil
}

// Validate checks the request without touching the palace.
func (r TraverseRequest) Validate() error {
	_, err := r.parse()
	return err
}

// Traverse walks the graph breadth first from an entity (or the entity an
// alias names), following facts in the asked direction, and returns every
// path it found, each hop with its dated fact. An entity is never visited
// twice on one path, so a cycle ends the path. An entity the graph has
// never seen is an error matching store.ErrNotFound.
func Traverse(ctx context.Context, st *store.Store, r TraverseRequest) (TraverseResult, error) {
	t, err := r.parse()
	if err != nil {
		return TraverseResult{}, err
	}
	e, err := entity(ctx, st, r.Entity, t.root)
	if err != nil {
		return TraverseResult{}, err
	}
	info, err := describeEntity(ctx, st, e)
	if err != nil {
		return TraverseResult{}, err
	}
	w := walker{ctx: ctx, st: st, t: t, facts: map[string][]Triple{}, nodes: map[string]Node{}}
	paths, cut, err := w.walk(e.ID)
	if err != nil {
		return TraverseResult{}, err
	}
	return TraverseResult{Entity: info, Depth: t.depth, AsOf: t.asOf, Direction: t.dir, Predicates: t.predicates,
		Paths: paths, Truncated: cut}, nil
}

// walker remembers each entity's facts and type for one traversal.
type walker struct {
	ctx   context.Context
	st    *store.Store
	t     traversal
	facts map[string][]Triple
	nodes map[string]Node
}

// walk extends every path one hop per round. A path no fact extends is
// done; one that several facts extend becomes several. Each path in play
// ends as at least one path, so the count in play never shrinks, and the
// walk stops, with the paths as they are, when one more would pass the
// limit.
func (w *walker) walk(root string) ([]Path, bool, error) {
	frontier := []Path{{Hops: []Hop{}}}
	done := []Path{}
	for d := 0; d < w.t.depth && len(frontier) > 0; d++ {
		var next []Path
		for i, p := range frontier {
			at := root
			if n := len(p.Hops); n > 0 {
				at = p.Hops[n-1].To.ID
			}
			hops, err := w.hops(at)
			if err != nil {
				return nil, false, err
			}
			extended := false
			for _, h := range hops {
				if onPath(root, p, h.To.ID) {
					continue
				}
				// In play after this hop: the paths done and extended, and
				// those of this round still to extend (p, until its first
				// extension replaces it).
				if len(done)+len(next)+len(frontier)-i > w.t.limit {
					return append(append(done, next...), frontier[i+1:]...), true, nil
				}
				next = append(next, Path{Hops: append(slices.Clone(p.Hops), h)})
				extended = true
			}
			if !extended && len(p.Hops) > 0 {
				done = append(done, p)
			}
		}
		frontier = next
	}
	return append(done, frontier...), false, nil
}

func onPath(root string, p Path, id string) bool {
	if id == root {
		return true
	}
	return slices.ContainsFunc(p.Hops, func(h Hop) bool { return h.To.ID == id })
}

// hops are the hops leading from entity id, in the facts' chronological
// order.
func (w *walker) hops(id string) ([]Hop, error) {
	ts, ok := w.facts[id]
	if !ok {
		var err error
		if ts, err = w.st.KGQuery(w.ctx, id, w.t.asOf, w.t.dir); err != nil {
			return nil, err
		}
		w.facts[id] = ts
	}
	var out []Hop
	for _, t := range ts {
		if len(w.t.predicates) > 0 && !slices.Contains(w.t.predicates, t.Predicate) {
			continue
		}
		h := Hop{Triple: t, Direction: DirOut}
		to := Node{ID: t.ObjectID, Name: t.Object}
		if t.SubjectID != id {
			h.Direction, to = DirIn, Node{ID: t.SubjectID, Name: t.Subject}
		}
		n, err := w.node(to)
		if err != nil {
			return nil, err
		}
		h.To = n
		out = append(out, h)
	}
	return out, nil
}

// node adds n's type.
func (w *walker) node(n Node) (Node, error) {
	if known, ok := w.nodes[n.ID]; ok {
		return known, nil
	}
	e, err := w.st.KGEntity(w.ctx, n.ID)
	if err != nil {
		return Node{}, err
	}
	info, err := describeEntity(w.ctx, w.st, e)
	if err != nil {
		return Node{}, err
	}
	n.Type, n.Inferred = info.Type, info.Inferred
	w.nodes[n.ID] = n
	return n, nil
}
