package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync/atomic"
	"time"
)

// A mine's drawers reach the drawers table through a staging table, one
// INSERT ... SELECT per batch instead of one INSERT per drawer.
//
// Why: the FTS5 triggers make every drawer insert a statement with its own
// statement journal, and FTS5 writes what it holds in memory to disk as a
// new index segment at every savepoint (fts5SavepointMethod flushes), so a
// mine inserting drawer by drawer wrote one index segment per drawer and
// FTS5 spent most of the writer's time merging them: on Go's src the
// triggers took 7 of the writer's 13.6 s (BenchmarkWriterProfile). One
// statement per batch fires the same triggers on the same rows in the same
// order, in the same transaction, and leaves one segment per batch. Every
// commit still holds the drawers with their full-text entries, so a mine
// killed at any moment leaves an index that agrees with the drawers, and a
// search during the mine finds each drawer from the commit that adds it.

// stageTable is the writer connection's staging table (TEMP: private to
// the connection, in memory with temp_store MEMORY, never in the file).
// n keeps the order rows are staged in, so seq is given in that order.
const stageTable = `CREATE TEMP TABLE IF NOT EXISTS drawer_stage (
	n INTEGER PRIMARY KEY,
	id TEXT, wing TEXT, room TEXT, kind TEXT, source TEXT, line_start INTEGER, line_end INTEGER,
	content TEXT, index_text TEXT, content_hash TEXT, created_at TEXT, source_mtime INTEGER,
	importance REAL, metadata TEXT, occurred_at TEXT, occurred_end TEXT,
	code_symbols TEXT, code_path TEXT, code_parts TEXT)`

// stagedDrawers stages the drawers a batch inserts and moves them into
// the drawers table in one statement (flush).
type stagedDrawers struct {
	tx      *sql.Tx
	st      *sql.Stmt
	n       int             // rows staged since the last flush
	sources map[string]bool // the sources of those rows
	han     bool            // a staged row's text holds Han
	done    bool            // this transaction recorded Han text (markHan)
	by      map[string]int  // drawers inserted per source by the flushes so far
	took    *atomic.Int64   // the flushes' time, in nanoseconds, added to the store's
}

func (s *Store) prepareStage(ctx context.Context, tx *sql.Tx) (*stagedDrawers, error) {
	if _, err := tx.ExecContext(ctx, stageTable); err != nil {
		return nil, fmt.Errorf("staging table: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM temp.drawer_stage`); err != nil {
		return nil, fmt.Errorf("staging table: %w", err)
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO temp.drawer_stage
		(id, wing, room, kind, source, line_start, line_end, content, index_text, content_hash,
		 created_at, source_mtime, importance, metadata, occurred_at, occurred_end,
		 code_symbols, code_path, code_parts)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return nil, fmt.Errorf("prepare staged insert: %w", err)
	}
	return &stagedDrawers{tx: tx, st: st, by: map[string]int{}, sources: map[string]bool{}, took: &s.stats.flush}, nil
}

func (sd *stagedDrawers) Close() error { return sd.st.Close() }

// add stages d as insertDrawer would insert it.
func (sd *stagedDrawers) add(ctx context.Context, d Drawer) error {
	v := drawerValues(d)
	// Never cancelled: see ApplySources.
	if _, err := sd.st.ExecContext(context.WithoutCancel(ctx), v...); err != nil {
		return fmt.Errorf("stage drawer %s (%s:%d-%d): %w", d.ID, d.Source, d.LineStart, d.LineEnd, err)
	}
	sd.n++
	sd.sources[d.Source] = true
	if !sd.han {
		body := d.Content
		if v[8] != nil {
			body = d.IndexText
		}
		sd.han = hasHan(body)
	}
	return nil
}

// flush inserts the staged rows into drawers in the order they were
// staged, an id already there left as it is (as insertDrawer does), and
// empties the stage.
func (sd *stagedDrawers) flush(ctx context.Context) error {
	if sd.n == 0 {
		return nil
	}
	t := time.Now()
	defer func() { sd.took.Add(int64(time.Since(t))) }()
	// WHERE true: without it SQLite would read ON CONFLICT as part of
	// the SELECT's join.
	rows, err := sd.tx.QueryContext(ctx, `INSERT INTO drawers
		(id, wing, room, kind, source, line_start, line_end, content, index_text, content_hash,
		 created_at, source_mtime, importance, metadata, occurred_at, occurred_end,
		 code_symbols, code_path, code_parts)
		SELECT id, wing, room, kind, source, line_start, line_end, content, index_text, content_hash,
		 created_at, source_mtime, importance, metadata, occurred_at, occurred_end,
		 code_symbols, code_path, code_parts
		FROM temp.drawer_stage WHERE true ORDER BY n
		ON CONFLICT (id) DO NOTHING
		RETURNING source`)
	if err != nil {
		return fmt.Errorf("insert staged drawers: %w", err)
	}
	added := 0
	for rows.Next() {
		var src string
		if err := rows.Scan(&src); err != nil {
			rows.Close()
			return fmt.Errorf("insert staged drawers: %w", err)
		}
		sd.by[src]++
		added++
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("insert staged drawers: %w", err)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("insert staged drawers: %w", err)
	}
	if _, err := sd.tx.ExecContext(ctx, `DELETE FROM temp.drawer_stage`); err != nil {
		return fmt.Errorf("empty the staging table: %w", err)
	}
	sd.n = 0
	clear(sd.sources)
	if sd.han && added > 0 {
		// An id already there is the same source, position and content,
		// so its text held the same Han: recording it again changes nothing.
		if err := recordHan(ctx, sd.tx, &sd.done); err != nil {
			return err
		}
	}
	sd.han = false
	return nil
}

// writeStats are the writer's running totals a mine reports (see
// WriteStats).
type writeStats struct {
	flush  atomic.Int64 // nanoseconds in stagedDrawers.flush
	audit  atomic.Int64 // in the audit log: reading its tail, appending and syncing the line
	commit atomic.Int64 // in audited writes' commits (the WAL's write, and a checkpoint when one falls due)
}

// WriteStats are how long the writer spent in parts of its transactions
// since the store was opened.
type WriteStats struct {
	// Insert is the time of the statements that moved staged drawers into
	// the drawers table: the rows, their secondary index entries and
	// their full-text index entries (the FTS5 triggers fire in them).
	Insert time.Duration
	// Audit is the time of audited writes' audit lines: the log's tail
	// read, the line appended and synced to disk before the commit.
	Audit time.Duration
	// Commit is the time of audited writes' commits: the WAL written,
	// and SQLite's checkpoint when the commit crosses its limit.
	Commit time.Duration
}

// WriteStats returns the writer's running totals.
func (s *Store) WriteStats() WriteStats {
	return WriteStats{Insert: time.Duration(s.stats.flush.Load()), Audit: time.Duration(s.stats.audit.Load()),
		Commit: time.Duration(s.stats.commit.Load())}
}
