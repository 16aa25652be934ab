package code

import (
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
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
