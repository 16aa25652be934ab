package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Changes notices commits to the palace database by any connection, in this
// process or another (the CLI, an MCP server, another editor). SQLite's
// PRAGMA data_version changes, on one connection, whenever another
// connection has committed since that connection last read it, so Changes
// keeps a connection of its own, outside the read pool (which hands out
// whichever connection is free) and never used for anything else.
type Changes struct {
	db   *sql.DB
	conn *sql.Conn
	last int64
}

// WatchChanges opens the connection Changes reads and takes the current
// version as the baseline. Close it when done.
func (s *Store) WatchChanges(ctx context.Context) (*Changes, error) {
	db, err := sql.Open("sqlite3", readOnlyDSN(s.path, s.immutable))
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", s.path, err)
	}
	db.SetMaxOpenConns(1)
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("watch %s: %w", s.path, err)
	}
	c := &Changes{db: db, conn: conn}
	if c.last, err = c.version(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func (c *Changes) version(ctx context.Context) (int64, error) {
	var v int64
	if err := c.conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
		return 0, fmt.Errorf("watch: data_version: %w", err)
	}
	return v, nil
}

// Poll reports whether the database changed since the last Poll (or
// WatchChanges), and then how many live drawers it holds.
func (c *Changes) Poll(ctx context.Context) (changed bool, drawers int, err error) {
	v, err := c.version(ctx)
	if err != nil || v == c.last {
		return false, 0, err
	}
	c.last = v
	if err := c.conn.QueryRowContext(ctx, `SELECT count(*) FROM drawers WHERE deleted_at IS NULL`).Scan(&drawers); err != nil {
		return false, 0, fmt.Errorf("watch: count drawers: %w", err)
	}
	return true, drawers, nil
}

// Close releases the connection.
func (c *Changes) Close() error {
	c.conn.Close()
	return c.db.Close()
}
