package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// AllTaxonomy returns every wing's rooms, sorted by wing then room, so query
// routing can weigh rooms across wings in one deterministic pass.
func (s *Store) AllTaxonomy(ctx context.Context) ([]Room, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT wing, room, display_name, keywords FROM taxonomy ORDER BY wing, room`)
	if err != nil {
		return nil, fmt.Errorf("taxonomy: %w", err)
	}
	defer rows.Close()
	var out []Room
	for rows.Next() {
		r, err := scanRoom(rows)
		if err != nil {
			return nil, fmt.Errorf("taxonomy: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("taxonomy: %w", err)
	}
	return out, nil
}

// SetRoom creates r's room in r's wing, or replaces its display name and
// keywords when it exists. Callers validate names; this only stores.
func (s *Store) SetRoom(ctx context.Context, r Room) error {
	kw := r.Keywords
	if kw == nil {
		kw = []string{} // the column holds a JSON array, never null
	}
	b, err := json.Marshal(kw)
	if err != nil {
		return fmt.Errorf("set room %s/%s: %w", r.Wing, r.Room, err)
	}
	return s.audited(ctx, "taxonomy.set", func(tx *sql.Tx, rec *auditRec) error {
		rec.IDs = []string{r.Wing + "/" + r.Room}
		if _, err := tx.ExecContext(ctx, `INSERT INTO taxonomy (wing, room, display_name, keywords) VALUES (?, ?, ?, ?)
			ON CONFLICT (wing, room) DO UPDATE SET display_name = excluded.display_name, keywords = excluded.keywords`,
			r.Wing, r.Room, r.DisplayName, string(b)); err != nil {
			return fmt.Errorf("set room %s/%s: %w", r.Wing, r.Room, err)
		}
		return nil
	})
}

// RemoveRoom deletes one taxonomy entry and reports whether it existed.
// Drawers already filed in the room keep their room: the taxonomy says where
// new content and queries go, not where old content is.
func (s *Store) RemoveRoom(ctx context.Context, wing, room string) (bool, error) {
	var n int64
	err := s.audited(ctx, "taxonomy.rm", func(tx *sql.Tx, rec *auditRec) error {
		rec.IDs = []string{wing + "/" + room}
		res, err := tx.ExecContext(ctx, `DELETE FROM taxonomy WHERE wing = ? AND room = ?`, wing, room)
		if err != nil {
			return fmt.Errorf("remove room %s/%s: %w", wing, room, err)
		}
		if n, err = res.RowsAffected(); err != nil {
			return fmt.Errorf("remove room %s/%s: %w", wing, room, err)
		}
		return nil
	})
	return n > 0, err
}

// SourceSample returns the path of one source of the given kind in wing (the
// smallest, so the answer is stable), or "" when the wing has none. It lets a
// front find the project folder a wing was mined from.
func (s *Store) SourceSample(ctx context.Context, wing, kind string) (string, error) {
	var p string
	err := s.r.QueryRowContext(ctx, `SELECT path FROM sources WHERE wing = ? AND kind = ? ORDER BY path LIMIT 1`, wing, kind).Scan(&p)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("sources of %s: %w", wing, err)
	}
	return p, nil
}

func scanRoom(rows *sql.Rows) (Room, error) {
	var r Room
	var kw string
	if err := rows.Scan(&r.Wing, &r.Room, &r.DisplayName, &kw); err != nil {
		return r, err
	}
	if err := json.Unmarshal([]byte(kw), &r.Keywords); err != nil {
		return r, fmt.Errorf("room %s/%s: keywords: %w", r.Wing, r.Room, err)
	}
	if r.Keywords == nil {
		r.Keywords = []string{}
	}
	return r, nil
}
