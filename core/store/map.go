package store

import (
	"context"
	"fmt"
	"time"
)

// MapCount is the live drawers of one kind in one room, with the times of
// the oldest and newest (when their content happened, else when it was
// mined).
type MapCount struct {
	Wing    string
	Room    string
	Kind    string
	Drawers int
	Oldest  time.Time
	Newest  time.Time
}

// MapCounts counts live drawers per wing, room and kind, sorted by wing,
// room, kind; wing "" is every wing.
func (s *Store) MapCounts(ctx context.Context, wing string) ([]MapCount, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT wing, room, kind, count(*),
			min(coalesce(occurred_at, created_at)), max(coalesce(occurred_at, created_at))
		FROM drawers WHERE deleted_at IS NULL AND (? = '' OR wing = ?)
		GROUP BY wing, room, kind ORDER BY wing, room, kind`, wing, wing)
	if err != nil {
		return nil, fmt.Errorf("map counts: %w", err)
	}
	defer rows.Close()
	var out []MapCount
	for rows.Next() {
		var c MapCount
		var oldest, newest string
		if err := rows.Scan(&c.Wing, &c.Room, &c.Kind, &c.Drawers, &oldest, &newest); err != nil {
			return nil, fmt.Errorf("map counts: %w", err)
		}
		if c.Oldest, err = ParseTime(oldest); err != nil {
			return nil, fmt.Errorf("map counts: %s/%s: %w", c.Wing, c.Room, err)
		}
		if c.Newest, err = ParseTime(newest); err != nil {
			return nil, fmt.Errorf("map counts: %s/%s: %w", c.Wing, c.Room, err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// MapDrawer is a drawer as a map lists it under its room: where it came
// from and the start of its content (Head, at most firstLineBytes).
type MapDrawer struct {
	ID        string
	Wing      string
	Room      string
	Kind      string
	Source    string
	LineStart int
	LineEnd   int
	Head      string
}

// firstLineBytes bounds the text read of a drawer: a map lists drawers by
// a line of their start, it does not show them.
const firstLineBytes = 1200

// MapTop returns up to perRoom live drawers of every room (of one wing, or
// every wing when wing is ""), the most important and then the newest
// first, sorted by wing and room.
func (s *Store) MapTop(ctx context.Context, wing string, perRoom int) ([]MapDrawer, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, wing, room, kind, source, line_start, line_end,
			substr(ltrim(content, char(10, 13, 32, 9)), 1, ?) FROM (
			SELECT *, row_number() OVER (PARTITION BY wing, room
				ORDER BY importance DESC, coalesce(occurred_at, created_at) DESC, source, line_start) AS n
			FROM drawers WHERE deleted_at IS NULL AND (? = '' OR wing = ?))
		WHERE n <= ? ORDER BY wing, room, n`, firstLineBytes, wing, wing, perRoom)
	if err != nil {
		return nil, fmt.Errorf("map drawers: %w", err)
	}
	defer rows.Close()
	var out []MapDrawer
	for rows.Next() {
		var d MapDrawer
		if err := rows.Scan(&d.ID, &d.Wing, &d.Room, &d.Kind, &d.Source, &d.LineStart, &d.LineEnd, &d.Head); err != nil {
			return nil, fmt.Errorf("map drawers: %w", err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// MapFile is how many live drawers one mined file holds in its room.
type MapFile struct {
	Wing    string
	Room    string
	Source  string
	Drawers int
}

// MapFiles counts the live file drawers per wing, room and source (wing ""
// is every wing), sorted by wing, room and source: what a map needs to
// say what a room of code holds and where its wing's files live.
func (s *Store) MapFiles(ctx context.Context, wing string) ([]MapFile, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT wing, room, source, count(*) FROM drawers
		WHERE deleted_at IS NULL AND kind = ? AND (? = '' OR wing = ?)
		GROUP BY wing, room, source ORDER BY wing, room, source`, KindFile, wing, wing)
	if err != nil {
		return nil, fmt.Errorf("map files: %w", err)
	}
	defer rows.Close()
	var out []MapFile
	for rows.Next() {
		var f MapFile
		if err := rows.Scan(&f.Wing, &f.Room, &f.Source, &f.Drawers); err != nil {
			return nil, fmt.Errorf("map files: %w", err)
		}
		out = append(out, f)
	}
	return out, rows.Err()
}
