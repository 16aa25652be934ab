package store

import (
	"context"
	"fmt"
	"slices"
)

// Neighbours returns up to n live drawers on each side of d in its source
// and wing, by line (then id, for drawers that start on the same line),
// nearest last in before and first in after. The drawers_source index
// finds the source's drawers; only 2n rows are read.
func (s *Store) Neighbours(ctx context.Context, d Drawer, n int) (before, after []Drawer, err error) {
	if n <= 0 {
		return nil, nil, nil
	}
	side := func(cond, order string) ([]Drawer, error) {
		q := `SELECT ` + drawerColumns("") + ` FROM drawers
			WHERE source = ? AND wing = ? AND deleted_at IS NULL AND id <> ? AND ` + cond + `
			ORDER BY ` + order + ` LIMIT ?`
		rows, err := s.r.QueryContext(ctx, q, d.Source, d.Wing, d.ID, d.LineStart, d.LineStart, d.ID, n)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []Drawer
		for rows.Next() {
			x, err := scanDrawer(rows)
			if err != nil {
				return nil, err
			}
			out = append(out, x)
		}
		return out, rows.Err()
	}
	if before, err = side(`(line_start < ? OR (line_start = ? AND id < ?))`, `line_start DESC, id DESC`); err != nil {
		return nil, nil, fmt.Errorf("neighbours of %s: %w", d.ID, err)
	}
	slices.Reverse(before)
	if after, err = side(`(line_start > ? OR (line_start = ? AND id > ?))`, `line_start, id`); err != nil {
		return nil, nil, fmt.Errorf("neighbours of %s: %w", d.ID, err)
	}
	return before, after, nil
}
