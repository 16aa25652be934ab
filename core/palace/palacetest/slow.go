package palacetest

import (
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/palace-dev/palace/core/store"
)

// SlowSearch makes reading any drawer's text for a search (FTS5's
// highlight and snippet read the content view drawers_search) run a query
// that counts to four billion, so a search of the palace at home stays
// inside SQLite until it is interrupted: what tests of cancellation (MCP's
// notifications/cancelled, the LSP's $/cancelRequest, Ctrl-C) need. The
// returned function restores the view; the test's end restores it too.
// It speaks SQL through the driver core/store registers.
func SlowSearch(tb testing.TB, home string) (restore func()) {
	tb.Helper()
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(home, store.DBName)+"?_busy_timeout=10000")
	if err != nil {
		tb.Fatal(err)
	}
	var orig string
	if err := db.QueryRow(`SELECT sql FROM sqlite_master WHERE type = 'view' AND name = 'drawers_search'`).Scan(&orig); err != nil {
		db.Close()
		tb.Fatal(err)
	}
	exec := func(qs ...string) {
		tb.Helper()
		for _, q := range qs {
			if _, err := db.Exec(q); err != nil {
				tb.Fatalf("%s: %v", q, err)
			}
		}
	}
	exec(`DROP VIEW drawers_search`, `CREATE VIEW drawers_search AS
		SELECT seq, coalesce(index_text, content) || (
			WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 4000000000)
			SELECT substr(max(x), 1, 0) FROM c) AS body,
			'w' || hex(wing) || 'k' || kind AS scope,
			code_symbols AS symbols, code_path AS path, code_parts AS parts
		FROM drawers WHERE deleted_at IS NULL`)
	restored := false
	restore = func() {
		if restored {
			return
		}
		restored = true
		exec(`DROP VIEW drawers_search`, orig)
		db.Close()
	}
	tb.Cleanup(restore)
	return restore
}
