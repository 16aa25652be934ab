package aaak

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fixture is one golden input: drawers plus the tagger to encode them with.
type fixture struct {
	name   string
	path   string // testdata/golden/NAME (without extension)
	items  []Item
	tagger Tagger
}

func loadFixtures(tb testing.TB) []fixture {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "golden", "*.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	var out []fixture
	for _, p := range paths {
		if strings.HasSuffix(p, ".decoded.txt") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(p), ".txt")
		fx := fixture{name: name, path: strings.TrimSuffix(p, ".txt"), items: parseFixture(tb, p, string(b))}
		if (strings.HasPrefix(name, "zh-") || strings.HasPrefix(name, "mixed-")) && !strings.Contains(name, "notagger") {
			fx.tagger = newDictTagger()
		}
		out = append(out, fx)
	}
	if len(out) == 0 {
		tb.Fatal("no golden fixtures found")
	}
	return out
}

// parseFixture reads the format described in testdata/golden/README.md.
func parseFixture(tb testing.TB, path, src string) []Item {
	tb.Helper()
	var (
		items []Item
		text  []string
		cur   *Item
	)
	flush := func() {
		if cur != nil {
			cur.Text = strings.Join(text, "\n")
			items = append(items, *cur)
		}
		text = nil
	}
	for _, line := range strings.Split(src, "\n") {
		meta, ok := strings.CutPrefix(line, "=== ")
		if !ok {
			if cur == nil {
				cur = &Item{}
			}
			text = append(text, line)
			continue
		}
		flush()
		cur = &Item{}
		for _, kv := range strings.Fields(meta) {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "wing":
				cur.Wing = v
			case "room":
				cur.Room = v
			case "date":
				cur.Date = v
			case "source":
				cur.Source = v
			case "importance":
				f, err := strconv.ParseFloat(v, 64)
				if err != nil {
					tb.Fatalf("%s: importance: %v", path, err)
				}
				cur.Importance = f
			default:
				tb.Fatalf("%s: unknown fixture key %q", path, k)
			}
		}
	}
	flush()
	return items
}
