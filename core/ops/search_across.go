package ops

import (
	"context"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/route"
	"github.com/palace-dev/palace/core/search"
)

// checkAcross refuses a search across tunnels that can have no room: none
// given, and routing off.
func (r SearchRequest) checkAcross() error {
	if r.Across && r.Room == "" && r.Route == RouteOff {
		return input.Invalid("across", "needs a room: name one, or leave routing on (auto) so that the room the query routes to is searched in every wing")
	}
	return nil
}

// across makes req a search across tunnels when r asks for one: one room
// name in every wing, the room given or the one the query routes to
// (route.Across: within r.Wing's room names when r names a wing), the
// wing dropped from the filter. Only rooms of that name are searched;
// rooms a keyword tunnel joins to it have other names, which a search of
// their own covers. The routed room is the caller's choice as much as a
// given one, so a search finding nothing there does not widen: with
// across, the answer is that room's. A query that routes to no room is
// invalid input, since searching every room is not crossing a tunnel.
// It returns the route to report, or nil when r does not cross.
func (r SearchRequest) across(ctx context.Context, p *palace.Palace, req *search.Request) (*route.Route, error) {
	if !r.Across {
		return nil, nil
	}
	rt, err := route.Across(ctx, p.Store, req.Query, r.Wing, r.Room)
	if err != nil {
		return nil, err
	}
	room := r.Room
	if room == "" {
		if !rt.Applied {
			return nil, input.Invalid("across", "needs a room: the query routes to none (%s), so name one", rt.Reason)
		}
		room = rt.Room
	}
	req.Filter.Wing, req.Filter.Room, req.NoRoute = "", room, true
	return &rt, nil
}
