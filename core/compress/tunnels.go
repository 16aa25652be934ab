package compress

import (
	"context"
	"fmt"
	"strings"

	"github.com/palace-dev/palace/aaak"
	"github.com/palace-dev/palace/core/route"
	"github.com/palace-dev/palace/core/store"
)

// links are the palace's tunnels (route.Tunnels), which give each room's
// document its T: lines.
type links []route.Tunnel

func loadLinks(ctx context.Context, st *store.Store) (links, error) {
	rooms, err := st.RoomStats(ctx)
	if err != nil {
		return nil, fmt.Errorf("compress: tunnels: %w", err)
	}
	return route.Tunnels(rooms), nil
}

// labels returns the labels of wing/room's T: lines: one per room a
// tunnel leads to, the tunnels in route.Tunnels' order, each saying where
// and why: "tunnel to web/auth (2 drawers)", and ": keywords cookie,
// session" after a keyword tunnel's.
func (l links) labels(wing, room string) []string {
	var out []string
	for _, t := range l {
		for _, s := range t.Others(wing, room) {
			label := fmt.Sprintf("tunnel to %s/%s (%d %s)", s.Wing, s.Room, s.Drawers, drawers(s.Drawers))
			if t.Kind == route.TunnelKeywords {
				label += ": keywords " + strings.Join(t.Keywords, ", ")
			}
			out = append(out, label)
		}
	}
	return out
}

func drawers(n int) string {
	if n == 1 {
		return "drawer"
	}
	return "drawers"
}

// withTunnels adds wing/room's T: lines to its printed document. A T:
// line joins two zettels of its document (SPEC.md, section 2) and the
// other room is in another document, so each line goes from the first
// zettel, standing for the room, to itself; the first zettel keeps its id
// as drawers are added, so the lines do too. The document is read back
// rather than encoded again, which could differ once the entity map has
// learnt names. The round-trip measure ran before: the labels name rooms,
// not what the drawers say, so they count for nothing in its coverage.
func (l links) withTunnels(src, wing, room string) (string, error) {
	labels := l.labels(wing, room)
	if len(labels) == 0 {
		return src, nil
	}
	doc, err := aaak.Parse(src)
	if err != nil {
		return "", fmt.Errorf("compress %s/%s: read back: %w", wing, room, err)
	}
	if len(doc.Zettels) == 0 { // Encode writes a zettel per drawer at least
		return src, nil
	}
	anchor := doc.Zettels[0].ID
	for _, label := range labels {
		doc.Tunnels = append(doc.Tunnels, aaak.Tunnel{From: anchor, To: anchor, Label: label})
	}
	return aaak.Print(doc), nil
}
