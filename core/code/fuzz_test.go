package code

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/chunk"
)

// FuzzSplitExact checks the drawers' guarantees (checkExact) for any text,
// in every grammar and at any size, and for the Python scanner's tree of
// it. Broken files are cut too, ignoring the fallback, so the cutting
// meets trees full of errors.
func FuzzSplitExact(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.*")
	for _, p := range files {
		if src, err := os.ReadFile(p); err == nil && Language(p) != "" {
			f.Add(string(src), 120, uint8(0))
			f.Add(string(src), 37, uint8(1))
		}
	}
	f.Add("package x\n\nfunc f( {\n\treturn 1 +\n}}}\n", 10, uint8(0))
	f.Add("\r\n\r\nx = '"+string(make([]byte, 300))+"'\r\n", 50, uint8(1))
	f.Add("\xff\xfe\n\xc3\nconst a = 1; // é\n", 7, uint8(2))
	f.Add("\ufeffclass C:\r\n    x = f'{a!r:>{w}}' \\\r\n        r'\\\\'\r\n\t# c\n  # d\n@d  # e\ndef f(*a, b=[*c, 1]): return (yield)\n", 40, uint8(1))
	langs := []string{"go", "python", "typescript", "javascript", "rust", "tsx", "c", "cpp", "java", "ruby"}
	ps := NewParser()
	defer ps.Close()
	f.Fuzz(func(t *testing.T, text string, size int, lang uint8) {
		size %= 2000
		o := chunk.Options{Size: size}
		eff := o.Size
		if eff <= 0 {
			eff = chunk.Default.Size
		}
		tr, err := ps.parse("", text, langs[int(lang)%len(langs)], time.Second)
		if errors.Is(err, ErrFallback) {
			t.Skip(err) // too slow to parse: the line chunker's
		}
		if err != nil {
			t.Fatal(err)
		}
		checkExact(t, text, tr.split(o), eff)
		// The same text read by the Python scanner, when it reads it; a
		// panic of its own fails the test (pyTree is strict).
		if pt, _, ok := pyTree(text); ok {
			checkExact(t, text, pt.split(o), eff)
		}
	})
}
