package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkWriterProfile replays what a cold mine wrote into a fresh
// palace, batch by batch as core/mine hands them to ApplySources, once
// as the store writes and once per variant that leaves one cost out, so
// the difference is what that cost takes of the writer's time. The
// drawers come from a palace a mine made (PALACE_PROFILE_FROM, its home):
//
//	bin/palace --home /tmp/h mine "$(go env GOROOT)/src" --no-vectors
//	PALACE_PROFILE_FROM=/tmp/h go test -run '^$' -bench WriterProfile -benchtime 1x ./core/store
//
// PALACE_PROFILE_ONLY (comma-separated) runs only the variants named.
func BenchmarkWriterProfile(b *testing.B) {
	from := os.Getenv("PALACE_PROFILE_FROM")
	if from == "" {
		b.Skip("set PALACE_PROFILE_FROM to the home of a mined palace")
	}
	batches := loadReplay(b, filepath.Join(from, DBName))
	variants := []struct {
		name  string
		setup []string
		// after runs after each batch (perBatch) or once after all.
		after    string
		perBatch bool
	}{
		{name: "as-is"},
		{name: "no-fts-triggers", setup: []string{`DROP TRIGGER drawers_ai`}},
		{name: "no-secondary-indexes", setup: []string{`DROP INDEX drawers_wing_room`, `DROP INDEX drawers_occurred`,
			`DROP INDEX drawers_vec_pending`, `DROP INDEX drawers_purged`, `DROP INDEX drawers_live_vec`, `DROP INDEX drawers_facts_unread`}},
		{name: "no-team-triggers", setup: []string{`DROP TRIGGER team_drawer_ai`}},
		{name: "secure-delete-off", setup: []string{`PRAGMA secure_delete = 0`}},
		{name: "no-autocheckpoint", setup: []string{`PRAGMA wal_autocheckpoint = 0`}},
		{name: "autocheckpoint-4000", setup: []string{`PRAGMA wal_autocheckpoint = 4000`}},
		{name: "cache-64MiB", setup: []string{`PRAGMA cache_size = -65536`}},
		{name: "fts-rebuild-at-end", setup: []string{`DROP TRIGGER drawers_ai`}, after: `INSERT INTO drawers_fts (drawers_fts) VALUES ('rebuild')`},
		{name: "fts-insert-select-per-batch", setup: []string{`DROP TRIGGER drawers_ai`}, perBatch: true,
			after: `INSERT INTO drawers_fts (rowid, body, scope, symbols, path, parts)
				SELECT seq, body, scope, symbols, path, parts FROM drawers_search WHERE seq > ?`},
		{name: "fts-insert-select-at-end", setup: []string{`DROP TRIGGER drawers_ai`},
			after: `INSERT INTO drawers_fts (rowid, body, scope, symbols, path, parts)
				SELECT seq, body, scope, symbols, path, parts FROM drawers_search`},
		{name: "no-fts-no-indexes", setup: []string{`DROP TRIGGER drawers_ai`, `DROP INDEX drawers_wing_room`, `DROP INDEX drawers_occurred`,
			`DROP INDEX drawers_vec_pending`, `DROP INDEX drawers_purged`, `DROP INDEX drawers_live_vec`, `DROP INDEX drawers_facts_unread`}},
	}
	only := map[string]bool{}
	for _, v := range strings.Split(os.Getenv("PALACE_PROFILE_ONLY"), ",") {
		if v != "" {
			only[v] = true
		}
	}
	ctx := context.Background()
	for _, v := range variants {
		if len(only) > 0 && !only[v.name] {
			continue
		}
		b.Run(v.name, func(b *testing.B) {
			for range b.N {
				s, err := Open(b.TempDir())
				if err != nil {
					b.Fatal(err)
				}
				for _, q := range v.setup {
					if _, err := s.w.ExecContext(ctx, q); err != nil {
						b.Fatal(q, err)
					}
				}
				t := time.Now()
				for _, batch := range batches {
					var mark int64
					if err := s.w.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM drawers`).Scan(&mark); err != nil {
						b.Fatal(err)
					}
					if _, err := s.ApplySources(ctx, batch); err != nil {
						b.Fatal(err)
					}
					if v.perBatch {
						if _, err := s.w.ExecContext(ctx, v.after, mark); err != nil {
							b.Fatal(err)
						}
					}
				}
				took := time.Since(t)
				if v.after != "" && !v.perBatch {
					t := time.Now()
					if _, err := s.w.ExecContext(ctx, v.after); err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(time.Since(t).Seconds(), "after_s")
					took += time.Since(t)
				}
				b.ReportMetric(took.Seconds(), "write_s")
				if fi, err := os.Stat(s.Path()); err == nil {
					b.ReportMetric(float64(fi.Size())/1e6, "db_MB")
				}
				s.Close()
			}
		})
	}
}

// loadReplay reads a mined palace's file drawers and sources back as the
// batches a mine of them writes: sources in path order, a batch closed
// once it holds 2,000 drawers and source rows (core/mine's batchDrawers).
func loadReplay(b *testing.B, path string) [][]SourceUpdate {
	db, err := sql.Open("sqlite3", readOnlyDSN(path, false))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	bySource := map[string][]Drawer{}
	rows, err := db.QueryContext(ctx, `SELECT `+drawerColumns("")+`, coalesce(code_symbols, ''), coalesce(code_path, ''), coalesce(code_parts, '')
		FROM drawers WHERE kind = 'file' ORDER BY seq`)
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		var d Drawer
		var created string
		var deleted, purged sql.NullString
		var occurred, occurredEnd string
		if err := rows.Scan(&d.ID, &d.Wing, &d.Room, &d.Kind, &d.Source, &d.LineStart, &d.LineEnd, &d.Content,
			&d.IndexText, &d.ContentHash, &created, &d.SourceMtime, &d.Importance, &deleted, &d.Metadata,
			&occurred, &occurredEnd, &purged, &d.Code.Symbols, &d.Code.Path, &d.Code.Parts); err != nil {
			b.Fatal(err)
		}
		d.CreatedAt, _ = time.Parse(timeLayout, created)
		d.OccurredAt, _ = time.Parse(timeLayout, occurred)
		bySource[d.Source] = append(bySource[d.Source], d)
	}
	rows.Close()
	srcRows, err := db.QueryContext(ctx, `SELECT wing, path, kind, content_hash, mtime, size, redacted FROM sources ORDER BY path`)
	if err != nil {
		b.Fatal(err)
	}
	var out [][]SourceUpdate
	var cur []SourceUpdate
	n := 0
	for srcRows.Next() {
		var src Source
		if err := srcRows.Scan(&src.Wing, &src.Path, &src.Kind, &src.ContentHash, &src.Mtime, &src.Size, &src.Redacted); err != nil {
			b.Fatal(err)
		}
		ds := bySource[src.Path]
		cur = append(cur, SourceUpdate{Source: src, Drawers: ds})
		n += len(ds) + 1
		if n >= 2000 {
			out, cur, n = append(out, cur), nil, 0
		}
	}
	srcRows.Close()
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}
