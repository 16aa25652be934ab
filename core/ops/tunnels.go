package ops

import (
	"context"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/route"
)

// Tunnel joins rooms of different wings: one name in several wings, or two
// rooms whose taxonomy keywords overlap (see route.Tunnels for the rule).
type Tunnel = route.Tunnel

// TunnelsRequest lists tunnels.
type TunnelsRequest struct {
	// Wing keeps the tunnels with a room in this wing (their other sides
	// are shown too: they are where the tunnel leads); "" is every
	// tunnel. A wing the palace does not hold is invalid.
	Wing string
}

// Validate names the first bad field. Any wing name may be asked for; the
// operation refuses one the palace does not hold.
func (r TunnelsRequest) Validate() error { return nil }

// TunnelsResult holds the tunnels: the shared names sorted by name, then
// the keyword pairs sorted by their sides; never null.
type TunnelsResult struct {
	Tunnels []Tunnel `json:"tunnels"`
}

// Tunnels lists the palace's tunnels, or those of one wing, with the live
// drawers of each side.
func Tunnels(ctx context.Context, p *palace.Palace, r TunnelsRequest) (TunnelsResult, error) {
	res := TunnelsResult{Tunnels: []Tunnel{}}
	if err := checkWing(ctx, p, "wing", r.Wing); err != nil {
		return res, err
	}
	rooms, err := p.Store.RoomStats(ctx)
	if err != nil {
		return res, err
	}
	for _, t := range route.Tunnels(rooms) {
		if r.Wing == "" || t.Touches(r.Wing) {
			res.Tunnels = append(res.Tunnels, t)
		}
	}
	return res, nil
}
