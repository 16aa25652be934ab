package store

import (
	"context"
	"fmt"
	"strings"
)

// An orphan fact names a subject or object the entities table does not
// hold. No write path makes one (kg.Add creates both entities in the
// write that adds the fact), but an older import did: the fact counted in
// 'kg stats' while no query could reach it, since every lookup starts
// from an entity. Imports now refuse it (core/transfer) and doctor finds
// the ones already stored (CheckKG).

// CheckKG is the name of the knowledge-graph check.
const CheckKG = "kg"

// orphansShown bounds the facts the kg check's detail names.
const orphansShown = 5

// KGMissingEntities returns those of ids (entity ids) the palace holds no
// entity for, in the order given.
func (s *Store) KGMissingEntities(ctx context.Context, ids []string) ([]string, error) {
	var missing []string
	for _, id := range ids {
		var n int
		if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM entities WHERE id = ?`, id).Scan(&n); err != nil {
			return nil, fmt.Errorf("look up entity %q: %w", id, err)
		}
		if n == 0 {
			missing = append(missing, id)
		}
	}
	return missing, nil
}

// checkKG fails when some fact's subject or object is no entity, naming
// the first few facts and how to remove them.
func (s *Store) checkKG(ctx context.Context) (bool, string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT t.id, t.subject, t.object FROM triples t
		WHERE NOT EXISTS (SELECT 1 FROM entities e WHERE e.id = t.subject)
		   OR NOT EXISTS (SELECT 1 FROM entities e WHERE e.id = t.object)
		ORDER BY t.id`)
	if err != nil {
		return false, "", fmt.Errorf("kg check: %w", err)
	}
	defer rows.Close()
	var shown []string
	n := 0
	for rows.Next() {
		var id, subject, object string
		if err := rows.Scan(&id, &subject, &object); err != nil {
			return false, "", fmt.Errorf("kg check: %w", err)
		}
		if n++; n <= orphansShown {
			shown = append(shown, fmt.Sprintf("%s (%s -> %s)", id, subject, object))
		}
	}
	if err := rows.Err(); err != nil {
		return false, "", fmt.Errorf("kg check: %w", err)
	}
	if n == 0 {
		return true, "every fact's subject and object is an entity", nil
	}
	more := ""
	if n > len(shown) {
		more = ", ..."
	}
	return false, fmt.Sprintf("%d facts name an entity the graph does not hold (%s%s): no query reaches them; "+
		"'palace kg rm ID' removes one ('palace kg add' with its names records it again whole)", n, strings.Join(shown, ", "), more), nil
}
