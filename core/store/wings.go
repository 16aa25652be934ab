package store

import (
	"context"
	"fmt"
)

// Wings lists the wings that hold a drawer (forgotten ones too: they are
// still read by id and exported) or a taxonomy room, in name order. It walks the (wing, room) index with a skip-scan, so it stays fast
// in a palace of any size.
func (s *Store) Wings(ctx context.Context) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT wing FROM (
		SELECT DISTINCT wing FROM drawers
		UNION SELECT DISTINCT wing FROM taxonomy) ORDER BY wing`)
	if err != nil {
		return nil, fmt.Errorf("wings: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var w string
		if err := rows.Scan(&w); err != nil {
			return nil, fmt.Errorf("wings: %w", err)
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// HasWing reports whether wing holds a drawer, a taxonomy room or a fact
// recorded in it (Triple.Wing: a project whose session only stated facts
// so far): one index seek each, cheap enough to check before every
// filtered search.
func (s *Store) HasWing(ctx context.Context, wing string) (bool, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT EXISTS(SELECT 1 FROM drawers WHERE wing = ?1)
		OR EXISTS(SELECT 1 FROM taxonomy WHERE wing = ?1) OR EXISTS(SELECT 1 FROM triples WHERE wing = ?1)`, wing).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("wing %s: %w", wing, err)
	}
	return n == 1, nil
}
