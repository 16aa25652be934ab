package store

// SQL behind core/memory: notes and diary entries (drawers that belong to no
// mined source), the exact-duplicate lookup, and the ranked reads wake-up
// makes. Policy (what counts as a duplicate, what wake-up shows) lives in
// core/memory.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// InsertNote writes one drawer that belongs to no mined source (a note or a
// diary entry). It returns "" when the drawer was written, else the id of
// the drawer that stopped it:
//   - with unlessSameContent set, a live drawer of d.Wing holding the same
//     content hash. The lookup runs in the write transaction, so of two
//     concurrent identical notes exactly one is written.
//   - a drawer that already has d.ID (the same note submitted twice at the
//     same instant).
func (s *Store) InsertNote(ctx context.Context, d Drawer, unlessSameContent bool) (existing string, err error) {
	op := "note.add"
	if d.Kind == KindDiary {
		op = "diary.add"
	}
	err = s.audited(ctx, op, func(tx *sql.Tx, rec *auditRec) error {
		rec.IDs, rec.Hash, rec.Size = []string{d.ID}, d.ContentHash, int64(len(d.Content))
		if unlessSameContent {
			err := tx.QueryRowContext(ctx, `SELECT id FROM drawers
				WHERE wing = ? AND content_hash = ? AND deleted_at IS NULL ORDER BY seq LIMIT 1`,
				d.Wing, d.ContentHash).Scan(&existing)
			if err == nil {
				rec.Skip = true // a duplicate: nothing written
				return nil
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("insert note %s: duplicate check: %w", d.ID, err)
			}
		}
		ins, err := prepareInsert(ctx, tx)
		if err != nil {
			return err
		}
		defer ins.Close()
		n, err := insertDrawer(ctx, ins, d)
		if err != nil {
			return err
		}
		if n == 0 {
			existing, rec.Skip = d.ID, true
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return existing, nil
}

// DrawersByHash returns up to limit live drawers of wing whose content hash
// is hash, oldest first.
func (s *Store) DrawersByHash(ctx context.Context, wing, hash string, limit int) ([]Drawer, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+drawerColumns("")+` FROM drawers
		WHERE wing = ? AND content_hash = ? AND deleted_at IS NULL ORDER BY seq LIMIT ?`, wing, hash, limit)
	if err != nil {
		return nil, fmt.Errorf("drawers with hash %.12s in %s: %w", hash, wing, err)
	}
	return scanDrawers(rows)
}

// TopDrawers returns up to limit live drawers of wing (every wing when
// wing is ""), diary entries excepted: most important first, then the
// newest (when the content happened, else when it was mined), ties by id so
// the order is the same on every call.
func (s *Store) TopDrawers(ctx context.Context, wing string, limit int) ([]Drawer, error) {
	where, args := []string{"deleted_at IS NULL", "kind <> ?"}, []any{KindDiary}
	if wing != "" {
		where, args = append(where, "wing = ?"), append(args, wing)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT `+drawerColumns("")+` FROM drawers WHERE `+strings.Join(where, " AND ")+`
		ORDER BY importance DESC, coalesce(occurred_at, created_at) DESC, id LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("top drawers of %q: %w", wing, err)
	}
	return scanDrawers(rows)
}

// DiaryFilter selects diary entries. Empty fields match all.
type DiaryFilter struct {
	Source string    // the writing agent's source ("diary:<agent id>")
	Wing   string    // the wing the entries were filed in
	Since  time.Time // entries written at or after this instant
}

// ListDiary returns up to limit live diary entries matching f, newest
// first; entries written in the same second come newest-inserted first.
func (s *Store) ListDiary(ctx context.Context, f DiaryFilter, limit int) ([]Drawer, error) {
	where, args := []string{"deleted_at IS NULL", "kind = ?"}, []any{KindDiary}
	if f.Source != "" {
		where, args = append(where, "source = ?"), append(args, f.Source)
	}
	if f.Wing != "" {
		where, args = append(where, "wing = ?"), append(args, f.Wing)
	}
	if !f.Since.IsZero() {
		where, args = append(where, "coalesce(occurred_at, created_at) >= ?"), append(args, formatTime(f.Since))
	}
	rows, err := s.r.QueryContext(ctx, `SELECT `+drawerColumns("")+` FROM drawers WHERE `+strings.Join(where, " AND ")+`
		ORDER BY coalesce(occurred_at, created_at) DESC, seq DESC LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("list diary: %w", err)
	}
	return scanDrawers(rows)
}

func scanDrawers(rows *sql.Rows) ([]Drawer, error) {
	defer rows.Close()
	var out []Drawer
	for rows.Next() {
		d, err := scanDrawer(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// KGCurrent returns up to limit triples true at asOf, the most recently
// started first (then the most recently recorded, then by id). With wing
// set, only triples read from one of the wing's drawers, recorded in the
// wing (Triple.Wing), or naming the entity wingEntity (the wing's name as a knowledge-graph id) as subject or
// object.
func (s *Store) KGCurrent(ctx context.Context, wing, wingEntity string, asOf time.Time, limit int) ([]Triple, error) {
	a := kgFormat(&asOf)
	where := `(t.valid_from IS NULL OR t.valid_from <= ?) AND (t.valid_to IS NULL OR t.valid_to > ?)`
	args := []any{a, a}
	if wing != "" {
		where += ` AND (t.subject = ? OR t.object = ? OR t.wing = ?
			OR t.source_drawer IN (SELECT id FROM drawers WHERE wing = ? AND deleted_at IS NULL))`
		args = append(args, wingEntity, wingEntity, wing, wing)
	}
	rows, err := s.r.QueryContext(ctx, tripleSelect+`WHERE `+where+`
		ORDER BY t.valid_from IS NULL, t.valid_from DESC, t.created_at DESC, t.id LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("current facts of %q: %w", wing, err)
	}
	ts, err := scanTriples(rows)
	if err != nil {
		return nil, fmt.Errorf("current facts of %q: %w", wing, err)
	}
	return ts, nil
}

// PendingVectorOf returns drawer id as PendingVectors would, so a caller
// can embed one new drawer at once instead of waiting for a fill.
func (s *Store) PendingVectorOf(ctx context.Context, id string) (PendingVector, error) {
	var p PendingVector
	err := s.r.QueryRowContext(ctx, `SELECT seq, id, wing, room, kind, coalesce(index_text, content) FROM drawers
		WHERE id = ? AND deleted_at IS NULL`, id).Scan(&p.Seq, &p.ID, &p.Wing, &p.Room, &p.Kind, &p.Text)
	if errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("drawer %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return p, fmt.Errorf("drawer %s: %w", id, err)
	}
	return p, nil
}
