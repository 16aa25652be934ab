package ops

import (
	"context"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/search"
)

// MaxNeighbours bounds a Get's neighbours on each side: enough to finish a
// thought a hit starts or ends in, without reading the whole source.
const MaxNeighbours = 5

// GetRequest asks for one drawer by id, with its neighbours in its source.
type GetRequest struct {
	ID string
	// Neighbours is how many drawers before and after it, from the same
	// source and wing, to include: 0 (none) to MaxNeighbours.
	Neighbours int
}

// Validate names the first bad field.
func (r GetRequest) Validate() error {
	if err := checkText("id", r.ID); err != nil {
		return err
	}
	if r.Neighbours < 0 || r.Neighbours > MaxNeighbours {
		return input.Invalid("neighbours", "%d: want 0 to %d", r.Neighbours, MaxNeighbours)
	}
	return nil
}

// GetResult is the drawer verbatim with its metadata (DeletedAt set when it
// was forgotten: nothing is unreachable by its id), then its live
// neighbours in line order.
type GetResult struct {
	search.Drawer
	Before []search.Drawer `json:"before,omitempty"`
	After  []search.Drawer `json:"after,omitempty"`
}

// Get returns r.ID's drawer. An unknown id is ErrNotFound.
func Get(ctx context.Context, p *palace.Palace, r GetRequest) (GetResult, error) {
	if err := r.Validate(); err != nil {
		return GetResult{}, err
	}
	d, err := p.Store.GetDrawer(ctx, r.ID)
	if err != nil {
		return GetResult{}, err
	}
	res := GetResult{Drawer: search.DrawerOf(d)}
	before, after, err := p.Store.Neighbours(ctx, d, r.Neighbours)
	if err != nil {
		return res, err
	}
	for _, n := range before {
		res.Before = append(res.Before, search.DrawerOf(n))
	}
	for _, n := range after {
		res.After = append(res.After, search.DrawerOf(n))
	}
	return res, nil
}
