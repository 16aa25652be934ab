package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"sort"
)

// RoomCount is the number of live drawers in one wing and room.
type RoomCount struct {
	Wing    string `json:"wing"`
	Room    string `json:"room"`
	Drawers int    `json:"drawers"`
}

// Status summarises the palace.
type Status struct {
	Home          string      `json:"home"`
	Database      string      `json:"database"`
	SchemaVersion int         `json:"schema_version"`
	DBBytes       int64       `json:"db_bytes"`
	Drawers       int         `json:"drawers"`
	Deleted       int         `json:"deleted_drawers"`
	Sources       int         `json:"sources"`
	Rooms         []RoomCount `json:"rooms"`
}

// Status counts drawers per wing and room, sources, and the file sizes.
func (s *Store) Status(ctx context.Context) (Status, error) {
	st := Status{Home: s.home, Database: s.path, Rooms: []RoomCount{}}
	var err error
	if st.SchemaVersion, err = s.SchemaVersionOf(ctx); err != nil {
		return st, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT wing, room, count(*) FROM drawers WHERE deleted_at IS NULL
		GROUP BY wing, room ORDER BY wing, room`)
	if err != nil {
		return st, fmt.Errorf("status: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var rc RoomCount
		if err := rows.Scan(&rc.Wing, &rc.Room, &rc.Drawers); err != nil {
			return st, fmt.Errorf("status: %w", err)
		}
		st.Drawers += rc.Drawers
		st.Rooms = append(st.Rooms, rc)
	}
	if err := rows.Err(); err != nil {
		return st, fmt.Errorf("status: %w", err)
	}
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM drawers WHERE deleted_at IS NOT NULL`).Scan(&st.Deleted); err != nil {
		return st, fmt.Errorf("status: %w", err)
	}
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM sources`).Scan(&st.Sources); err != nil {
		return st, fmt.Errorf("status: %w", err)
	}
	for _, p := range []string{s.path, s.path + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			st.DBBytes += fi.Size()
		}
	}
	return st, nil
}

// Room is one taxonomy entry: a room of a wing and the words that route
// content and queries to it.
type Room struct {
	Wing        string   `json:"wing" yaml:"-"`
	Room        string   `json:"room" yaml:"name"`
	DisplayName string   `json:"display_name,omitempty" yaml:"display_name,omitempty"`
	Keywords    []string `json:"keywords" yaml:"keywords"`
}

// Taxonomy returns a wing's rooms sorted by name.
func (s *Store) Taxonomy(ctx context.Context, wing string) ([]Room, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT wing, room, display_name, keywords FROM taxonomy WHERE wing = ? ORDER BY room`, wing)
	if err != nil {
		return nil, fmt.Errorf("taxonomy of %s: %w", wing, err)
	}
	defer rows.Close()
	var out []Room
	for rows.Next() {
		var r Room
		var kw string
		if err := rows.Scan(&r.Wing, &r.Room, &r.DisplayName, &kw); err != nil {
			return nil, fmt.Errorf("taxonomy of %s: %w", wing, err)
		}
		if err := json.Unmarshal([]byte(kw), &r.Keywords); err != nil {
			return nil, fmt.Errorf("taxonomy of %s, room %s: keywords: %w", wing, r.Room, err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// ReplaceTaxonomy sets a wing's rooms to exactly rooms.
func (s *Store) ReplaceTaxonomy(ctx context.Context, wing string, rooms []Room) error {
	sorted := append([]Room(nil), rooms...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Room < sorted[j].Room })
	return s.audited(ctx, "taxonomy.replace", func(tx *sql.Tx, rec *auditRec) error {
		rec.IDs = []string{wing}
		if _, err := tx.ExecContext(ctx, `DELETE FROM taxonomy WHERE wing = ?`, wing); err != nil {
			return fmt.Errorf("replace taxonomy of %s: %w", wing, err)
		}
		for _, r := range sorted {
			kw := r.Keywords
			if kw == nil {
				kw = []string{}
			}
			b, _ := json.Marshal(kw)
			if _, err := tx.ExecContext(ctx, `INSERT INTO taxonomy (wing, room, display_name, keywords) VALUES (?, ?, ?, ?)`,
				wing, r.Room, r.DisplayName, string(b)); err != nil {
				return fmt.Errorf("replace taxonomy of %s, room %s: %w", wing, r.Room, err)
			}
		}
		return nil
	})
}
