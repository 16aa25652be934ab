package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// WrittenOrder returns those of ids that are drawers, oldest first: by
// creation time, and those created in the same second (notes are stamped
// to the second) in the order this palace stored them.
func (s *Store) WrittenOrder(ctx context.Context, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id, created_at, seq FROM drawers WHERE id IN (?`+
		strings.Repeat(", ?", len(ids)-1)+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("order of %d drawers: %w", len(ids), err)
	}
	defer rows.Close()
	type written struct {
		id  string
		at  time.Time
		seq int64
	}
	var ws []written
	for rows.Next() {
		var w written
		var at string
		if err := rows.Scan(&w.id, &at, &w.seq); err != nil {
			return nil, fmt.Errorf("order of %d drawers: %w", len(ids), err)
		}
		// Stored as RFC 3339 with trailing zeros cut, which does not sort
		// as text: compared as times.
		w.at, _ = time.Parse(timeLayout, at)
		ws = append(ws, w)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("order of %d drawers: %w", len(ids), err)
	}
	slices.SortFunc(ws, func(a, b written) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.id
	}
	return out, nil
}
