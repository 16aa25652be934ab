package search

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/palace"
)

// TestCodeIndexFixture mines testdata/codews (Go, Python, TypeScript, C,
// C++, Java and Ruby:
// one file defines each name, another calls it more often, a test calls it
// too) and checks the first hit of each query in codews.want.tsv, and its
// language. The workspace is copied out of testdata first: a path through
// a testdata folder makes every file a test.
func TestCodeIndexFixture(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("testdata/codews")); err != nil {
		t.Fatal(err)
	}
	p, err := palace.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := mine.Run(context.Background(), p, root, mine.Options{Wing: "ws"}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("testdata/codews.want.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 3 {
			t.Fatalf("codews.want.tsv: %q: want query, first file and language", line)
		}
		query, first, lang := cols[0], cols[1], cols[2]
		n++
		res, err := Run(context.Background(), p, Request{Query: query, Limit: 10, Mode: ModeLexical})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range res.Hits {
			rel, _ := filepath.Rel(root, h.Source)
			got = append(got, filepath.ToSlash(rel))
		}
		if len(got) == 0 {
			t.Errorf("%q: no hits, want %s first", query, first)
			continue
		}
		if got[0] != first {
			t.Errorf("%q: first hit %s, want %s; hits %v", query, got[0], first, got)
		}
		if h := res.Hits[0]; h.Lang != lang || h.Kind != "file" {
			t.Errorf("%q: first hit has lang %q kind %q, want %q file", query, h.Lang, h.Kind, lang)
		}
	}
	if err := sc.Err(); err != nil || n == 0 {
		t.Fatalf("codews.want.tsv: %d queries, %v", n, err)
	}
}
