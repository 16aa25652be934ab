package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// ListDrawers returns live drawers matching f, newest content first (by when
// it happened, else when it was mined), at most limit of them.
func (s *Store) ListDrawers(ctx context.Context, f Filter, limit int) ([]Drawer, error) {
	where, args := filterSQL(f)
	q := `SELECT ` + drawerColumns("d.") + ` FROM drawers d WHERE ` + strings.Join(where, " AND ") + `
		ORDER BY coalesce(d.occurred_at, d.created_at) DESC, d.source, d.line_start LIMIT ?`
	rows, err := s.r.QueryContext(ctx, q, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("list drawers: %w", err)
	}
	defer rows.Close()
	var out []Drawer
	for rows.Next() {
		d, err := scanDrawer(rows)
		if err != nil {
			return nil, fmt.Errorf("list drawers: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// filterSQL turns a filter into WHERE clauses over drawers aliased d, live
// drawers only.
func filterSQL(f Filter) ([]string, []any) {
	var where []string
	var args []any
	if f.Wing != "" {
		where = append(where, "d.wing = ?")
		args = append(args, f.Wing)
	}
	if f.Room != "" {
		where = append(where, "d.room = ?")
		args = append(args, f.Room)
	}
	if f.Kind != "" {
		where = append(where, "d.kind = ?")
		args = append(args, f.Kind)
	}
	if f.SourcePrefix != "" {
		// As bytes: substr on text counts characters, len counts bytes.
		where = append(where, "substr(CAST(d.source AS BLOB), 1, ?) = CAST(? AS BLOB)")
		args = append(args, len(f.SourcePrefix), f.SourcePrefix)
	}
	var when []string
	if !f.Since.IsZero() {
		when = append(when, "coalesce(d.occurred_end, d.occurred_at, d.created_at) >= ?")
		args = append(args, formatTime(f.Since))
	}
	if !f.Until.IsZero() {
		when = append(when, "coalesce(d.occurred_at, d.created_at) < ?")
		args = append(args, formatTime(f.Until))
	}
	switch {
	case len(when) > 0 && f.Refers:
		// A refers pair [from, until) of days overlaps [Since, Until):
		// days compare as text against the days the bounds fall on.
		until, since := "9999-12-31", ""
		if !f.Until.IsZero() {
			u := f.Until.UTC()
			day := time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)
			if day.Before(u) {
				day = day.AddDate(0, 0, 1)
			}
			until = day.Format("2006-01-02")
		}
		if !f.Since.IsZero() {
			since = f.Since.UTC().Format("2006-01-02")
		}
		// instr first: most drawers refer to no day, and finding that
		// costs less than parsing their metadata.
		where = append(where, "(("+strings.Join(when, " AND ")+`) OR instr(d.metadata, '"refers"') > 0 AND EXISTS (SELECT 1 FROM
			json_each(CASE WHEN json_valid(d.metadata) THEN d.metadata ELSE '{}' END, '$.refers') r
			WHERE json_extract(r.value, '$[0]') < ? AND json_extract(r.value, '$[1]') > ?))`)
		args = append(args, until, since)
	case len(when) > 0:
		where = append(where, when...)
	}
	where = append(where, "d.deleted_at IS NULL")
	return where, args
}

// Meta reads a value from the meta table; ok is false when it is unset.
func (s *Store) Meta(ctx context.Context, key string) (value string, ok bool, err error) {
	err = s.r.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&value)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read meta %s: %w", key, err)
	}
	return value, true, nil
}

// SetMeta writes a value to the meta table.
func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	return s.write(ctx, func(tx *sql.Tx) error { return putMeta(ctx, tx, key, value) })
}

// putMeta writes value under key in tx, replacing what the key held.
func putMeta(ctx context.Context, tx *sql.Tx, key, value string) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value); err != nil {
		return fmt.Errorf("write meta %s: %w", key, err)
	}
	return nil
}
