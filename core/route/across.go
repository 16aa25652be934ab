package route

import (
	"context"
	"fmt"
	"slices"

	"github.com/palace-dev/palace/core/store"
)

// AnyWing is the wing of a route across tunnels (Across): its room is
// searched in every wing.
const AnyWing = "*"

// Across is the route of a search that crosses a tunnel: one room name,
// searched in every wing whatever wing the caller named. A room the caller
// names is that room, not routed. Otherwise the query is routed over room
// names rather than rooms: the rooms of one name count as one, their
// keywords pooled, since the search covers them all (Propose would find
// them tied and route nowhere). With wing, only the names wing has
// compete. The route is applied when the query names a room confidently;
// otherwise its Reason says why not, and the caller decides.
func Across(ctx context.Context, st *store.Store, q, wing, room string) (Route, error) {
	if room != "" {
		return Route{Reason: fmt.Sprintf("the search names room %s; searching it in every wing (across)", room)}, nil
	}
	if len(q) > MaxQueryBytes {
		return Route{Reason: fmt.Sprintf("query longer than %d bytes; not routed", MaxQueryBytes)}, nil
	}
	rooms, err := st.AllTaxonomy(ctx)
	if err != nil {
		return Route{}, fmt.Errorf("route query across wings: %w", err)
	}
	return Match(byName(rooms, wing), q, ""), nil
}

// byName merges rooms of one name into one room of AnyWing holding the
// keywords of all, in first-seen order; with wing, only the names of
// wing's rooms are kept.
func byName(rooms []store.Room, wing string) []store.Room {
	var names []string
	merged := map[string]*store.Room{}
	for _, r := range rooms {
		if wing != "" && r.Wing == wing && !slices.Contains(names, r.Room) {
			names = append(names, r.Room)
		}
		m, ok := merged[r.Room]
		if !ok {
			m = &store.Room{Wing: AnyWing, Room: r.Room}
			merged[r.Room] = m
		}
		for _, k := range r.Keywords {
			if !slices.Contains(m.Keywords, k) {
				m.Keywords = append(m.Keywords, k)
			}
		}
	}
	out := make([]store.Room, 0, len(merged))
	for name, m := range merged {
		if wing == "" || slices.Contains(names, name) {
			out = append(out, *m)
		}
	}
	return out // Match sorts
}
