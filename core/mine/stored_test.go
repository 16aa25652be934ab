package mine

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

var update = flag.Bool("update", false, "rewrite testdata/stored.want.tsv from this build's mine")

// storedQueries are searched after the mine of the fixture tree; their
// hits are part of what a mine must keep.
var storedQueries = []string{
	"parse the config file", "Parser", "handle request", "error handling",
	"test", "知识图谱", "what did Alice decide about the database", "deploy schedule",
	"lock file dependencies", "password", "Matrix multiply", "trait implementation",
}

// A mine's speed work must not change what it stores (the mining-speed
// issue's rule). The fixture tree (code in nine languages from
// core/code/testdata, chat exports from core/convo/testdata, and the files
// written below: prose, Chinese, CRLF lines, a test, a lock file, a
// secret, a binary and a non-UTF-8 file) is mined as `palace mine` does,
// and every drawer (id, wing, room, kind, source, line range, content
// hash, index text, metadata and code index) and the first hits of
// storedQueries are compared with testdata/stored.want.tsv. A change
// that means to store something else rewrites it with
// `go test ./core/mine -run TestMineStoresTheSame -update`, and the diff
// shows what changed.
func TestMineStoresTheSame(t *testing.T) {
	root := t.TempDir()
	src := filepath.Join(root, "proj")
	for _, lang := range []string{"c", "cpp", "go", "java", "js", "py", "rb", "rs", "ts"} {
		copyFile(t, filepath.Join("..", "code", "testdata", "sample."+lang), filepath.Join(src, "src", "sample."+lang))
	}
	copyFile(t, filepath.Join("..", "convo", "testdata", "chatgpt", "conversations.json"), filepath.Join(src, "chats", "conversations.json"))
	for rel, content := range map[string]string{
		"README.md":                "# Proj\n\nWe decided to parse the config file once at start-up.\n\nDeploy schedule: Fridays are frozen.\n",
		"docs/知识.md":               "知识图谱记录了项目的决定。\n我们选择了 SQLite 作为数据库。\n",
		"docs/crlf.txt":            "first line\r\nsecond line about error handling\r\n",
		"src/sample_test.go":       "package sample\n\nimport \"testing\"\n\nfunc TestParser(t *testing.T) {\n\tif NewParser() == nil {\n\t\tt.Fatal(\"no parser\")\n\t}\n}\n",
		"package-lock.json":        "{\n  \"name\": \"proj\",\n  \"lockfileVersion\": 3,\n  \"packages\": {\"\": {\"dependencies\": {\"left-pad\": \"1.3.0\"}}}\n}\n",
		"config/settings.env":      "DB_HOST=localhost\nDB_PASSWORD=hunter2-correct-horse-battery\nAWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\n",
		"assets/logo.bin":          "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00",
		"docs/latin1.txt":          "caf\xe9 cr\xe8me, the database is fine\n",
		"notes/2024-05-01-sync.md": "Alice decided the database stays on SQLite until the team palace lands.\n",
	} {
		write(t, src, rel, content)
	}
	p := palacetest.OpenPalace(t)
	ctx := context.Background()
	if _, err := Run(ctx, p, src, Options{Wing: "golden"}); err != nil {
		t.Fatal(err)
	}

	var b bytes.Buffer
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(p.Store.Home(), "palace.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT id, wing, room, kind, source, line_start, line_end, content_hash,
		coalesce(index_text, ''), metadata, coalesce(code_symbols, ''), coalesce(code_path, ''), coalesce(code_parts, ''),
		deleted_at IS NULL FROM drawers ORDER BY source, line_start, content_hash`)
	if err != nil {
		t.Fatal(err)
	}
	stable := map[string]string{} // id to stableID
	for rows.Next() {
		var id, wing, room, kind, source, hash, index, meta, symbols, path, parts string
		var from, to int
		var live bool
		if err := rows.Scan(&id, &wing, &room, &kind, &source, &from, &to, &hash, &index, &meta, &symbols, &path, &parts, &live); err != nil {
			t.Fatal(err)
		}
		rel, err := filepath.Rel(src, source)
		if err != nil {
			t.Fatal(err)
		}
		stable[id] = stableID(t, id, wing, source, rel, meta, hash)
		fmt.Fprintf(&b, "drawer\t%s\t%s\t%s\t%s\t%s\t%d-%d\t%s\tindex %s\t%s\t%s\t%s\t%s\tlive %v\n", stable[id], wing, room, kind,
			filepath.ToSlash(rel), from, to, hash[:16], digest(index), meta, strings.ReplaceAll(symbols, "\n", " "), path, digest(parts), live)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	for _, q := range storedQueries {
		res, err := search.Run(ctx, p, search.Request{Query: q, Limit: 5, Mode: search.ModeLexical})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, h := range res.Hits {
			ids = append(ids, stable[h.ID])
		}
		fmt.Fprintf(&b, "search\t%s\t%s\n", q, strings.Join(ids, " "))
	}

	want := filepath.Join("testdata", "stored.want.tsv")
	if *update {
		if err := os.WriteFile(want, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exp, err := os.ReadFile(want)
	if err != nil {
		t.Fatalf("%v (write it with -update)", err)
	}
	if got := b.String(); got != string(exp) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(exp), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			g, w := "", ""
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("the mine stores something else than %s (line %d; rerun with -update if it should):\ngot  %s\nwant %s", want, i+1, g, w)
			}
		}
	}
}

// stableID is id as it would be for the source's path relative to the
// fixture tree, so the want file does not hold the temporary folder's
// name: the position the id was made with is found, and the id made again
// with that position and the relative path (a conversation's source
// carries its key after '#', as mining gives it).
func stableID(t *testing.T, id, wing, source, rel, meta, hash string) string {
	t.Helper()
	var m struct {
		Conversation string `json:"conversation"`
	}
	json.Unmarshal([]byte(meta), &m)
	for _, suffix := range []string{"", "#" + m.Conversation} {
		for pos := range 10000 {
			if store.DrawerID(wing, source+suffix, pos, hash) == id {
				return store.DrawerID(wing, filepath.ToSlash(rel)+suffix, pos, hash)
			}
		}
	}
	t.Fatalf("drawer %s of %s is not DrawerID(wing, source, position, hash) for any position", id, rel)
	return ""
}

// digest is a short hash of s, "" for "": index texts and code parts are
// long, and the rows name what they are derived from.
func digest(s string) string {
	if s == "" {
		return ""
	}
	h := sha256.Sum256([]byte(s))
	return fmt.Sprintf("%x", h[:8])
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
