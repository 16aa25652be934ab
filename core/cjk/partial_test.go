package cjk

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// partTexts are texts that make jieba choose: dictionary words run
// together (so the cut weighs one word against its parts), characters
// alone (min weight, the HMM), Palace's and user words (median weight),
// Latin letters and digits beside Han, and sentences from the other tests.
func partTexts(t *testing.T, x *dictIndex, n int) []string {
	t.Helper()
	rng := rand.New(rand.NewPCG(22, 1))
	texts := []string{
		"我来到北京清华大学", "他来到了网易杭研大厦", "小明硕士毕业于中国科学院计算所，后在日本京都大学深造",
		"知识图谱和区块链", "我们在用SQLite做全文检索", "云计算和韩玉鉴赏", "T恤和B超", "张伟负责部署脚本的维护",
		"周末我们去了蓝翔，学了挖掘机", "他说：「今天天气很好」。",
	}
	lines := len(x.starts) - 1
	for len(texts) < n {
		var b strings.Builder
		for k := 1 + rng.IntN(8); k > 0; k-- {
			switch rng.IntN(6) {
			case 0: // a character alone
				_, w, _ := x.line(rng.IntN(lines))
				for _, r := range w {
					b.WriteRune(r)
					break
				}
			case 1:
				fmt.Fprintf(&b, " abc%d ", rng.IntN(100))
			default:
				_, w, _ := x.line(rng.IntN(lines))
				b.WriteString(w)
			}
		}
		texts = append(texts, b.String())
	}
	return texts
}

// A Segmenter that loads only the part of the dictionary the text it met
// needs cuts, tags and indexes every text as one with the whole dictionary:
// the part holds every word that could occur, and the fillers keep the
// whole dictionary's sum, smallest and median weights.
func TestPartCutsAsTheWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("cuts every text with the whole dictionary and with its parts (about 25 s)")
	}
	whole := New(t.TempDir())
	whole.part.full = true
	parts := New(t.TempDir())
	parts.maxLoads = 1 << 20
	x, err := readDictIndex()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Segmenter{whole, parts} {
		if err := s.AddWord("长江大桥工程部", "nt"); err != nil {
			t.Fatal(err)
		}
	}
	for i, text := range partTexts(t, x, 120) {
		if i == 60 { // a word added after loading reaches later parts too
			for _, s := range []*Segmenter{whole, parts} {
				if err := s.AddWord("挖掘机学校", "nz"); err != nil {
					t.Fatal(err)
				}
			}
		}
		a, b := index(t, whole, text), index(t, parts, text)
		if a != b {
			t.Fatalf("text %d %q: index text\n whole %q\n parts %q", i, text, a, b)
		}
		if a, b := query(t, whole, text), query(t, parts, text); !reflect.DeepEqual(a, b) {
			t.Fatalf("text %d %q: query words\n whole %q\n parts %q", i, text, a, b)
		}
		ta, err := whole.Tag(text)
		if err != nil {
			t.Fatal(err)
		}
		tb, err := parts.Tag(text)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ta, tb) {
			t.Fatalf("text %d %q: tags\n whole %v\n parts %v", i, text, ta, tb)
		}
	}
	if parts.part.full || parts.loads < 60 {
		t.Errorf("parts loaded the whole dictionary, or too few parts to compare (%d loads)", parts.loads)
	}
}

// The part a little Chinese needs is a small share of the dictionary, and
// a Segmenter that meets nothing new loads nothing again.
func TestPartIsInProportion(t *testing.T) {
	s := New(t.TempDir())
	index(t, s, "// 你好，世界: the only Chinese in a Go test")
	lines := 0
	for _, in := range s.part.in {
		if in {
			lines++
		}
	}
	if s.part.full || lines == 0 || lines > 2000 {
		t.Errorf("a short greeting loaded %d dictionary lines (whole: %v)", lines, s.part.full)
	}
	loads := s.loads
	index(t, s, "世界你好")
	if s.loads != loads {
		t.Errorf("text of characters met before loaded again (%d loads, then %d)", loads, s.loads)
	}
	// After maxLoads parts, the whole dictionary, as before.
	s.maxLoads = s.loads
	index(t, s, "北京欢迎你")
	if !s.part.full || s.index != nil {
		t.Errorf("past maxLoads: whole %v, index kept %v", s.part.full, s.index != nil)
	}
}

// The fillers give every part the whole dictionary's frequency sum,
// smallest frequency and median (the n/2-th in ascending order), the three
// numbers jieba derives weights from.
func TestFillersKeepTheWholeNumbers(t *testing.T) {
	x, err := readDictIndex()
	if err != nil {
		t.Fatal(err)
	}
	var p part
	for i, text := range partTexts(t, x, 60) {
		p.meet(x, text, false)
		fill, ok := p.fillers(x)
		if !ok {
			t.Fatalf("text %d: no fillers for a part of %d lines", i, p.n)
		}
		var freqs []int64
		for l, in := range p.in {
			if in {
				_, _, f := x.line(l)
				freqs = append(freqs, f)
			}
		}
		for _, line := range fill {
			var w, tag string
			var f int64
			if _, err := fmt.Sscanf(line, "%s %d %s", &w, &f, &tag); err != nil || w != filler {
				t.Fatalf("filler line %q: %v", line, err)
			}
			freqs = append(freqs, f)
		}
		slices.Sort(freqs)
		var sum int64
		for _, f := range freqs {
			sum += f
		}
		if sum != x.sum || freqs[0] != x.min || freqs[len(freqs)/2] != x.median {
			t.Fatalf("text %d: sum %d, min %d, median %d; the whole dictionary's are %d, %d, %d",
				i, sum, freqs[0], freqs[len(freqs)/2], x.sum, x.min, x.median)
		}
	}
}
