package bench

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"time"
	"unicode/utf8"
)

// floorChunk is the size, in characters, of the floor's chunks: Palace's
// drawer size, without the line awareness or the overlap.
const floorChunk = 800

// mineFloor is what a cold mine could not go below: the same files read,
// cut into floorChunk-character pieces and inserted into one FTS5 table
// (default tokenizer, content stored in the table) in one transaction, by
// this process, into a new database file at dbPath. No ignore rules,
// hashing, metadata, routing, secondary indexes or audit: the ratio of a
// mine to it is what all of those, and the way Palace writes, cost.
// It returns the time from opening the database to the commit and the
// chunks inserted.
func mineFloor(ctx context.Context, dbPath string, files []string) (time.Duration, int, error) {
	start := time.Now()
	db, err := sql.Open("sqlite3", "file:"+filepath.ToSlash(dbPath))
	if err != nil {
		return 0, 0, fmt.Errorf("floor database %s: %w", dbPath, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `CREATE VIRTUAL TABLE chunks USING fts5(path, body)`); err != nil {
		return 0, 0, fmt.Errorf("floor table: %w", err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, fmt.Errorf("floor transaction: %w", err)
	}
	defer tx.Rollback()
	ins, err := tx.PrepareContext(ctx, `INSERT INTO chunks (path, body) VALUES (?, ?)`)
	if err != nil {
		return 0, 0, fmt.Errorf("floor insert: %w", err)
	}
	defer ins.Close()
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return 0, 0, fmt.Errorf("floor: %w", err)
		}
		for text := string(b); text != ""; n++ {
			end, runes := 0, 0
			for end < len(text) && runes < floorChunk {
				_, size := utf8.DecodeRuneInString(text[end:])
				end += size
				runes++
			}
			if _, err := ins.ExecContext(ctx, f, text[:end]); err != nil {
				return 0, 0, fmt.Errorf("floor: insert a chunk of %s: %w", f, err)
			}
			text = text[end:]
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, 0, fmt.Errorf("floor commit: %w", err)
	}
	return time.Since(start), n, nil
}
