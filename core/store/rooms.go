package store

import (
	"context"
	"encoding/json"
	"fmt"
)

// RoomStat is one room of one wing as tunnels see it: its taxonomy
// keywords (none for a room only drawers are filed in) and how many live
// drawers it holds (0 for a taxonomy room nothing was filed in yet).
type RoomStat struct {
	Wing     string   `json:"wing"`
	Room     string   `json:"room"`
	Keywords []string `json:"keywords"`
	Drawers  int      `json:"drawers"`
}

// RoomStats returns every room of every wing, sorted by wing, then room:
// the taxonomy's rooms and the rooms live drawers are filed in, since a
// room removed from the taxonomy keeps its drawers (RemoveRoom) and is
// still searched by name.
func (s *Store) RoomStats(ctx context.Context) ([]RoomStat, error) {
	// max() over the one taxonomy row of a room skips the drawer rows'
	// NULL keywords; a room without a taxonomy row keeps NULL.
	rows, err := s.r.QueryContext(ctx, `SELECT wing, room, max(keywords), sum(n) FROM (
			SELECT wing, room, keywords, 0 AS n FROM taxonomy
			UNION ALL
			SELECT wing, room, NULL, count(*) FROM drawers WHERE deleted_at IS NULL GROUP BY wing, room)
		GROUP BY wing, room ORDER BY wing, room`)
	if err != nil {
		return nil, fmt.Errorf("rooms: %w", err)
	}
	defer rows.Close()
	var out []RoomStat
	for rows.Next() {
		var r RoomStat
		var kw *string
		if err := rows.Scan(&r.Wing, &r.Room, &kw, &r.Drawers); err != nil {
			return nil, fmt.Errorf("rooms: %w", err)
		}
		r.Keywords = []string{}
		if kw != nil {
			if err := json.Unmarshal([]byte(*kw), &r.Keywords); err != nil {
				return nil, fmt.Errorf("rooms: %s/%s: keywords: %w", r.Wing, r.Room, err)
			}
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("rooms: %w", err)
	}
	return out, nil
}
