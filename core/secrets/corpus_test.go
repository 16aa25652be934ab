package secrets

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"go/scanner"
	"go/token"
	"hash/fnv"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// corpusCase is one line of testdata/corpus.txt, expanded.
type corpusCase struct {
	line     int
	positive bool
	category string
	text     string
	secrets  []string // the marked parts of text
}

// expansion is a directive of the corpus: {A:36}, {b64:user:pw}, {}.
var expansion = regexp.MustCompile(`\{([A-Za-z0-9]*)(?::([^}]*))?\}`)

// loadCorpus reads testdata/corpus.txt and makes its secrets, the same
// on every run (each line draws from its own seed).
func loadCorpus(t testing.TB) []corpusCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "corpus.txt"))
	if err != nil {
		t.Fatalf("corpus: %v", err)
	}
	defer f.Close()
	var cases []corpusCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		if l == "" || l[0] == '#' {
			continue
		}
		head, tmpl, ok := strings.Cut(l, "\t")
		if !ok || len(head) < 2 || head[0] != '+' && head[0] != '-' {
			t.Fatalf("corpus.txt:%d: want '+' or '-', a category, a tab and a text: %q", n, l)
		}
		c := corpusCase{line: n, positive: head[0] == '+', category: head[1:]}
		seed := uint64(n) << 8
		tmpl = expansion.ReplaceAllStringFunc(strings.ReplaceAll(tmpl, `\n`, "\n"), func(d string) string {
			m := expansion.FindStringSubmatch(d)
			seed++
			switch m[1] {
			case "":
				return ""
			case "b64":
				return base64.StdEncoding.EncodeToString([]byte(m[2]))
			}
			k, err := strconv.Atoi(m[2])
			if err != nil {
				t.Fatalf("corpus.txt:%d: %q: %v", n, d, err)
			}
			switch m[1] {
			case "A":
				return tok(seed, k)
			case "U":
				return rnd(seed, k, upper)
			case "L":
				return rnd(seed, k, "abcdefghijklmnopqrstuvwxyz0123456789")
			case "H":
				return rnd(seed, k, "0123456789abcdef")
			case "B":
				return rnd(seed, k, b64)
			case "D":
				return rnd(seed, k, digits)
			case "C":
				return rnd(seed, k, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
			case "E":
				return rnd(seed, k, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L")
			}
			t.Fatalf("corpus.txt:%d: unknown directive %q", n, d)
			return ""
		})
		var b strings.Builder
		for {
			s, rest, ok := strings.Cut(tmpl, "[[")
			b.WriteString(s)
			if !ok {
				break
			}
			secret, after, ok := strings.Cut(rest, "]]")
			if !ok {
				t.Fatalf("corpus.txt:%d: [[ without ]]", n)
			}
			c.secrets = append(c.secrets, secret)
			b.WriteString(secret)
			tmpl = after
		}
		c.text = b.String()
		if c.positive != (len(c.secrets) > 0) {
			t.Fatalf("corpus.txt:%d: a '+' case marks its secret with [[ ]], a '-' case has none", n)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("corpus: %v", err)
	}
	return cases
}

// leaks reports whether out still holds a piece of 8 bytes of secret (the
// whole of it when shorter), as assertGone does.
func leaks(out, secret string) bool {
	n := min(8, len(secret))
	for i := 0; i+n <= len(secret); i++ {
		if strings.Contains(out, secret[i:i+n]) {
			return true
		}
	}
	return false
}

// recall is what a detector caught of a corpus, by category.
type recall struct {
	caught, total map[string]int
	falsePos      []string // negative cases changed, as "line: text"
}

// measureRecall runs redact, a detector that returns its redacted text,
// over the corpus.
func measureRecall(cases []corpusCase, redact func(string) string) recall {
	r := recall{caught: map[string]int{}, total: map[string]int{}}
	for _, c := range cases {
		out := redact(c.text)
		if !c.positive {
			if out != c.text {
				r.falsePos = append(r.falsePos, fmt.Sprintf("%d: %q", c.line, out))
			}
			continue
		}
		r.total[c.category]++
		gone := true
		for _, s := range c.secrets {
			gone = gone && !leaks(out, s)
		}
		if gone {
			r.caught[c.category]++
		}
	}
	return r
}

func redactText(s string) string { out, _ := Redact(s); return out }

// TestCorpusRecall: Palace finds every secret of the corpus and changes
// none of its code.
func TestCorpusRecall(t *testing.T) {
	r := measureRecall(loadCorpus(t), redactText)
	for cat, n := range r.total {
		if r.caught[cat] != n {
			t.Errorf("%s: %d of %d caught", cat, r.caught[cat], n)
		}
	}
	for _, fp := range r.falsePos {
		t.Errorf("code redacted: corpus.txt:%s", fp)
	}
}

// goSource is a deterministic sample of the .go files of Go's own source
// tree: every file whose path (under GOROOT/src) hashes to 0 modulo
// every, in path order. The test is skipped without a Go tree.
func goSource(t testing.TB, every uint32) (paths []string, texts []string) {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		h := fnv.New32a()
		h.Write([]byte(filepath.ToSlash(rel)))
		if h.Sum32()%every != 0 {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		paths, texts = append(paths, filepath.ToSlash(rel)), append(texts, string(b))
		return nil
	})
	if err != nil || len(paths) == 0 {
		t.Skipf("no Go source tree at %s: %v", root, err)
	}
	return paths, texts
}

// codeNames are the identifiers of a Go file and its string literals
// that read as names (NO_RFC7540_PRIORITIES, http2ErrCodeEnhanceYourCalm)
// or hex constants: what a search for code looks for, never a secret.
// Short ones are left out: "pass" is a name, and also the password of an
// example URL in Go's net/url tests.
func codeNames(src string) map[string]bool {
	names := map[string]bool{}
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, 0)
	for {
		_, tk, lit := s.Scan()
		switch {
		case tk == token.EOF:
			return names
		case len(lit) < minNameLen:
			continue
		}
		switch tk {
		case token.IDENT:
			names[lit] = true
		case token.INT:
			if strings.HasPrefix(lit, "0x") || strings.HasPrefix(lit, "0X") {
				names[lit] = true
			}
		case token.STRING:
			if v, err := strconv.Unquote(lit); err == nil && len(v) >= minNameLen && identifier(v) {
				names[v] = true
			}
		}
	}
}

// minNameLen is the length of the shortest name codeNames gives.
const minNameLen = 6

// detection is a stretch a detector marks in a text.
type detection struct {
	start, end int
	kind       string
}

// palaceDetect is what Redact marks, as spans.
func palaceDetect(text string) []detection {
	var ds []detection
	for _, s := range resolve(highEntropy(text, scan(text))) {
		ds = append(ds, detection{s.start, s.end, s.kind})
	}
	return ds
}

// goSourceReport runs detect over a sample of Go's source and returns the
// findings by kind and those that are a name of the code.
func goSourceReport(t testing.TB, detect func(string) []detection, every uint32) (byKind map[string]int, names []string) {
	paths, texts := goSource(t, every)
	size := 0
	for _, s := range texts {
		size += len(s)
	}
	t.Logf("Go source: %d files, %d bytes", len(paths), size)
	byKind = map[string]int{}
	for i, text := range texts {
		ds := detect(text)
		if len(ds) == 0 {
			continue
		}
		code := codeNames(text)
		for _, d := range ds {
			byKind[d.kind]++
			if code[text[d.start:d.end]] {
				names = append(names, fmt.Sprintf("%s: %s %q", paths[i], d.kind, text[d.start:d.end]))
			}
		}
	}
	sort.Strings(names)
	return byKind, names
}

// TestGoSourceNamesSurvive redacts a sample of Go's own source (one file
// in 4) and checks that no identifier, name-like string or hex constant
// of it is taken for a secret.
func TestGoSourceNamesSurvive(t *testing.T) {
	if testing.Short() {
		t.Skip("reads a part of Go's source tree")
	}
	byKind, names := goSourceReport(t, palaceDetect, 4)
	t.Logf("findings by kind: %v", byKind)
	for _, n := range names {
		t.Errorf("a name of the code is redacted: %s", n)
	}
}

// BenchmarkRedactGoSource measures Redact's throughput on the same sample.
func BenchmarkRedactGoSource(b *testing.B) {
	_, texts := goSource(b, 4)
	var size int64
	for _, s := range texts {
		size += int64(len(s))
	}
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		for _, s := range texts {
			Redact(s)
		}
	}
}
