package code

import (
	"errors"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/chunk"
)

// BenchmarkSplitNet cuts every Go file of the standard library's net
// package tree with one Parser, as a mining worker does: the cost tree-sitter adds
// per byte of source. Run with -cpuprofile to see where it goes.
func BenchmarkSplitNet(b *testing.B) {
	root := filepath.Join(build.Default.GOROOT, "src", "net")
	var texts []string
	var total int64
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || Language(p) != "go" {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		texts = append(texts, string(src))
		total += int64(len(src))
		return nil
	})
	if err != nil || len(texts) == 0 {
		b.Skipf("no Go sources under %s: %v", root, err)
	}
	b.SetBytes(total)
	b.ReportAllocs()
	ps := NewParser()
	defer ps.Close()
	b.ResetTimer()
	drawers := 0
	for i := 0; i < b.N; i++ {
		drawers = 0
		for _, t := range texts {
			cs, _ := ps.Split(t, "go", chunk.Default)
			drawers += len(cs)
		}
	}
	b.ReportMetric(float64(drawers), "drawers")
	b.ReportMetric(float64(len(texts)), "files")
}

// BenchmarkSplitSrc cuts every file of Go's src tree that a mine parses
// (each language Language names; vendor folders left out, as a mine's
// ignores leave them) with one Parser, one pass per iteration: the CPU
// time the code index costs a cold mine of src before anything is
// written, on one core. With the mine's floor (bench mine's floor_s), it
// bounds the cold ratio a machine of n cores can reach.
func BenchmarkSplitSrc(b *testing.B) {
	root := filepath.Join(build.Default.GOROOT, "src")
	var texts, langs []string
	var total int64
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "vendor" {
				return filepath.SkipDir
			}
			return nil
		}
		lang := Language(p)
		if lang == "" {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		texts, langs = append(texts, string(src)), append(langs, lang)
		total += int64(len(src))
		return nil
	})
	if err != nil || len(texts) == 0 {
		b.Skipf("no sources under %s: %v", root, err)
	}
	b.SetBytes(total)
	ps := NewParser()
	defer ps.Close()
	b.ResetTimer()
	drawers, fallbacks := 0, 0
	for i := 0; i < b.N; i++ {
		drawers, fallbacks = 0, 0
		for j, t := range texts {
			cs, err := ps.Split(t, langs[j], chunk.Default)
			if err != nil {
				fallbacks++
			}
			drawers += len(cs)
		}
	}
	b.ReportMetric(float64(drawers), "drawers")
	b.ReportMetric(float64(len(texts)), "files")
	b.ReportMetric(float64(fallbacks), "fallbacks")
	b.ReportMetric(float64(total)/1e6, "MB")
}

// BenchmarkSplitSave cuts net/http's server.go again after one line in its
// middle changed, as an editor's save does: afresh, and with the file's
// previous tree kept (Trees), which makes the parse incremental.
func BenchmarkSplitSave(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(build.Default.GOROOT, "src", "net", "http", "server.go"))
	if err != nil {
		b.Skipf("no net/http/server.go: %v", err)
	}
	lines := strings.Split(string(src), "\n")
	// Two versions that differ in one line, cut alternately.
	versions := [2]string{string(src)}
	lines[len(lines)/2] = "\t// edited here"
	versions[1] = strings.Join(lines, "\n")
	for _, c := range []struct {
		name  string
		trees *Trees
	}{{"fresh", nil}, {"kept", NewTrees(1)}} {
		b.Run(c.name, func(b *testing.B) {
			ps := NewParser()
			defer ps.Close()
			ps.Trees = c.trees
			if c.trees != nil {
				defer c.trees.Close()
			}
			b.SetBytes(int64(len(src)))
			for i := 0; i < b.N; i++ {
				if _, err := ps.SplitFile("/w/server.go", versions[i%2], "go", chunk.Default); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSplitBroken cuts net/http's server.go with a broken definition
// at its end, as an editor saves a file mid-edit: the parse finds the
// top-level error, and SplitFile hands the file to the line chunker.
func BenchmarkSplitBroken(b *testing.B) {
	src, err := os.ReadFile(filepath.Join(build.Default.GOROOT, "src", "net", "http", "server.go"))
	if err != nil {
		b.Skipf("no net/http/server.go: %v", err)
	}
	text := string(src) + "\nfunc broken( {\n"
	ps := NewParser()
	defer ps.Close()
	b.SetBytes(int64(len(text)))
	for i := 0; i < b.N; i++ {
		if _, err := ps.SplitFile("/w/server.go", text, "go", chunk.Default); !errors.Is(err, ErrFallback) {
			b.Fatalf("SplitFile = %v, want ErrFallback", err)
		}
	}
}
