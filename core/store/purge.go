package store

// Purge: erasing a drawer's content for good, unlike DeleteDrawer's soft
// delete, which keeps it readable for the record.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	sqlitevec "github.com/asg017/sqlite-vec-go-bindings/cgo"
)

// ErrNotPurged is an unpurge of a drawer that was never purged.
var ErrNotPurged = errors.New("not purged")

// PurgeDrawer erases a drawer's content: the row keeps its id, wing, room,
// kind, source, line range and times as a tombstone (PurgedAt set, deleted
// too), while its content, index text and metadata are emptied, its
// full-text entry and its vector are removed and overwritten, and the
// write is audited without content. A mined drawer's tombstone keeps its
// content hash, so mining the same chunk of the same source again skips
// it (see replaceDrawers) until UnpurgeDrawer; a note's or diary entry's
// drops it too, since nothing is ever mined again from them.
//
// Old bytes are erased, not only unlinked: the writer zeroes the space
// and pages it frees (secure_delete, see Open), FTS5's secure-delete
// removes the entry from its index segment in place (a drawer forgotten
// earlier left its words in older segments, so then the whole index is
// merged anew), and the WAL is checkpointed and truncated afterwards so
// the file no longer holds the old pages. The truncation is best effort:
// a reader that keeps a transaction open holds old frames until the next
// checkpoint. Space freed by a version of Palace that did not zero it may
// still hold older copies until SQLite reuses it; VACUUM clears it.
//
// It returns when the drawer was purged, and already when that was before
// this call (nothing changes then); an unknown id is ErrNotFound.
func (s *Store) PurgeDrawer(ctx context.Context, id string) (at time.Time, already bool, err error) {
	err = s.audited(ctx, "drawer.purge", func(tx *sql.Tx, rec *auditRec) error {
		rec.IDs = []string{id}
		var seq int64
		var kind string
		var deleted, purged sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT seq, kind, deleted_at, purged_at FROM drawers WHERE id = ?`, id).
			Scan(&seq, &kind, &deleted, &purged)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("drawer %s: %w", id, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("purge drawer %s: %w", id, err)
		}
		if purged.Valid {
			at, _ = time.Parse(timeLayout, purged.String)
			already, rec.Skip = true, true
			return nil
		}
		done, err := secureDelete(ctx, tx)
		if err != nil {
			return fmt.Errorf("purge drawer %s: %w", id, err)
		}
		hash := any("")
		if kind == KindFile || kind == KindConversation {
			hash = nil // keep it: see replaceDrawers
		}
		at = time.Now().UTC()
		now := formatTime(at)
		if _, err := tx.ExecContext(ctx, `UPDATE drawers SET content = '', index_text = NULL, metadata = '{}', code_symbols = NULL, code_path = NULL, code_parts = NULL,
			content_hash = coalesce(?, content_hash), deleted_at = coalesce(deleted_at, ?), purged_at = ?
			WHERE seq = ?`, hash, now, now, seq); err != nil {
			return fmt.Errorf("purge drawer %s: %w", id, err)
		}
		if err := eraseVector(ctx, tx, seq); err != nil {
			return fmt.Errorf("purge drawer %s: %w", id, err)
		}
		if err := eraseProposals(ctx, tx, id); err != nil {
			return fmt.Errorf("purge drawer %s: %w", id, err)
		}
		if deleted.Valid {
			// Forgotten before: its index entry was removed the ordinary
			// way, which leaves the words in older segments until they
			// merge. Merging every segment now drops them.
			if _, err := tx.ExecContext(ctx, `INSERT INTO drawers_fts (drawers_fts) VALUES ('optimize')`); err != nil {
				return fmt.Errorf("purge drawer %s: merge the full-text index: %w", id, err)
			}
		}
		if err := done(); err != nil {
			return fmt.Errorf("purge drawer %s: %w", id, err)
		}
		return nil
	})
	if err != nil || already {
		return at, already, err
	}
	// The purge has committed; what is left is moving its pages from the
	// WAL into the database file and emptying the WAL. A reader holding an
	// old snapshot makes SQLite leave frames behind: that is not an error
	// of the purge, and the next checkpoint finishes the job.
	var busy, frames, done int
	if err := s.w.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &frames, &done); err != nil {
		return at, false, fmt.Errorf("purge drawer %s: committed, but checkpoint: %w", id, err)
	}
	return at, false, nil
}

// secureDelete makes FTS5 remove the index entries that the deletes that
// follow in tx drop from their segment, instead of appending a delete
// marker that leaves the words in place until segments merge. done turns
// it back off, as ordinary writes do not need the extra work; the setting
// is a row of the index's config table, so a rolled back transaction
// undoes it as well.
func secureDelete(ctx context.Context, tx *sql.Tx) (done func() error, err error) {
	const set = `INSERT INTO drawers_fts (drawers_fts, rank) VALUES ('secure-delete', ?)`
	if _, err := tx.ExecContext(ctx, set, 1); err != nil {
		return nil, fmt.Errorf("secure delete: %w", err)
	}
	return func() error {
		if _, err := tx.ExecContext(ctx, set, 1); err != nil {
			return fmt.Errorf("secure delete: %w", err)
		}
		return nil
	}, nil
}

// eraseVector removes the vector of the drawer at seq, if the palace has a
// vector index and the drawer a vector. vec0 deletes a row by clearing its
// slot's validity bit and keeps the numbers, which could be inverted into
// an approximation of the text, so they are overwritten with zeros first.
func eraseVector(ctx context.Context, tx *sql.Tx, seq int64) error {
	var dim string
	err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?
		AND EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'vec_drawers')`, metaVecDim).Scan(&dim)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("vector: %w", err)
	}
	n, err := strconv.Atoi(dim)
	if err != nil || n <= 0 {
		return fmt.Errorf("vector: bad dimension %q", dim)
	}
	zeros, err := sqlitevec.SerializeFloat32(make([]float32, n))
	if err != nil {
		return fmt.Errorf("vector: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE vec_drawers SET embedding = ? WHERE drawer_seq = ?`, zeros, seq); err != nil {
		return fmt.Errorf("vector: overwrite: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM vec_drawers WHERE drawer_seq = ?`, seq); err != nil {
		return fmt.Errorf("vector: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE drawers SET vec_model = NULL WHERE seq = ?`, seq); err != nil {
		return fmt.Errorf("vector: %w", err)
	}
	return nil
}

// UnpurgeDrawer lets the next mine bring a purged mined drawer back: the
// tombstone goes, and the source is marked so the next mine reads it again
// even if it did not change. The content itself is gone from the palace;
// only the source file can give it back. A purged note or diary entry has
// no source to be mined from and is refused; an id that was not purged is
// ErrNotPurged.
func (s *Store) UnpurgeDrawer(ctx context.Context, id string) error {
	return s.audited(ctx, "drawer.unpurge", func(tx *sql.Tx, rec *auditRec) error {
		rec.IDs = []string{id}
		var wing, kind, source string
		var purged sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT wing, kind, source, purged_at FROM drawers WHERE id = ?`, id).
			Scan(&wing, &kind, &source, &purged)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("drawer %s: %w", id, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("unpurge drawer %s: %w", id, err)
		}
		if !purged.Valid {
			return fmt.Errorf("drawer %s: %w", id, ErrNotPurged)
		}
		if kind != KindFile && kind != KindConversation {
			return fmt.Errorf("unpurge drawer %s: a %s has no source to mine it from again", id, kind)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM drawers WHERE id = ?`, id); err != nil {
			return fmt.Errorf("unpurge drawer %s: %w", id, err)
		}
		// A zero mtime and hash match no file, and no resume point, so the
		// next mine reads the whole source and writes its chunks again.
		if _, err := tx.ExecContext(ctx, `UPDATE sources SET mtime = 0, content_hash = '', resume = '' WHERE wing = ? AND path = ?`,
			wing, source); err != nil {
			return fmt.Errorf("unpurge drawer %s: %w", id, err)
		}
		return nil
	})
}
