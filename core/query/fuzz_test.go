package query_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/cjk"
	"github.com/palace-dev/palace/core/query"
	"github.com/palace-dev/palace/core/store"
)

// FuzzMatch runs every expression Parse builds, without and with the
// Chinese segmenter the palace uses, through SQLite FTS5:
//
//   - on a real palace's SearchFTS with a wing filter (which adds the
//     scope column to the MATCH), and on an in-memory FTS5 table
//     created by the very statement core/store uses (read back from a new
//     palace.db, so the tokenizer settings cannot drift): never an SQLite
//     error;
//   - Parse's result is consistent: All and Any are set exactly when there
//     are terms, and every term is valid, searchable text without a quote;
//   - a query finds text made of its own terms, and, when it has no quote
//     characters, the very text it was typed from (exclusions aside).
//     Invalid UTF-8 is left out of that last check: Parse reads it as
//     spaces, SQLite's tokenizer in its own way.
func FuzzMatch(f *testing.F) {
	for _, q := range hostile {
		f.Add(q)
	}
	for _, q := range []string{`"exact phrase" prefix* -excluded`, "naïve café résumé", "running runs ran",
		"C# .NET F#", "日本語のテキスト 検索", "清华大学的知识图谱", "ǅemal ﬁle Ⅻ ²", "\u200bzero\u200dwidth", "a\u0301b"} {
		f.Add(q)
	}
	ctx := context.Background()
	home := f.TempDir()
	st, err := store.Open(home)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	h := store.ContentHash("seed words")
	if _, err := st.InsertDrawers(ctx, []store.Drawer{{ID: "d1", Wing: "w", Room: "r", Kind: store.KindNote, Source: "s", Content: "seed words", ContentHash: h}}); err != nil {
		f.Fatal(err)
	}
	mem := memoryFTS(f, filepath.Join(home, store.DBName))
	seg := cjk.New(f.TempDir())
	f.Cleanup(func() { seg.Close() })

	f.Fuzz(func(t *testing.T, text string) {
		q, err := query.Parse(text, nil)
		if err != nil {
			t.Fatalf("Parse without a segmenter failed: %v", err)
		}
		checkQuery(t, text, q)
		qs, err := query.Parse(text, seg.SegmentQuery)
		if err != nil {
			t.Fatalf("segment %q: %v", text, err)
		}
		checkQuery(t, text, qs)
		for _, m := range []string{q.All, q.Any, qs.All, qs.Any} {
			if m == "" {
				continue
			}
			// The wing filter adds the scope column to the MATCH (FuzzParse
			// covers the unfiltered search).
			if _, err := st.SearchFTS(ctx, m, store.Filter{Wing: text, Kind: store.KindNote}, 5, nil); err != nil {
				t.Fatalf("query %q built %s: %v", text, m, err)
			}
			if _, err := mem.find(m); err != nil {
				t.Fatalf("query %q built %s: %v", text, m, err)
			}
		}
		if q.All == "" || len(q.Not) > 0 {
			return
		}
		var words []string
		for _, term := range q.Terms {
			words = append(words, term.Text)
		}
		mem.mustFind(t, text, q.All, strings.Join(words, " "))
		if !strings.Contains(text, `"`) && utf8.ValidString(text) {
			mem.mustFind(t, text, q.All, text)
		}
	})
}

// checkQuery asserts Parse's result is consistent.
func checkQuery(t *testing.T, text string, q query.Query) {
	t.Helper()
	if (q.All == "") != (len(q.Terms) == 0) || (q.Any == "") != (len(q.Terms) == 0) {
		t.Fatalf("%q: %d terms but All %q, Any %q", text, len(q.Terms), q.All, q.Any)
	}
	for _, term := range append(append([]query.Term(nil), q.Terms...), q.Not...) {
		if !utf8.ValidString(term.Text) || strings.ContainsRune(term.Text, '"') ||
			strings.IndexFunc(term.Text, unicode.IsControl) >= 0 ||
			strings.IndexFunc(term.Text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
			t.Fatalf("%q: bad term %+v", text, term)
		}
	}
	for _, m := range []string{q.All, q.Any} {
		if !utf8.ValidString(m) {
			t.Fatalf("%q: expression %q is not valid UTF-8", text, m)
		}
	}
}

// memFTS is a one-row FTS5 table in memory, created like the palace's.
type memFTS struct{ db *sql.DB }

// ftsOptions are the external-content options of the palace's table, which
// a standalone table does without.
var ftsOptions = regexp.MustCompile(`(?i)\b(content|content_rowid)\s*=\s*'[^']*'\s*,?`)

func memoryFTS(f *testing.F, dbPath string) memFTS {
	file, err := sql.Open("sqlite3", "file:"+dbPath+"?mode=ro")
	if err != nil {
		f.Fatal(err)
	}
	defer file.Close()
	var create string
	if err := file.QueryRow(`SELECT sql FROM sqlite_master WHERE name = 'drawers_fts'`).Scan(&create); err != nil {
		f.Fatalf("read the palace's FTS5 table: %v", err)
	}
	if !strings.Contains(create, "tokenize") {
		f.Fatalf("the palace's FTS5 table names no tokenizer: %s", create)
	}
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		f.Fatal(err)
	}
	db.SetMaxOpenConns(1) // one in-memory database
	f.Cleanup(func() { db.Close() })
	if _, err := db.Exec(ftsOptions.ReplaceAllString(create, "")); err != nil {
		f.Fatalf("create %s: %v", create, err)
	}
	return memFTS{db}
}

// find runs match on the body column, as SearchFTS does.
func (m memFTS) find(match string) (bool, error) {
	rows, err := m.db.Query(`SELECT rowid FROM drawers_fts WHERE drawers_fts MATCH ?`, "{body} : ("+match+")")
	if err != nil {
		return false, err
	}
	defer rows.Close()
	found := rows.Next()
	return found, rows.Err()
}

// mustFind stores body as the only row and requires match to find it.
func (m memFTS) mustFind(t *testing.T, text, match, body string) {
	t.Helper()
	if _, err := m.db.Exec(`DELETE FROM drawers_fts`); err != nil {
		t.Fatal(err)
	}
	if _, err := m.db.Exec(`INSERT INTO drawers_fts (rowid, body, scope) VALUES (1, ?, 'w')`, body); err != nil {
		t.Fatal(err)
	}
	found, err := m.find(match)
	if err != nil {
		t.Fatalf("query %q built %s: %v", text, match, err)
	}
	if !found {
		t.Fatalf("query %q (%s) does not find %q", text, match, body)
	}
}
