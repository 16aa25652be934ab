package lsp

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// The benchmarks drive the server in-process over OS pipes with the same
// client the tests use, and print their latency percentiles:
//
//	go test -run '^$' -bench . -benchtime 1x ./server/lsp
//
// Latencies are measured at the client: from writing didSave to reading
// palace/didIndex, and from sending palace/relevant to reading its answer.
// Both are lexical (no embedding model), as the targets are.

// BenchmarkSaveToIndex times save-to-searchable for a 2,000-line file in a
// 200-file workspace (PALACE_BENCH_FILES): didSave to palace/didIndex. Saves are 150 ms apart,
// past the burst window that holds a following save back to coalesce it.
// The editor sends the edit as didChange first, as editors do while the
// user types, and saves 150 ms later.
func BenchmarkSaveToIndex(b *testing.B) { benchSave(b, true) }

// BenchmarkSaveAlone is BenchmarkSaveToIndex with didSave alone, no
// didChange before it (a file written by a tool, or a save that follows
// its change too closely for the server to cut the text first).
func BenchmarkSaveAlone(b *testing.B) { benchSave(b, false) }

func benchSave(b *testing.B, change bool) {
	const samples = 60
	rng := rand.New(rand.NewPCG(1, 2))
	voc := newVocabulary(rng, 4000)
	root := b.TempDir()
	// PALACE_BENCH_FILES sizes the workspace: a save mines the saved file
	// alone (see indexer.mine), so the time should not grow with it.
	nfiles := 200
	if v, err := strconv.Atoi(os.Getenv("PALACE_BENCH_FILES")); err == nil && v > 0 {
		nfiles = v
	}
	for i := 0; i < nfiles; i++ {
		writeTree(b, root, map[string]string{fmt.Sprintf("pkg%02d/file%03d.go", i%20, i): voc.file(rng, 60)})
	}
	big := filepath.Join(root, "big", "big.go")
	lines := strings.Split(voc.file(rng, 2000), "\n")[:2000]
	writeTree(b, root, map[string]string{"big/big.go": strings.Join(lines, "\n") + "\n"})
	c := startServer(b, Options{Log: io.Discard})
	c.initialize(map[string]any{"wing": "bench", "vectors": false}, root)
	c.waitIdle()
	st := c.mustCall("palace/status", nil)
	var lat []time.Duration
	for i := 0; i < b.N*samples; i++ {
		// Change one line in the middle, as an edit does.
		edited := append([]string(nil), lines...)
		edited[1000] = fmt.Sprintf("\t// savemarker%05d edited here", i)
		text := strings.Join(edited, "\n") + "\n"
		if change {
			c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": fileURI(big), "version": i + 2},
				"contentChanges": []any{map[string]any{"text": text}}})
		}
		time.Sleep(150 * time.Millisecond)
		start := time.Now()
		m := c.save(big, text)
		n := c.waitIndexed(m, big)
		lat = append(lat, time.Since(start))
		if n["drawers"].(float64) < 50 {
			b.Fatalf("didIndex = %v", n)
		}
	}
	last := fmt.Sprintf("savemarker%05d", b.N*samples-1)
	if hits := hitsOf(b, c.mustCall("palace/search", map[string]any{"query": last, "mode": "lexical"})); len(hits) != 1 {
		b.Fatalf("the last save is not searchable: %v", hits)
	}
	how := "after didChange"
	if !change {
		how = "didSave alone"
	}
	report(b, fmt.Sprintf("save-to-index (%s), 2,000-line file, %d-file workspace, %v drawers", how, nfiles+1, st["drawers"]), lat)
}

// BenchmarkRelevant50k times palace/relevant at random identifiers of an
// open 300-line file, against a palace of 50,000 file drawers in the
// folder's wing plus 2,000 conversation drawers elsewhere.
func BenchmarkRelevant50k(b *testing.B) {
	const samples = 300
	home := b.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	voc := newVocabulary(rng, 20000)
	t0 := time.Now()
	fillPalace(b, home, rng, voc, 50000, 2000)
	build := time.Since(t0)
	root := b.TempDir()
	doc := voc.file(rng, 300)
	path := filepath.Join(root, "src", "open.go")
	writeTree(b, root, map[string]string{"src/open.go": doc})
	c := startServer(b, Options{Home: home, Log: io.Discard})
	c.initialize(map[string]any{"wing": "bench", "vectors": false, "relevantMode": "lexical"}, root)
	c.waitIdle()
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": fileURI(path), "languageId": "go", "version": 1, "text": doc}})
	docLines := strings.Split(doc, "\n")
	var lat []time.Duration
	hitsSeen := 0
	for i := 0; i < b.N*samples; i++ {
		line := rng.IntN(len(docLines) - 1)
		char := 0
		if l := docLines[line]; len(l) > 2 {
			char = 1 + rng.IntN(len(l)-1)
		}
		start := time.Now()
		res := c.mustCall("palace/relevant", map[string]any{
			"textDocument": map[string]string{"uri": fileURI(path)},
			"position":     map[string]int{"line": line, "character": char},
		})
		lat = append(lat, time.Since(start))
		if len(hitsOf(b, res)) > 0 {
			hitsSeen++
		}
	}
	if hitsSeen < b.N*samples/2 {
		b.Fatalf("only %d of %d requests found anything", hitsSeen, b.N*samples)
	}
	st := c.mustCall("palace/status", nil)
	fmt.Printf("(palace of %v drawers built in %.1fs)\n", st["drawers"], build.Seconds())
	report(b, fmt.Sprintf("palace/relevant, %v drawers", st["drawers"]), lat)
}

// report prints and records p50, p95 and max in milliseconds.
func report(b *testing.B, what string, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	p50, p95, mx := pct(0.50), pct(0.95), float64(lat[len(lat)-1].Microseconds())/1000
	fmt.Printf("%s: p50 %.1f ms, p95 %.1f ms, max %.1f ms over %d requests\n", what, p50, p95, mx, len(lat))
	b.ReportMetric(p50, "p50-ms")
	b.ReportMetric(p95, "p95-ms")
}

// vocabulary makes code-like text whose identifiers follow a Zipf-like
// law, as real code's do: a few are everywhere, most are rare.
type vocabulary struct {
	words []string
	zipf  *rand.Zipf
}

var syllables = strings.Fields("ac al an ar ba be bi bo ca ce ci co da de di do el en er es fa fe fi fo ga ge gi go ha he hi ho il in is it ka ke ki ko la le li lo ma me mi mo na ne ni no ol on or os pa pe pi po ra re ri ro sa se si so ta te ti to ul un ur us va ve vi vo")

func newVocabulary(rng *rand.Rand, n int) *vocabulary {
	v := &vocabulary{}
	seen := map[string]bool{}
	for len(v.words) < n {
		parts := 2 + rng.IntN(3)
		var sb strings.Builder
		for i := 0; i < parts; i++ {
			s := syllables[rng.IntN(len(syllables))]
			if i > 0 && rng.IntN(2) == 0 {
				s = strings.ToUpper(s[:1]) + s[1:] // camelCase
			}
			sb.WriteString(s)
		}
		if w := sb.String(); !seen[w] && !goKeywords[w] {
			seen[w] = true
			v.words = append(v.words, w)
		}
	}
	v.zipf = rand.NewZipf(rng, 1.1, 2, uint64(n-1))
	return v
}

func (v *vocabulary) word() string { return v.words[v.zipf.Uint64()] }

// line is one statement of pseudo-code.
func (v *vocabulary) line(rng *rand.Rand) string {
	switch rng.IntN(6) {
	case 0:
		return fmt.Sprintf("func %s(%s %s) %s {", v.word(), v.word(), v.word(), v.word())
	case 1:
		return fmt.Sprintf("\t// %s %s the %s before %s.", v.word(), v.word(), v.word(), v.word())
	case 2:
		return fmt.Sprintf("\tif %s := %s.%s(%s); %s != nil {", v.word(), v.word(), v.word(), v.word(), v.word())
	case 3:
		return "\t}"
	default:
		return fmt.Sprintf("\t%s := %s(%s, %s)", v.word(), v.word(), v.word(), v.word())
	}
}

func (v *vocabulary) file(rng *rand.Rand, lines int) string {
	var sb strings.Builder
	sb.WriteString("package bench\n")
	for i := 1; i < lines; i++ {
		sb.WriteString(v.line(rng))
		sb.WriteByte('\n')
	}
	return sb.String()
}

// fillPalace inserts file drawers (about 25 lines each) into wing bench and
// conversation drawers into wing chats, through the store as mining would.
func fillPalace(b *testing.B, home string, rng *rand.Rand, voc *vocabulary, files, convos int) {
	b.Helper()
	p, err := palace.Open(home)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	now := time.Now()
	var batch []store.Drawer
	flush := func() {
		if _, err := p.Store.InsertDrawers(ctx, batch); err != nil {
			b.Fatal(err)
		}
		batch = batch[:0]
	}
	for i := 0; i < files+convos; i++ {
		wing, kind, room := "bench", store.KindFile, fmt.Sprintf("pkg%02d", i%40)
		source := fmt.Sprintf("/synthetic/pkg%02d/file%05d.go", i%40, i/8)
		content := voc.file(rng, 25)
		line := 1 + (i%8)*25
		if i >= files {
			wing, kind, room = "chats", store.KindConversation, "conversations"
			source, line = fmt.Sprintf("/chats/session%04d.jsonl", i%200), 0
			content = fmt.Sprintf("user: what does %s do with %s?\nassistant: it calls %s, then %s.", voc.word(), voc.word(), voc.word(), voc.word())
		}
		h := store.ContentHash(content)
		d := store.Drawer{ID: store.DrawerID(wing, source, i, h), Wing: wing, Room: room, Kind: kind, Source: source,
			Content: content, ContentHash: h, CreatedAt: now, OccurredAt: now, LineStart: line}
		if line > 0 {
			d.LineEnd = line + 24
		}
		batch = append(batch, d)
		if len(batch) == 5000 {
			flush()
		}
	}
	flush()
	_ = os.Stdout.Sync()
}

// goKeywords are not made identifiers: the generator's text must parse as
// plausible code for the clue heuristics.
var goKeywords = map[string]bool{"if": true, "for": true, "go": true, "func": true, "var": true, "type": true, "range": true}
