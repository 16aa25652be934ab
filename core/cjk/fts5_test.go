package cjk_test

import (
	"database/sql"
	"slices"
	"strings"
	"testing"

	_ "github.com/mattn/go-sqlite3"

	"github.com/palace-dev/palace/core/cjk"
)

// TestFTS5EndToEnd checks the contract with SQLite itself: segmented text in
// a unicode61 FTS5 column, queried with the SegmentQuery words quoted and
// ANDed, finds Chinese words, sub-words and mixed Chinese/English queries.
// It needs the sqlite_fts5 build tag (GOFLAGS="-tags=sqlite_fts5").
func TestFTS5EndToEnd(t *testing.T) {
	db, err := sql.Open("sqlite3", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1) // one in-memory database
	if _, err := db.Exec(`CREATE VIRTUAL TABLE d USING fts5(body, tokenize='unicode61')`); err != nil {
		if strings.Contains(err.Error(), "no such module") {
			t.Skip("SQLite built without FTS5; use -tags=sqlite_fts5")
		}
		t.Fatal(err)
	}
	seg := cjk.New(t.TempDir())
	defer seg.Close()

	docs := []string{
		1: "我来到北京清华大学",
		2: "用SQLite实现知识图谱",
		3: "我们需要一个认证中间件来校验令牌",
		4: "日本京都大学的教授研究大语言模型",
		5: "The English note about FTS5 ranking",
		6: "中间人攻击的防范",
	}
	for id, doc := range docs {
		if doc == "" {
			continue
		}
		body, err := seg.SegmentForIndex(doc)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO d(rowid, body) VALUES (?, ?)`, id, body); err != nil {
			t.Fatal(err)
		}
	}

	for _, tc := range []struct {
		q    string
		want []int
	}{
		{"清华", []int{1}},
		{"大学", []int{1, 4}},
		{"清华大学", []int{1}},
		{"知识图谱", []int{2}},
		{"图谱", []int{2}},
		{"sqlite 知识图谱", []int{2}},
		{"认证中间件", []int{3}},
		{"中间件", []int{3}},
		{"京都大学", []int{4}},
		{"语言模型", []int{4}},
		{"fts5 ranking", []int{5}},
		{"中间", []int{3, 6}},
		{"北京大学", nil},
		// Fragments across a word boundary are not words of the text.
		{"识图", nil},
		{"华大", nil},
	} {
		words, err := seg.SegmentQuery(tc.q)
		if err != nil {
			t.Fatal(err)
		}
		terms := make([]string, len(words))
		for i, w := range words {
			terms[i] = `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
		}
		match := strings.Join(terms, " AND ")
		rows, err := db.Query(`SELECT rowid FROM d WHERE d MATCH ? ORDER BY rowid`, match)
		if err != nil {
			t.Fatalf("MATCH %s: %v", match, err)
		}
		var got []int
		for rows.Next() {
			var id int
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			got = append(got, id)
		}
		rows.Close()
		if !slices.Equal(got, tc.want) {
			t.Errorf("query %q (MATCH %s) = rows %v, want %v", tc.q, match, got, tc.want)
		}
	}
}
