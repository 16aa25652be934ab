package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Source is a mined file as last seen, used to skip unchanged files.
type Source struct {
	Wing        string
	Path        string
	Kind        string
	ContentHash string
	Mtime       int64 // nanoseconds
	Size        int64
	Drawers     int
	MinedAt     time.Time
	// Redacted says the drawers were mined with secrets redacted.
	Redacted bool
	// Resume is where the next mine of an append-only session log goes on
	// (core/mine's JSON), "" when it reads the file whole. For such a log
	// ContentHash covers only the part it re-reads, and Drawers counts all.
	Resume string
}

// SourceUpdate replaces everything Palace holds for one source: its drawers
// of that kind and its source row. With Touch set only the row's size and
// mtime change (the content hash matched, nothing to re-index).
type SourceUpdate struct {
	Source  Source
	Drawers []Drawer
	Touch   bool
	// Append keeps the source's drawers except those in Drop, and adds
	// Drawers: the update of a log mined on from where it was left, whose
	// earlier drawers are final. Source.Drawers is then the total.
	Append bool
	Drop   []string
	// CodeLater, when set, derives the code index of each drawer of a
	// replacement that has none as the drawer is inserted. A re-mine of a
	// changed file cuts most of its drawers again as they were, and those
	// are kept, not inserted: deriving their code index anyway was about
	// 2 ms of an editor's save of a 2,000-line file.
	CodeLater func(Drawer) CodeIndex
}

// BatchResult counts what a batch changed.
type BatchResult struct {
	Added   int
	Removed int
}

// Sources returns the sources of a wing whose path starts with prefix,
// keyed by path. Paths compare as bytes: SQLite's substr counts characters
// in text, and a path need not even be valid UTF-8.
func (s *Store) Sources(ctx context.Context, wing, prefix string) (map[string]Source, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT wing, path, kind, content_hash, mtime, size, drawers, mined_at, redacted, resume
		FROM sources WHERE wing = ? AND substr(CAST(path AS BLOB), 1, ?) = CAST(? AS BLOB)`, wing, len(prefix), prefix)
	if err != nil {
		return nil, fmt.Errorf("list sources of %s: %w", wing, err)
	}
	defer rows.Close()
	out := map[string]Source{}
	for rows.Next() {
		var src Source
		var mined string
		if err := rows.Scan(&src.Wing, &src.Path, &src.Kind, &src.ContentHash, &src.Mtime, &src.Size, &src.Drawers, &mined, &src.Redacted, &src.Resume); err != nil {
			return nil, fmt.Errorf("list sources of %s: %w", wing, err)
		}
		src.MinedAt, _ = time.Parse(timeLayout, mined)
		out[src.Path] = src
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list sources of %s: %w", wing, err)
	}
	return out, nil
}

// SourceDrawerIDs are the ids of the drawers mined from path in wing that
// are not purged: those a re-mine of the file keeps if it cuts them again.
func (s *Store) SourceDrawerIDs(ctx context.Context, wing, path string) (map[string]bool, error) {
	ids, err := txStrings(ctx, s.r, `SELECT id FROM drawers WHERE wing = ? AND source = ? AND purged_at IS NULL`, wing, path)
	if err != nil {
		return nil, fmt.Errorf("drawers of %s: %w", path, err)
	}
	return ids, nil
}

// SourcesAt returns the sources of a wing at exactly these paths, keyed by
// path; a path Palace has no source for is absent. It reads one row per
// path, whatever the size of the wing (an editor's save looks up its file).
func (s *Store) SourcesAt(ctx context.Context, wing string, paths []string) (map[string]Source, error) {
	out := map[string]Source{}
	for _, p := range paths {
		var src Source
		var mined string
		err := s.r.QueryRowContext(ctx, `SELECT wing, path, kind, content_hash, mtime, size, drawers, mined_at, redacted, resume
			FROM sources WHERE wing = ? AND path = ?`, wing, p).Scan(&src.Wing, &src.Path, &src.Kind, &src.ContentHash,
			&src.Mtime, &src.Size, &src.Drawers, &mined, &src.Redacted, &src.Resume)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("source %s of %s: %w", p, wing, err)
		}
		src.MinedAt, _ = time.Parse(timeLayout, mined)
		out[src.Path] = src
	}
	return out, nil
}

// ApplySources writes a batch of source updates in one transaction: for each,
// the old drawers of that source and kind go and the new ones come in with
// the source row, so a crash leaves every file either wholly old or wholly
// new, and the next mine redoes only what did not commit.
func (s *Store) ApplySources(ctx context.Context, batch []SourceUpdate) (BatchResult, error) {
	var r BatchResult
	err := s.audited(ctx, "source.replace", func(tx *sql.Tx, rec *auditRec) error {
		r = BatchResult{}
		ins, err := prepareInsert(ctx, tx)
		if err != nil {
			return err
		}
		defer ins.Close()
		stage, err := s.prepareStage(ctx, tx)
		if err != nil {
			return err
		}
		defer stage.Close()
		now := formatTime(time.Now())
		// The short statements run under a context that is never
		// cancelled: go-sqlite3 runs a statement whose context can be on
		// a goroutine of its own and waits for it, so each of a batch's
		// thousands of statements cost the writer's thread a sleep and a
		// wake-up (Go's src: about 3 s of the process's CPU in futex
		// calls). The long one, the staged insert, keeps ctx, and a
		// cancelled ctx still rolls the transaction back between two
		// short ones (database/sql's Tx watches it).
		short := context.WithoutCancel(ctx)
		// What each source's update changed; a replacement's inserts are
		// counted once the stage is flushed.
		type change struct {
			src            Source
			removed, added int
			staged         bool
		}
		var changes []change
		for _, u := range batch {
			src := u.Source
			if u.Touch {
				if _, err := tx.ExecContext(short, `UPDATE sources SET mtime = ?, size = ?, mined_at = ? WHERE wing = ? AND path = ?`,
					src.Mtime, src.Size, now, src.Wing, src.Path); err != nil {
					return fmt.Errorf("update source %s: %w", src.Path, err)
				}
				continue
			}
			count := len(u.Drawers)
			c := change{src: src}
			if u.Append {
				// Its inserts go one by one, after what is staged.
				if err := stage.flush(ctx); err != nil {
					return err
				}
				c.removed, c.added, err = appendDrawers(ctx, tx, ins, src, u.Drawers, u.Drop)
				count = src.Drawers
			} else {
				c.staged = true
				c.removed, err = replaceDrawers(ctx, tx, stage, src, u.Drawers, u.CodeLater)
			}
			if err != nil {
				return err
			}
			changes = append(changes, c)
			if _, err := tx.ExecContext(short, `INSERT INTO sources (wing, path, kind, content_hash, mtime, size, drawers, mined_at, redacted, resume)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
				ON CONFLICT (wing, path) DO UPDATE SET kind = excluded.kind, content_hash = excluded.content_hash,
					mtime = excluded.mtime, size = excluded.size, drawers = excluded.drawers, mined_at = excluded.mined_at,
					redacted = excluded.redacted, resume = excluded.resume`,
				src.Wing, src.Path, src.Kind, src.ContentHash, src.Mtime, src.Size, count, now, src.Redacted, src.Resume); err != nil {
				return fmt.Errorf("record source %s: %w", src.Path, err)
			}
		}
		if err := stage.flush(ctx); err != nil {
			return err
		}
		for _, c := range changes {
			if c.staged {
				c.added = stage.by[c.src.Path]
				delete(stage.by, c.src.Path) // counted once
			}
			if c.removed+c.added > 0 {
				rec.IDs = append(rec.IDs, c.src.Path)
				rec.Size += c.src.Size
				rec.Hash = c.src.ContentHash
			}
			r.Removed += c.removed
			r.Added += c.added
		}
		rec.Skip = len(rec.IDs) == 0 // only mtimes moved: no content changed
		if len(rec.IDs) > 1 {
			rec.Hash = "" // one hash per line: only for a single source
		}
		return nil
	})
	return r, err
}

// replaceDrawers makes a source's drawers of its kind exactly ds. Drawers
// whose id survives (same position, same content) are left alone, so an
// export that grew only adds its new exchanges and unchanged chunks keep
// their rows (and anything derived from them).
//
// Purged drawers of the source are tombstones that stay (see PurgeDrawer),
// and a drawer of ds with the content hash of one of them is not written:
// the user erased that chunk, and mining the file again must not bring it
// back.
func replaceDrawers(ctx context.Context, tx *sql.Tx, stage *stagedDrawers, src Source, ds []Drawer, codeLater func(Drawer) CodeIndex) (removed int, err error) {
	// The drawers of a source staged earlier in the batch are its drawers
	// now: they must be in the table to be read as such.
	if stage.sources[src.Path] {
		if err := stage.flush(ctx); err != nil {
			return 0, err
		}
	}
	short := context.WithoutCancel(ctx) // see ApplySources
	old, purged, err := sourceDrawers(short, tx, src)
	if err != nil {
		return 0, fmt.Errorf("replace drawers of %s: %w", src.Path, err)
	}
	keep := map[string]bool{}
	for _, d := range ds {
		keep[d.ID] = true
		if old[d.ID] || purged[d.ContentHash] {
			continue
		}
		if codeLater != nil && d.Code == (CodeIndex{}) {
			d.Code = codeLater(d)
		}
		if err := stage.add(ctx, d); err != nil {
			return 0, err
		}
	}
	for id := range old {
		if keep[id] {
			continue
		}
		// The new drawers go in before the old ones leave, as they did
		// when each was inserted at once.
		if err := stage.flush(ctx); err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(short, `DELETE FROM drawers WHERE id = ?`, id); err != nil {
			return 0, fmt.Errorf("replace drawers of %s: %w", src.Path, err)
		}
		removed++
	}
	return removed, nil
}

// sourceDrawers reads, in one query (a cold mine makes one per file), the
// ids of a source's live drawers and the content hashes of its purged ones,
// of both mined kinds: a file can turn from project text into a chat export.
func sourceDrawers(ctx context.Context, tx *sql.Tx, src Source) (live, purged map[string]bool, err error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, content_hash, purged_at IS NOT NULL FROM drawers
		WHERE wing = ? AND source = ? AND kind IN ('file', 'conversation')`, src.Wing, src.Path)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	live, purged = map[string]bool{}, map[string]bool{}
	for rows.Next() {
		var id, hash string
		var gone bool
		if err := rows.Scan(&id, &hash, &gone); err != nil {
			return nil, nil, err
		}
		if gone {
			purged[hash] = true
		} else {
			live[id] = true
		}
	}
	return live, purged, rows.Err()
}

// appendDrawers adds ds to a source's drawers and removes those of drop
// that ds does not hold again, touching no other drawer of the source: its
// cost is that of ds and drop, not of the source. Purged chunks stay
// purged, as in replaceDrawers.
func appendDrawers(ctx context.Context, tx *sql.Tx, ins *drawerInsert, src Source, ds []Drawer, drop []string) (removed, added int, err error) {
	purged, err := txStrings(ctx, tx, `SELECT content_hash FROM drawers
		WHERE wing = ? AND source = ? AND purged_at IS NOT NULL AND kind IN ('file', 'conversation')`, src.Wing, src.Path)
	if err != nil {
		return 0, 0, fmt.Errorf("append drawers of %s: %w", src.Path, err)
	}
	keep := map[string]bool{}
	for _, d := range ds {
		keep[d.ID] = true
		if purged[d.ContentHash] {
			continue
		}
		n, err := insertDrawer(ctx, ins, d) // an id already there stays as it is
		if err != nil {
			return 0, 0, err
		}
		added += n
	}
	for _, id := range drop {
		if keep[id] {
			continue
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM drawers WHERE id = ? AND wing = ? AND source = ? AND purged_at IS NULL`, id, src.Wing, src.Path)
		if err != nil {
			return 0, 0, fmt.Errorf("append drawers of %s: %w", src.Path, err)
		}
		n, _ := res.RowsAffected()
		removed += int(n)
	}
	return removed, added, nil
}

// PruneSources removes sources (and their drawers) that are gone from disk
// or newly ignored. It returns the number of drawers removed.
func (s *Store) PruneSources(ctx context.Context, wing string, paths []string) (int, error) {
	if len(paths) == 0 {
		return 0, nil // no write transaction: an editor's save prunes nothing nearly always
	}
	removed := 0
	err := s.audited(ctx, "source.prune", func(tx *sql.Tx, rec *auditRec) error {
		removed = 0
		rec.IDs = paths
		for _, p := range paths {
			// Tombstones of purged drawers stay: the file may come back.
			res, err := tx.ExecContext(ctx, `DELETE FROM drawers
				WHERE wing = ? AND source = ? AND kind IN ('file', 'conversation') AND purged_at IS NULL`, wing, p)
			if err != nil {
				return fmt.Errorf("prune %s: %w", p, err)
			}
			n, _ := res.RowsAffected()
			removed += int(n)
			if _, err := tx.ExecContext(ctx, `DELETE FROM sources WHERE wing = ? AND path = ?`, wing, p); err != nil {
				return fmt.Errorf("prune %s: %w", p, err)
			}
		}
		return nil
	})
	return removed, err
}

// txStrings runs a query of one text column in tx (a transaction, or the
// read pool) and returns its values as a set.
func txStrings(ctx context.Context, tx querier, q string, args ...any) (map[string]bool, error) {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out[v] = true
	}
	return out, rows.Err()
}
