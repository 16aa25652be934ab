package embed

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	ort "github.com/yalue/onnxruntime_go"
)

// BenchmarkEmbed measures chunks (texts) per second for each backend, text
// length in tokens ([CLS] and [SEP] included) and batch size, on the tiny
// test model, or on the model in PALACE_BENCH_MODEL_DIR (for example a
// MiniLM-shaped one from `scripts/gen_tiny_model.py --minilm --out DIR`).
//
// "ort-bare" is onnxruntime_go alone on the same token ids: one session with
// the same options, input and output tensors allocated once, no tokenising,
// padding or pooling. Palace's ORT overhead is ort's ns/op over ort-bare's.
//
//	go test -run '^$' -bench Embed -benchtime 3s ./core/embed
func BenchmarkEmbed(b *testing.B) {
	dir := tinyDir
	if d := os.Getenv("PALACE_BENCH_MODEL_DIR"); d != "" {
		dir = d
	}
	m, err := loadModel(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("model %s (%s), max length %d", dir, m.id, m.maxLen)
	for _, backend := range []string{BackendORT, "ort-bare", BackendGo} {
		b.Run(backend, func(b *testing.B) {
			var run func(texts []string) func()
			switch backend {
			case "ort-bare":
				run = bareORT(b, m)
			default:
				run = palaceEmbed(b, dir, backend)
			}
			for _, tokens := range []int{16, 64, 256} {
				for _, batch := range []int{1, 32} {
					b.Run(fmt.Sprintf("tokens=%d/batch=%d", tokens, batch), func(b *testing.B) {
						if tokens > m.maxLen {
							b.Skipf("model %s truncates at %d tokens", dir, m.maxLen)
						}
						step := run(benchTexts(b, m, tokens, batch))
						step() // warm-up: the go backend compiles each shape once
						n := 0
						for b.Loop() {
							step()
							n++
						}
						b.ReportMetric(float64(n*batch)/b.Elapsed().Seconds(), "chunks/s")
					})
				}
			}
		})
	}
}

// BenchmarkORTOverhead measures Palace's ORT overhead over bare
// onnxruntime_go with the two runs interleaved, so that load from other
// processes hits both alike: each iteration embeds the texts through Palace
// (tokenise, pad, run, pool, normalise) and then runs the bare session on
// the same token ids. Reported: ms per call of each, and overhead-% =
// palace/bare - 1.
//
//	go test -run '^$' -bench ORTOverhead -benchtime 3s ./core/embed
func BenchmarkORTOverhead(b *testing.B) {
	dir := tinyDir
	if d := os.Getenv("PALACE_BENCH_MODEL_DIR"); d != "" {
		dir = d
	}
	m, err := loadModel(dir)
	if err != nil {
		b.Fatal(err)
	}
	palace := palaceEmbed(b, dir, BackendORT)
	bare := bareORT(b, m)
	for _, tokens := range []int{16, 64, 256} {
		for _, batch := range []int{1, 32} {
			b.Run(fmt.Sprintf("tokens=%d/batch=%d", tokens, batch), func(b *testing.B) {
				if tokens > m.maxLen {
					b.Skipf("model %s truncates at %d tokens", dir, m.maxLen)
				}
				texts := benchTexts(b, m, tokens, batch)
				p, r := palace(texts), bare(texts)
				p()
				r()
				var tp, tr time.Duration
				n := 0
				for b.Loop() {
					t0 := time.Now()
					p()
					t1 := time.Now()
					r()
					tp += t1.Sub(t0)
					tr += time.Since(t1)
					n++
				}
				b.ReportMetric(float64(tp.Microseconds())/1000/float64(n), "palace-ms/op")
				b.ReportMetric(float64(tr.Microseconds())/1000/float64(n), "bare-ms/op")
				b.ReportMetric(100*(float64(tp)/float64(tr)-1), "overhead-%")
			})
		}
	}
}

// palaceEmbed opens dir with a forced backend; each step embeds the texts.
func palaceEmbed(b *testing.B, dir, backend string) func([]string) func() {
	if backend == BackendORT {
		skipWithoutORT(b)
	}
	cfg := testConfig(dir, backend)
	e, _, err := Open(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { e.Close() })
	return func(texts []string) func() {
		return func() {
			if _, err := e.Embed(context.Background(), texts); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// bareORT runs the session directly on pre-built tensors.
func bareORT(b *testing.B, m *model) func([]string) func() {
	skipWithoutORT(b)
	if _, err := initORT(testConfig(m.dir, BackendORT)); err != nil {
		b.Fatal(err)
	}
	ins, _, err := ort.GetInputOutputInfo(m.onnxPath)
	if err != nil {
		b.Fatal(err)
	}
	var names []string
	for _, in := range ins {
		names = append(names, in.Name)
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		b.Fatal(err)
	}
	defer opts.Destroy()
	opts.SetIntraOpNumThreads(Config{}.threads())
	opts.SetInterOpNumThreads(1)
	opts.AddSessionConfigEntry("session.intra_op.allow_spinning", "0") // as Palace does
	sess, err := ort.NewDynamicAdvancedSession(m.onnxPath, names, []string{"last_hidden_state"}, opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { sess.Destroy() })
	return func(texts []string) func() {
		encs, err := m.tok.encodeAll(texts)
		if err != nil {
			b.Fatal(err)
		}
		n, seq := len(encs), len(encs[0].ids)
		data := map[string][]int64{"input_ids": nil, "attention_mask": nil, "token_type_ids": nil}
		for _, e := range encs {
			data["input_ids"] = append(data["input_ids"], e.ids...)
			data["token_type_ids"] = append(data["token_type_ids"], e.types...)
			for range e.ids {
				data["attention_mask"] = append(data["attention_mask"], 1)
			}
		}
		shape := ort.NewShape(int64(n), int64(seq))
		inputs := make([]ort.Value, len(names))
		for k, name := range names {
			t, err := ort.NewTensor(shape, data[name])
			if err != nil {
				b.Fatal(err)
			}
			inputs[k] = t
			b.Cleanup(func() { t.Destroy() })
		}
		out, err := ort.NewEmptyTensor[float32](ort.NewShape(int64(n), int64(seq), int64(m.hidden)))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { out.Destroy() })
		outputs := []ort.Value{out}
		return func() {
			if err := sess.Run(inputs, outputs); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// benchTexts makes batch different texts of exactly tokens ids each, from
// words that are single tokens in the model's vocabulary.
func benchTexts(tb testing.TB, m *model, tokens, batch int) []string {
	tb.Helper()
	var words []string
	for _, w := range strings.Fields(`the of and to in is it that was for on are with as they be at
		have this from or had by not but what some we can out other were all there when up use your how
		said each she which do their time if will way about many then them would like so these her make
		see him two has look more day could go come did number sound no most people my over know water
		than call first who may down side been now find any new work part take get place made live where
		after back little only round man year came show every good me give our under name very through
		just form great think say help low line turn cause much mean before move right boy old too same
		tell does set three want air well also play small end put home read hand port large spell add
		even land here must big high such follow act why ask men change went light kind off need house
		memory palace drawer search query index store vector model token text code file function method`) {
		if e, err := m.tok.encode(w); err == nil && len(e.ids) == 3 {
			words = append(words, w)
		}
	}
	if len(words) < 50 {
		tb.Fatalf("only %d single-token words in the vocabulary", len(words))
	}
	texts := make([]string, batch)
	for i := range texts {
		parts := make([]string, tokens-2)
		for k := range parts {
			parts[k] = words[(i*31+k*7+k/len(words))%len(words)]
		}
		texts[i] = strings.Join(parts, " ")
		if e, _ := m.tok.encode(texts[i]); len(e.ids) != tokens {
			tb.Fatalf("bench text has %d tokens, want %d", len(e.ids), tokens)
		}
	}
	return texts
}

// BenchmarkTokenize measures encodeAll (Palace's BERT normaliser, then
// the WordPiece tokenizer) on batches of bench texts, the part of Palace's
// ORT overhead that the bare loop skips.
//
//	go test -run '^$' -bench Tokenize -cpuprofile /tmp/tok.prof ./core/embed
func BenchmarkTokenize(b *testing.B) {
	dir := tinyDir
	if d := os.Getenv("PALACE_BENCH_MODEL_DIR"); d != "" {
		dir = d
	}
	m, err := loadModel(dir)
	if err != nil {
		b.Fatal(err)
	}
	for _, tokens := range []int{16, 64, 256} {
		for _, batch := range []int{1, 32} {
			b.Run(fmt.Sprintf("tokens=%d/batch=%d", tokens, batch), func(b *testing.B) {
				if tokens > m.maxLen {
					b.Skipf("model %s truncates at %d tokens", dir, m.maxLen)
				}
				texts := benchTexts(b, m, tokens, batch)
				b.ReportAllocs()
				for b.Loop() {
					if _, err := m.tok.encodeAll(texts); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*tokens*batch), "ns/token")
			})
		}
	}
}
