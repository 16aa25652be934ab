package code

import (
	"errors"
	"go/build"
	"go/parser"
	"go/token"
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

// BenchmarkParse is the parsing table of docs/performance.md: per language
// and corpus, MB/s of the floor (reading each file and cutting it with the
// line chunker), of the parse alone (tree-sitter's, go/parser's for Go
// and the scanner's for Python) and of the whole cut (Split: parse, tree,
// cut, definitions and references), by the wall clock and per CPU second (the process's,
// steadier on a machine others load). Corpora: PALACE_PARSE_CORPORA, as lang=dir,lang=dir (Go's
// src, the Python standard library and the extension's node_modules
// TypeScript when unset); files over MaxBytes and testdata and vendor
// folders are left out. Run on one core, one pass:
//
//	taskset -c 0 env GOMAXPROCS=1 go test -run '^$' -bench Parse -benchtime 1x ./core/code
func BenchmarkParse(b *testing.B) {
	corpora := os.Getenv("PALACE_PARSE_CORPORA")
	if corpora == "" {
		corpora = "go=" + filepath.Join(build.Default.GOROOT, "src")
		if py, _ := filepath.Glob("/usr/lib/python3.*"); len(py) > 0 {
			corpora += ",python=" + py[len(py)-1]
		}
		corpora += ",typescript=../../vscode-extension/node_modules"
	}
	for _, c := range strings.Split(corpora, ",") {
		lang, dir, _ := strings.Cut(c, "=")
		paths, total := corpus(b, lang, dir)
		if len(paths) == 0 {
			continue
		}
		texts := make([]string, len(paths))
		for i, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			texts[i] = string(src)
		}
		run := func(name string, f func()) {
			b.Run(lang+"/"+name, func(b *testing.B) {
				b.SetBytes(total)
				b.ReportMetric(float64(len(paths)), "files")
				cpu := cpuTime()
				for i := 0; i < b.N; i++ {
					f()
				}
				if cpu := cpuTime() - cpu; cpu > 0 {
					b.ReportMetric(float64(total)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
				}
			})
		}
		run("floor", func() {
			for _, p := range paths {
				src, err := os.ReadFile(p)
				if err != nil {
					b.Fatal(err)
				}
				chunk.Split(string(src), chunk.Default)
			}
		})
		ps := NewParser()
		run("tree-sitter-parse", func() {
			for i, t := range texts {
				if err := ps.setLanguage(LanguageOf(paths[i], t)); err != nil {
					b.Fatal(err)
				}
				if st := ps.p.Parse([]byte(t), nil); st != nil {
					st.Close()
				}
			}
		})
		ps.treeSitterGo, ps.treeSitterPython = true, true
		run("tree-sitter-cut", func() {
			for i, t := range texts {
				ps.Split(t, LanguageOf(paths[i], t), chunk.Default)
			}
		})
		ps.treeSitterGo, ps.treeSitterPython = false, false
		if lang == "go" {
			run("go-parser-parse", func() {
				for _, t := range texts {
					parser.ParseFile(token.NewFileSet(), "", t, parser.SkipObjectResolution|parser.ParseComments)
				}
			})
			run("go-parser-cut", func() {
				for _, t := range texts {
					ps.Split(t, "go", chunk.Default)
				}
			})
		}
		if lang == "python" {
			sc := &pyScratch{}
			run("py-scanner-parse", func() {
				for _, t := range texts {
					pyTreeIn(t, sc)
				}
			})
			// The cut as a mine makes it: the scanner's, and
			// tree-sitter's for the files it refuses.
			run("py-scanner-cut", func() {
				for _, t := range texts {
					ps.Split(t, "python", chunk.Default)
				}
			})
		}
		ps.Close()
	}
}

// corpus lists the files of lang under dir a mine would parse, and their
// bytes.
func corpus(b *testing.B, lang, dir string) ([]string, int64) {
	var paths []string
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && (d.Name() == "testdata" || d.Name() == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if Language(p) != lang || !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > MaxBytes {
			return err
		}
		paths = append(paths, p)
		total += info.Size()
		return nil
	})
	if err != nil {
		b.Logf("%s: %v", dir, err)
	}
	return paths, total
}
