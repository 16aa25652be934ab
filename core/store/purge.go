package store

// Purge: erasing a drawer's content for good, unlike DeleteDrawer's soft
// delete, which keeps it readable for the record.

import (
	"context"
	"database/sql"
	"encoding/json"
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
// drops it too, since nothing is ever mined again from them. The copies
// of its text outside its row go as well: its knowledge-graph proposals
// (eraseProposals) and, for a conversation drawer, its source's resume
// record, the context the next exchange is indexed with, and the
// conversation's title (eraseConversationCopies).
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
		var wing, kind, source, body, metadata string
		var deleted, purged sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT seq, wing, kind, source, coalesce(index_text, content), metadata, deleted_at, purged_at
			FROM drawers WHERE id = ?`, id).
			Scan(&seq, &wing, &kind, &source, &body, &metadata, &deleted, &purged)
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
		if kind == KindConversation {
			if err := eraseConversationCopies(ctx, tx, seq, wing, source, body, metadata); err != nil {
				return fmt.Errorf("purge drawer %s: %w", id, err)
			}
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

// eraseConversationCopies removes the copies of a purged conversation
// drawer's text that live outside its row (seq; wing, source, its index
// body and metadata as they were before the purge):
//
//   - the source's resume record (core/mine's checkpoint), which keeps the
//     routing head and the index text of the exchanges mined so far and
//     the conversation's title: it is dropped, so the next mine of a grown
//     log reads it whole again, and the tombstone's content hash still
//     keeps the purged chunk out;
//   - the index text of the exchange after it, which ends with the purged
//     exchange's own index text as context (see core/mine's
//     exchangeDrawers): that context is cut off, so searching the purged
//     words finds nothing;
//   - the metadata every drawer of the conversation carries that is text
//     written from its messages, so may quote the purged exchange: the
//     title (Claude Code's summary line, ChatGPT's generated title) and
//     Claude.ai's summary.
//
// The full-text entries of the drawers it changes are replaced through the
// update trigger, under the purge's secure-delete.
func eraseConversationCopies(ctx context.Context, tx *sql.Tx, seq int64, wing, source, body, metadata string) error {
	if _, err := tx.ExecContext(ctx, `UPDATE sources SET resume = '' WHERE wing = ? AND path = ? AND resume != ''`, wing, source); err != nil {
		return fmt.Errorf("drop the resume point of %s: %w", source, err)
	}
	var meta struct {
		Conversation string `json:"conversation"`
	}
	// core/mine writes a conversation drawer's metadata as a JSON object;
	// one that is not (the metadata check names it) matches the drawers
	// without a conversation key.
	_ = json.Unmarshal([]byte(metadata), &meta)
	const same = `wing = ? AND source = ? AND kind = 'conversation' AND purged_at IS NULL AND seq != ?
		AND CASE WHEN json_valid(metadata) THEN coalesce(json_extract(metadata, '$.conversation'), '') ELSE '' END = ?`
	rows, err := tx.QueryContext(ctx, `SELECT seq, index_text FROM drawers WHERE index_text IS NOT NULL AND `+same,
		wing, source, seq, meta.Conversation)
	if err != nil {
		return fmt.Errorf("drawers of conversation %s: %w", source, err)
	}
	cuts := map[int64]string{}
	for rows.Next() {
		var at int64
		var index string
		if err := rows.Scan(&at, &index); err != nil {
			rows.Close()
			return fmt.Errorf("drawers of conversation %s: %w", source, err)
		}
		if own, ok := cutContext(index, body); ok {
			cuts[at] = own
		}
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("drawers of conversation %s: %w", source, err)
	}
	for at, own := range cuts {
		if _, err := tx.ExecContext(ctx, `UPDATE drawers SET index_text = ? WHERE seq = ?`, own, at); err != nil {
			return fmt.Errorf("cut the purged context from drawer %d: %w", at, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE drawers SET metadata = json_remove(metadata, '$.title', '$.summary')
		WHERE `+same+` AND CASE WHEN json_valid(metadata) THEN json_type(metadata, '$.title') IS NOT NULL OR json_type(metadata, '$.summary') IS NOT NULL END`,
		wing, source, seq, meta.Conversation); err != nil {
		return fmt.Errorf("drop the title of conversation %s: %w", source, err)
	}
	return nil
}

// cutContext returns index without the purged exchange's own index text
// at its end, and whether it ended with it. A conversation drawer's index
// text is its own exchange's, then "\n" and the previous exchange's own;
// purged, the purged drawer's index body, starts with its own part and
// goes on with "\n" and its context, or ends. The own part is the longest
// line-bounded start of purged that index ends with, after a "\n".
func cutContext(index, purged string) (string, bool) {
	n := len(index)
	for k := min(len(purged), n-1); k > 0; k-- {
		// Cheap tests first: most candidates fail at one of these bytes.
		if (k < len(purged) && purged[k] != '\n') || index[n-k-1] != '\n' || index[n-1] != purged[k-1] || index[n-k] != purged[0] {
			continue
		}
		if index[n-k:] == purged[:k] {
			return index[:n-k-1], true
		}
	}
	return index, false
}
