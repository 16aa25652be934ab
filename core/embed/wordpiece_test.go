package embed

import (
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestFastWordPieceMatchesSugarme: the ASCII fast path gives sugarme's ids
// and type ids on the golden texts, the edge cases and random ASCII text
// (words from the vocabulary and out of it, punctuation, control
// characters, long words, texts past the maximum length), and hands every
// text it does not handle to sugarme.
func TestFastWordPieceMatchesSugarme(t *testing.T) {
	dirs := []string{tinyDir}
	if d := os.Getenv("PALACE_BENCH_MODEL_DIR"); d != "" {
		dirs = append(dirs, d)
	}
	for _, dir := range dirs {
		m, err := loadModel(dir)
		if err != nil {
			t.Fatal(err)
		}
		tk := m.tok
		if tk.fast == nil {
			t.Fatalf("%s: no fast tokenizer path for a BERT WordPiece tokenizer", dir)
		}
		var texts []string
		if dir == tinyDir {
			g := loadGolden(t)
			for _, s := range g.Sentences {
				texts = append(texts, s.Text)
			}
			for _, c := range g.TokenizerCases {
				texts = append(texts, c.Text)
			}
		}
		texts = append(texts, fastProbes...)
		texts = append(texts, "[MASK] and [CLS] here", "x [SEP] y", "[mask]", "[UNK]", "\x00\x01\x7f\v\f",
			strings.Repeat("a", 100), strings.Repeat("a", 101), strings.Repeat("ab ", 400), strings.Repeat("!", 600))
		var words []string
		for w := range tk.fast.vocab {
			words = append(words, w)
		}
		slices.Sort(words)
		r := rand.New(rand.NewPCG(1, 2))
		for range 3000 {
			var sb strings.Builder
			for range r.IntN(40) {
				switch r.IntN(6) {
				case 0:
					sb.WriteByte(byte(r.IntN(0x80)))
				case 1:
					sb.WriteByte(" .,-_'!?()[]{}#@\t\n"[r.IntN(18)])
				case 2:
					w := words[r.IntN(len(words))]
					if r.IntN(2) == 0 {
						w = strings.ToUpper(w)
					}
					sb.WriteString(w)
				default:
					sb.WriteString(words[r.IntN(len(words))])
					sb.WriteByte(" ,."[r.IntN(3)])
				}
			}
			texts = append(texts, sb.String())
		}
		fast := 0
		for _, s := range texts {
			want, err := tk.encodeSugar(s)
			if err != nil {
				t.Fatalf("%q: %v", s, err)
			}
			got, err := tk.encode(s)
			if err != nil {
				t.Fatalf("%q: %v", s, err)
			}
			if _, ok := tk.encodeFast(s); ok {
				fast++
			}
			if !slices.Equal(got.ids, want.ids) || !slices.Equal(got.types, want.types) {
				t.Errorf("%s %q:\nids   %v types %v\nwant  %v types %v", dir, s, got.ids, got.types, want.ids, want.types)
			}
		}
		if fast < len(texts)/2 {
			t.Errorf("%s: fast path took only %d of %d texts", dir, fast, len(texts))
		}
		t.Logf("%s: %d texts, %d by the fast path", dir, len(texts), fast)
	}
}
