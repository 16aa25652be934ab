package store

import (
	"context"
	"database/sql"
	"fmt"
)

// SkippedFile is a file a mine read and did not keep because of what it
// holds (binary, not UTF-8), as it was when read. It is not the user's
// data: a record lets the next mine skip the file without reading it
// again, and losing one costs only that read.
type SkippedFile struct {
	Path   string
	Reason string
	Detail string
	Mtime  int64 // nanoseconds
	Size   int64
}

// SkippedFiles returns the skipped files of a wing whose path starts with
// prefix (compared as bytes, as Sources does), keyed by path.
func (s *Store) SkippedFiles(ctx context.Context, wing, prefix string) (map[string]SkippedFile, error) {
	return s.skipped(ctx, `SELECT path, reason, detail, mtime, size FROM skipped_files
		WHERE wing = ? AND substr(CAST(path AS BLOB), 1, ?) = CAST(? AS BLOB)`, wing, len(prefix), prefix)
}

// SkippedFilesAt returns the skipped files of a wing at exactly these
// paths, keyed by path.
func (s *Store) SkippedFilesAt(ctx context.Context, wing string, paths []string) (map[string]SkippedFile, error) {
	out := map[string]SkippedFile{}
	for _, p := range paths {
		got, err := s.skipped(ctx, `SELECT path, reason, detail, mtime, size FROM skipped_files WHERE wing = ? AND path = ?`, wing, p)
		if err != nil {
			return nil, err
		}
		for k, v := range got {
			out[k] = v
		}
	}
	return out, nil
}

func (s *Store) skipped(ctx context.Context, q string, args ...any) (map[string]SkippedFile, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list skipped files: %w", err)
	}
	defer rows.Close()
	out := map[string]SkippedFile{}
	for rows.Next() {
		var f SkippedFile
		if err := rows.Scan(&f.Path, &f.Reason, &f.Detail, &f.Mtime, &f.Size); err != nil {
			return nil, fmt.Errorf("list skipped files: %w", err)
		}
		out[f.Path] = f
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list skipped files: %w", err)
	}
	return out, nil
}

// RecordSkippedFiles stores put (replacing what a path had) and forgets
// drop, in one transaction; with both empty it writes nothing. It is not
// audited: the records are a mine's memory of what it need not read, not
// a change to what the palace holds.
func (s *Store) RecordSkippedFiles(ctx context.Context, wing string, put []SkippedFile, drop []string) error {
	if len(put) == 0 && len(drop) == 0 {
		return nil
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		for _, p := range drop {
			if _, err := tx.ExecContext(ctx, `DELETE FROM skipped_files WHERE wing = ? AND path = ?`, wing, p); err != nil {
				return fmt.Errorf("forget skipped file %s: %w", p, err)
			}
		}
		for _, f := range put {
			if _, err := tx.ExecContext(ctx, `INSERT INTO skipped_files (wing, path, reason, detail, mtime, size) VALUES (?, ?, ?, ?, ?, ?)
				ON CONFLICT (wing, path) DO UPDATE SET reason = excluded.reason, detail = excluded.detail, mtime = excluded.mtime, size = excluded.size`,
				wing, f.Path, f.Reason, f.Detail, f.Mtime, f.Size); err != nil {
				return fmt.Errorf("record skipped file %s: %w", f.Path, err)
			}
		}
		return nil
	})
}
