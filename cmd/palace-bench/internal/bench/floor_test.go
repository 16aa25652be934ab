package bench

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMineFloor: the floor stores each file whole, in 800-character
// pieces (characters, not bytes), one FTS5 row each, searchable.
func TestMineFloor(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("é", 1700) + " needle"
	files := map[string]string{"a.txt": long, "b.go": "package b\n", "empty.txt": ""}
	var paths []string
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	db := filepath.Join(dir, "floor.db")
	took, chunks, err := mineFloor(context.Background(), db, paths)
	if err != nil {
		t.Fatal(err)
	}
	// 1707 characters are 3 chunks, b.go 1, the empty file none.
	if chunks != 4 || took <= 0 {
		t.Fatalf("chunks %d, took %v; want 4 chunks", chunks, took)
	}
	conn, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.Query(`SELECT body FROM chunks WHERE path = ? ORDER BY rowid`, filepath.Join(dir, "a.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var b string
		if err := rows.Scan(&b); err != nil {
			t.Fatal(err)
		}
		got = append(got, b)
	}
	if len(got) != 3 || len([]rune(got[0])) != 800 || strings.Join(got, "") != long {
		t.Errorf("a.txt in %d chunks of %v characters; want 3 that join to the file", len(got), len([]rune(got[0])))
	}
	var n int
	if err := conn.QueryRow(`SELECT count(*) FROM chunks WHERE chunks MATCH 'needle'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("MATCH needle: %d rows, %v", n, err)
	}
	if _, _, err := mineFloor(context.Background(), filepath.Join(dir, "other.db"), []string{filepath.Join(dir, "gone.txt")}); err == nil || !strings.Contains(err.Error(), "gone.txt") {
		t.Errorf("a missing file: %v, want an error naming it", err)
	}
}
