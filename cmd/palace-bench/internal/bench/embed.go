package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"

	sugar "github.com/sugarme/tokenizer"
	"github.com/sugarme/tokenizer/pretrained"
	ort "github.com/yalue/onnxruntime_go"

	"github.com/palace-dev/palace/core/embed"
)

// EmbedOptions configure Embed. The zero value (plus a ModelDir) measures
// both backends at 16, 64 and 256 tokens, batches of 1 and 32.
type EmbedOptions struct {
	// ModelDir is the model folder (model.onnx or onnx/model.onnx,
	// tokenizer.json, config.json).
	ModelDir string
	// Config says where the onnxruntime library is (ORTLib, Home, LibDirs);
	// ModelDir, Backend and Threads are set by Embed.
	Config embed.Config
	// Tokens are the text lengths in tokens, [CLS] and [SEP] included.
	Tokens []int
	// Batches are the numbers of texts per Embed call.
	Batches []int
	// SkipGo leaves out the pure-Go backend (about 40 s per call at 256
	// tokens x 32 on a MiniLM-sized model).
	SkipGo bool
	// Iters is the number of timed calls per backend and cell (default
	// 10). For ort (Palace and bare, interleaved), a cell whose Iters pairs
	// take less than MinCellTime goes on until MinCellTime (at most 100
	// times Iters), so fast cells get stable medians; one that passes
	// CellBudget stops there with at least 3 pairs. go stops after GoBudget
	// with at least one call.
	Iters       int
	MinCellTime time.Duration // default 5 s
	CellBudget  time.Duration // default 20 s
	GoBudget    time.Duration // default 3 s
	// Threads is ONNX Runtime's intra-op thread count for both the Palace
	// session and the bare one; 0 means one per CPU, Palace's default.
	Threads int
	// Progress, if set, gets one line per measured cell.
	Progress io.Writer
}

// Default sizes of `palace bench embed`.
var (
	DefaultEmbedTokens  = []int{16, 64, 256}
	DefaultEmbedBatches = []int{1, 32}
)

// Throughput is one backend's speed on one cell.
type Throughput struct {
	Calls        int     `json:"calls"`          // timed Embed (or session Run) calls
	MsPerCall    float64 `json:"ms_per_call"`    // median
	ChunksPerSec float64 `json:"chunks_per_sec"` // batch / median seconds per call
}

// EmbedCell is one text length x batch size.
type EmbedCell struct {
	Tokens int `json:"tokens"`
	Batch  int `json:"batch"`
	// ORT is Palace's ort backend: Embedder.Embed on the texts (tokenise,
	// pad, run, pool, normalise). Bare is onnxruntime_go alone on the same
	// token ids, with tensors built once, session options as Palace's.
	ORT  *Throughput `json:"ort,omitempty"`
	Bare *Throughput `json:"ort_bare,omitempty"`
	Go   *Throughput `json:"go,omitempty"`
	// OverheadPct is Palace's ORT time over the bare time, minus 1, in
	// percent: the median over the interleaved pairs of calls.
	OverheadPct *float64 `json:"ort_overhead_pct,omitempty"`
	// TokenizeMs is the median time to tokenise the cell's texts with the
	// general-purpose tokenizer library (github.com/sugarme/tokenizer) and
	// the same tokenizer.json, for reference: Palace's own WordPiece path
	// handles plain ASCII far faster and falls back to the library.
	TokenizeMs float64 `json:"tokenize_ms,omitempty"`
	// MinCosine is the lowest cosine similarity between Palace's vectors
	// and the bare run's output mean-pooled: ~1 proves both saw the same ids.
	MinCosine float64 `json:"palace_vs_bare_min_cosine,omitempty"`
	// Skipped says why the cell was not measured (text longer than the
	// model's maximum length).
	Skipped string `json:"skipped,omitempty"`
}

// EmbedReport is what `palace bench embed` prints.
type EmbedReport struct {
	ModelDir  string `json:"model_dir"`
	ModelID   string `json:"model_id"`
	Generated bool   `json:"generated"` // made by scripts/gen_tiny_model.py for this run
	Dim       int    `json:"dim"`
	MaxTokens int    `json:"max_tokens"`
	Cores     int    `json:"cores"`
	Threads   int    `json:"ort_threads"`
	Iters     int    `json:"iters"`
	// ORT and Go are the backends' one-line notices (embed.Choice), or why
	// the backend was not measured.
	ORT     string      `json:"ort"`
	Go      string      `json:"go"`
	HaveORT bool        `json:"have_ort"`
	HaveGo  bool        `json:"have_go"`
	Cells   []EmbedCell `json:"cells"`
	Seconds float64     `json:"seconds"`
}

// Embed measures chunks per second of Palace's embedding backends on the
// model in o.ModelDir, and the overhead of Palace's ORT path over a bare
// onnxruntime_go loop on the same token ids. Texts are built from words
// the model's tokenizer keeps as one token each, so every text has exactly
// the requested number of tokens (checked with the tokenizer). The ort
// backend is skipped, with the reason in the report, when no onnxruntime
// library loads; that is not an error.
func Embed(ctx context.Context, o EmbedOptions) (*EmbedReport, error) {
	start := time.Now()
	if len(o.Tokens) == 0 {
		o.Tokens = DefaultEmbedTokens
	}
	if len(o.Batches) == 0 {
		o.Batches = DefaultEmbedBatches
	}
	if o.Iters <= 0 {
		o.Iters = 10
	}
	if err := checkFlag("bench embed", "iters", o.Iters); err != nil {
		return nil, fmt.Errorf("bench embed: %w", err)
	}
	if o.MinCellTime <= 0 {
		o.MinCellTime = 5 * time.Second
	}
	if o.CellBudget <= 0 {
		o.CellBudget = 20 * time.Second
	}
	if o.GoBudget <= 0 {
		o.GoBudget = 3 * time.Second
	}
	if o.Threads <= 0 {
		o.Threads = runtime.NumCPU()
	}
	progress := o.Progress
	if progress == nil {
		progress = io.Discard
	}
	mf, err := readBenchModel(o.ModelDir)
	if err != nil {
		return nil, err
	}
	r := &EmbedReport{ModelDir: o.ModelDir, MaxTokens: mf.maxTokens, Cores: runtime.NumCPU(), Threads: o.Threads, Iters: o.Iters}
	inputs := map[[2]int]*benchInput{}
	for _, tokens := range o.Tokens {
		for _, batch := range o.Batches {
			c := EmbedCell{Tokens: tokens, Batch: batch}
			switch {
			case tokens < 3 || batch < 1:
				return nil, fmt.Errorf("bench embed: bad cell %d tokens x %d texts (want at least 3 tokens, 1 text)", tokens, batch)
			case tokens > mf.maxTokens:
				c.Skipped = fmt.Sprintf("the model truncates at %d tokens", mf.maxTokens)
			default:
				in, err := mf.texts(tokens, batch)
				if err != nil {
					return nil, err
				}
				inputs[[2]int{tokens, batch}] = in
			}
			r.Cells = append(r.Cells, c)
		}
	}

	cfg := o.Config
	cfg.ModelDir, cfg.Threads = o.ModelDir, o.Threads

	// ort first, then go: never two backends on the cores at once.
	cfg.Backend = embed.BackendORT
	e, choice, err := embed.Open(cfg)
	switch {
	case err != nil:
		r.ORT = "not measured: " + choice.Reason
	case e == nil:
		r.ORT = "not measured: " + choice.Reason
	default:
		r.HaveORT, r.ORT, r.ModelID, r.Dim = true, choice.String(), e.ModelID(), e.Dim()
		err := measureORT(ctx, e, mf, o, r, inputs, progress)
		e.Close()
		if err != nil {
			return nil, err
		}
	}

	if o.SkipGo {
		r.Go = "not measured: --skip-go"
	} else {
		cfg.Backend = embed.BackendGo
		e, choice, err := embed.Open(cfg)
		if err != nil || e == nil {
			return nil, fmt.Errorf("bench embed: go backend: %s", choice.Reason)
		}
		r.HaveGo, r.Go, r.ModelID, r.Dim = true, choice.String(), e.ModelID(), e.Dim()
		err = measureGo(ctx, e, o, r, inputs, progress)
		e.Close()
		if err != nil {
			return nil, err
		}
	}
	if !r.HaveORT && !r.HaveGo {
		return nil, fmt.Errorf("bench embed: nothing to measure: %s; %s", r.ORT, r.Go)
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

func measureORT(ctx context.Context, e embed.Embedder, mf *benchModel, o EmbedOptions, r *EmbedReport, inputs map[[2]int]*benchInput, progress io.Writer) error {
	// Palace's Open has brought up the process-wide ONNX Runtime
	// environment; the bare session lives in it too.
	bare, err := newBareSession(mf.onnxPath, o.Threads)
	if err != nil {
		return fmt.Errorf("bench embed: bare onnxruntime session: %w", err)
	}
	defer bare.close()
	for i := range r.Cells {
		c := &r.Cells[i]
		in := inputs[[2]int{c.Tokens, c.Batch}]
		if in == nil {
			continue
		}
		run, err := bare.prepare(in)
		if err != nil {
			return fmt.Errorf("bench embed: bare run at %d tokens x %d: %w", c.Tokens, c.Batch, err)
		}
		palace := func() error {
			_, err := e.Embed(ctx, in.texts)
			return err
		}
		// Warm up both, then check that they saw the same token ids.
		vecs, err := e.Embed(ctx, in.texts)
		if err != nil {
			run.close()
			return fmt.Errorf("bench embed: ort at %d tokens x %d: %w", c.Tokens, c.Batch, err)
		}
		if err := run.run(); err != nil {
			run.close()
			return fmt.Errorf("bench embed: bare run at %d tokens x %d: %w", c.Tokens, c.Batch, err)
		}
		c.MinCosine = run.minCosine(vecs)
		if c.MinCosine < 0.999 {
			run.close()
			return fmt.Errorf("bench embed: at %d tokens x %d Palace's vectors differ from the bare run's (cosine %.6f): the two did not see the same inputs", c.Tokens, c.Batch, c.MinCosine)
		}
		// Interleaved, alternating which goes first, so that load from
		// other processes and cache effects hit both alike.
		var tp, tb []time.Duration
		cellStart := time.Now()
		for k := 0; ; k++ {
			el := time.Since(cellStart)
			if (k >= o.Iters && el >= o.MinCellTime) || k >= 100*o.Iters || (k >= min(3, o.Iters) && el >= o.CellBudget) {
				break
			}
			if err := ctx.Err(); err != nil {
				run.close()
				return err
			}
			first, second := palace, run.run
			if k%2 == 1 {
				first, second = run.run, palace
			}
			t0 := time.Now()
			if err := first(); err != nil {
				run.close()
				return fmt.Errorf("bench embed: at %d tokens x %d: %w", c.Tokens, c.Batch, err)
			}
			t1 := time.Now()
			if err := second(); err != nil {
				run.close()
				return fmt.Errorf("bench embed: at %d tokens x %d: %w", c.Tokens, c.Batch, err)
			}
			t2 := time.Now()
			if k%2 == 0 {
				tp, tb = append(tp, t1.Sub(t0)), append(tb, t2.Sub(t1))
			} else {
				tb, tp = append(tb, t1.Sub(t0)), append(tp, t2.Sub(t1))
			}
		}
		run.close()
		c.ORT, c.Bare = throughput(tp, c.Batch), throughput(tb, c.Batch)
		// The overhead is the median over pairs of palace/bare: load from
		// other processes that lasts longer than a pair slows both sides
		// alike and cancels, where it would skew one side's median.
		ratios := make([]float64, len(tp))
		for k := range tp {
			ratios[k] = float64(tp[k]) / float64(tb[k])
		}
		pct := 100 * (median(ratios) - 1)
		c.OverheadPct = &pct
		// What tokenising alone costs, for reading the overhead.
		var tt []time.Duration
		for range min(len(tp), 50) {
			t0 := time.Now()
			for _, text := range in.texts {
				if _, err := mf.encode(text); err != nil {
					return err
				}
			}
			tt = append(tt, time.Since(t0))
		}
		c.TokenizeMs = throughput(tt, c.Batch).MsPerCall
		fmt.Fprintf(progress, "ort %3d tokens x %2d: palace %9.2f ms  bare %9.2f ms  overhead %+6.1f %%  tokenize %7.2f ms  (%d calls)\n",
			c.Tokens, c.Batch, c.ORT.MsPerCall, c.Bare.MsPerCall, pct, c.TokenizeMs, c.ORT.Calls)
	}
	return nil
}

func measureGo(ctx context.Context, e embed.Embedder, o EmbedOptions, r *EmbedReport, inputs map[[2]int]*benchInput, progress io.Writer) error {
	for i := range r.Cells {
		c := &r.Cells[i]
		in := inputs[[2]int{c.Tokens, c.Batch}]
		if in == nil {
			continue
		}
		// The warm-up compiles the padded shape once (gomlx JIT).
		if _, err := e.Embed(ctx, in.texts); err != nil {
			return fmt.Errorf("bench embed: go at %d tokens x %d: %w", c.Tokens, c.Batch, err)
		}
		var ts []time.Duration
		cellStart := time.Now()
		for k := 0; k < o.Iters; k++ {
			if k >= 1 && time.Since(cellStart) > o.GoBudget {
				break
			}
			t0 := time.Now()
			if _, err := e.Embed(ctx, in.texts); err != nil {
				return fmt.Errorf("bench embed: go at %d tokens x %d: %w", c.Tokens, c.Batch, err)
			}
			ts = append(ts, time.Since(t0))
		}
		c.Go = throughput(ts, c.Batch)
		fmt.Fprintf(progress, "go  %3d tokens x %2d: %9.2f ms  (%d calls)\n", c.Tokens, c.Batch, c.Go.MsPerCall, c.Go.Calls)
	}
	return nil
}

func throughput(ts []time.Duration, batch int) *Throughput {
	ms := make([]float64, len(ts))
	for i, t := range ts {
		ms[i] = float64(t.Nanoseconds()) / 1e6
	}
	med := median(ms)
	t := &Throughput{Calls: len(ts), MsPerCall: med}
	if med > 0 {
		t.ChunksPerSec = float64(batch) / (med / 1000)
	}
	return t
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// benchModel is what the benchmark reads from a model folder itself: the
// graph's path, the longest input, and a tokenizer to build and check texts.
type benchModel struct {
	onnxPath  string
	maxTokens int
	tk        *sugar.Tokenizer
	words     []string // vocabulary words that encode to exactly one token
}

// benchInput is one cell's texts and the token ids the tokenizer gave them.
type benchInput struct {
	tokens, batch int
	texts         []string
	ids           [][]int64
}

func readBenchModel(dir string) (*benchModel, error) {
	if dir == "" {
		return nil, errors.New("bench embed: no model folder")
	}
	m := &benchModel{}
	for _, rel := range []string{"model.onnx", filepath.Join("onnx", "model.onnx")} {
		if st, err := os.Stat(filepath.Join(dir, rel)); err == nil && st.Mode().IsRegular() {
			m.onnxPath = filepath.Join(dir, rel)
			break
		}
	}
	if m.onnxPath == "" {
		return nil, fmt.Errorf("bench embed: %s has no model.onnx or onnx/model.onnx", dir)
	}
	var cfg struct {
		MaxPos int `json:"max_position_embeddings"`
	}
	if err := readJSON(filepath.Join(dir, "config.json"), &cfg); err != nil {
		return nil, err
	}
	m.maxTokens = cfg.MaxPos
	var st struct {
		MaxSeq int `json:"max_seq_length"`
	}
	if err := readJSON(filepath.Join(dir, "sentence_bert_config.json"), &st); err == nil && st.MaxSeq > 0 {
		m.maxTokens = min(m.maxTokens, st.MaxSeq)
	}

	tokPath := filepath.Join(dir, "tokenizer.json")
	raw, err := os.ReadFile(tokPath)
	if err != nil {
		return nil, fmt.Errorf("bench embed: %w", err)
	}
	var doc struct {
		Model struct {
			Vocab map[string]int `json:"vocab"`
		} `json:"model"`
		Truncation *struct {
			MaxLength int `json:"max_length"`
		} `json:"truncation"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("bench embed: %s: %w", tokPath, err)
	}
	if doc.Truncation != nil && doc.Truncation.MaxLength > 0 {
		m.maxTokens = min(m.maxTokens, doc.Truncation.MaxLength)
	}
	if err := catchPanic(func() error {
		m.tk, err = pretrained.FromReader(bytes.NewReader(raw))
		return err
	}); err != nil {
		return nil, fmt.Errorf("bench embed: load %s: %w", tokPath, err)
	}
	// Plain lower-case vocabulary words, in id order (the generator puts
	// real English words first), kept when they encode to one token.
	type entry struct {
		w  string
		id int
	}
	var cands []entry
	plain := regexp.MustCompile(`^[a-z]{2,12}$`)
	for w, id := range doc.Model.Vocab {
		if plain.MatchString(w) {
			cands = append(cands, entry{w, id})
		}
	}
	sort.Slice(cands, func(a, b int) bool { return cands[a].id < cands[b].id })
	for _, c := range cands {
		ids, err := m.encode(c.w)
		if err == nil && len(ids) == 3 && ids[1] == int64(c.id) {
			m.words = append(m.words, c.w)
			if len(m.words) == 500 {
				break
			}
		}
	}
	if len(m.words) < 20 {
		return nil, fmt.Errorf("bench embed: only %d vocabulary words of %s encode to one token; is it a WordPiece (BERT) tokenizer?", len(m.words), tokPath)
	}
	return m, nil
}

func readJSON(path string, v any) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("bench embed: %w", err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("bench embed: %s: %w", path, err)
	}
	return nil
}

// encode tokenises text with special tokens.
func (m *benchModel) encode(text string) ([]int64, error) {
	var enc *sugar.Encoding
	if err := catchPanic(func() (err error) {
		enc, err = m.tk.EncodeSingle(text, true)
		return err
	}); err != nil {
		return nil, err
	}
	ids := make([]int64, len(enc.Ids))
	for i, id := range enc.Ids {
		ids[i] = int64(id)
	}
	return ids, nil
}

// texts makes batch different texts of exactly tokens tokens each, from a
// fixed seed, and checks the count with the tokenizer.
func (m *benchModel) texts(tokens, batch int) (*benchInput, error) {
	rng := rand.New(rand.NewPCG(uint64(tokens), uint64(batch)))
	in := &benchInput{tokens: tokens, batch: batch}
	for range batch {
		parts := make([]string, tokens-2)
		for k := range parts {
			parts[k] = m.words[rng.IntN(len(m.words))]
		}
		text := strings.Join(parts, " ")
		ids, err := m.encode(text)
		if err != nil {
			return nil, fmt.Errorf("bench embed: tokenize: %w", err)
		}
		if len(ids) != tokens {
			return nil, fmt.Errorf("bench embed: a %d-word text has %d tokens, want %d", len(parts), len(ids), tokens)
		}
		in.texts = append(in.texts, text)
		in.ids = append(in.ids, ids)
	}
	return in, nil
}

// bareSession is onnxruntime_go alone: the session options Palace uses
// (intra-op threads, one inter-op thread, no spinning), nothing else.
type bareSession struct {
	sess    *ort.DynamicAdvancedSession
	inputs  []string
	output  string
	threads int
}

func newBareSession(onnxPath string, threads int) (*bareSession, error) {
	if !ort.IsInitialized() {
		return nil, errors.New("onnxruntime is not initialised")
	}
	ins, outs, err := ort.GetInputOutputInfo(onnxPath)
	if err != nil {
		return nil, err
	}
	b := &bareSession{threads: threads}
	for _, in := range ins {
		b.inputs = append(b.inputs, in.Name)
	}
	for _, want := range []string{"last_hidden_state", "token_embeddings", "sentence_embedding"} {
		for _, out := range outs {
			if out.Name == want && b.output == "" {
				b.output = want
			}
		}
	}
	if b.output == "" && len(outs) > 0 {
		b.output = outs[0].Name
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	defer opts.Destroy()
	if err := errors.Join(
		opts.SetIntraOpNumThreads(threads),
		opts.SetInterOpNumThreads(1),
		opts.AddSessionConfigEntry("session.intra_op.allow_spinning", "0"),
	); err != nil {
		return nil, err
	}
	b.sess, err = ort.NewDynamicAdvancedSession(onnxPath, b.inputs, []string{b.output}, opts)
	if err != nil {
		return nil, err
	}
	return b, nil
}

func (b *bareSession) close() { b.sess.Destroy() }

// bareRun holds one cell's tensors, built once.
type bareRun struct {
	b       *bareSession
	in      *benchInput
	tensors []ort.Value
	out     []ort.Value
}

// prepare builds the input tensors for in and, after one run that lets
// ONNX Runtime size the output, an output tensor reused by every run.
func (b *bareSession) prepare(in *benchInput) (*bareRun, error) {
	r := &bareRun{b: b, in: in, out: []ort.Value{nil}}
	n, seq := len(in.ids), in.tokens
	data := map[string][]int64{"input_ids": make([]int64, 0, n*seq), "attention_mask": make([]int64, 0, n*seq), "token_type_ids": make([]int64, n*seq)}
	for _, ids := range in.ids {
		data["input_ids"] = append(data["input_ids"], ids...)
		for range ids {
			data["attention_mask"] = append(data["attention_mask"], 1)
		}
	}
	shape := ort.NewShape(int64(n), int64(seq))
	for _, name := range b.inputs {
		d, ok := data[name]
		if !ok {
			r.close()
			return nil, fmt.Errorf("unsupported model input %q", name)
		}
		t, err := ort.NewTensor(shape, d)
		if err != nil {
			r.close()
			return nil, err
		}
		r.tensors = append(r.tensors, t)
	}
	if err := b.sess.Run(r.tensors, r.out); err != nil {
		r.close()
		return nil, err
	}
	got, ok := r.out[0].(*ort.Tensor[float32])
	if !ok {
		r.close()
		return nil, fmt.Errorf("output %q is %T, want a float32 tensor", b.output, r.out[0])
	}
	outShape := got.GetShape().Clone()
	got.Destroy()
	t, err := ort.NewEmptyTensor[float32](outShape)
	if err != nil {
		r.out[0] = nil
		r.close()
		return nil, err
	}
	r.out[0] = t
	return r, nil
}

func (r *bareRun) run() error { return r.b.sess.Run(r.tensors, r.out) }

func (r *bareRun) close() {
	for _, v := range append(r.tensors, r.out...) {
		if v != nil {
			v.Destroy()
		}
	}
}

// minCosine compares Palace's vectors with the last bare output, averaged
// over each text's tokens (every mask position is 1: no padding).
func (r *bareRun) minCosine(vecs [][]float32) float64 {
	t := r.out[0].(*ort.Tensor[float32])
	data, shape := t.GetData(), t.GetShape()
	worst := 1.0
	for i, v := range vecs {
		dim := len(v)
		var pooled []float64
		switch len(shape) {
		case 3:
			seq := int(shape[1])
			if int(shape[2]) != dim {
				return 0
			}
			pooled = make([]float64, dim)
			for s := range seq {
				row := data[(i*seq+s)*dim : (i*seq+s+1)*dim]
				for k, x := range row {
					pooled[k] += float64(x)
				}
			}
		case 2:
			if int(shape[1]) != dim {
				return 0
			}
			pooled = make([]float64, dim)
			for k, x := range data[i*dim : (i+1)*dim] {
				pooled[k] = float64(x)
			}
		default:
			return 0
		}
		var dot, nn, pp float64
		for k := range dim {
			dot += pooled[k] * float64(v[k])
			nn += float64(v[k]) * float64(v[k])
			pp += pooled[k] * pooled[k]
		}
		worst = min(worst, dot/math.Sqrt(nn*pp))
	}
	return worst
}

// catchPanic runs f, turning a panic into an error (sugarme panics on
// malformed tokenizer files).
func catchPanic(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return f()
}

// GeneratorScript is the MiniLM-shaped model generator, relative to the
// repository root.
const GeneratorScript = "scripts/gen_tiny_model.py"

// ErrNoGenerator says a model cannot be generated here.
var ErrNoGenerator = errors.New("give --model-dir DIR or install python3-onnx python3-numpy")

// FindGenerator looks for scripts/gen_tiny_model.py in the working
// directory and its parents, then next to the executable (bin/palace in a
// checkout), and for a python3 that imports onnx and numpy (the one on
// PATH, then Debian's /usr/bin/python3).
func FindGenerator(ctx context.Context) (python, script string, err error) {
	var roots []string
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			roots = append(roots, d)
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		roots = append(roots, filepath.Dir(exe), filepath.Dir(filepath.Dir(exe)))
	}
	for _, r := range roots {
		p := filepath.Join(r, GeneratorScript)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			script = p
			break
		}
	}
	if script == "" {
		return "", "", fmt.Errorf("%s not found from the working directory or the executable (run from a Palace checkout): %w", GeneratorScript, ErrNoGenerator)
	}
	var tried []string
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		path, err := exec.LookPath(py)
		if err != nil || slices.Contains(tried, path) {
			continue
		}
		tried = append(tried, path)
		if exec.CommandContext(ctx, path, "-c", "import onnx, numpy").Run() == nil {
			return path, script, nil
		}
	}
	if len(tried) == 0 {
		return "", "", fmt.Errorf("no python3: %w", ErrNoGenerator)
	}
	return "", "", fmt.Errorf("no python3 that imports onnx and numpy (tried %s): %w", strings.Join(tried, ", "), ErrNoGenerator)
}

// GenerateMiniLM writes a MiniLM-shaped random-weight model (about 90 MB)
// into dir with `python3 scripts/gen_tiny_model.py --minilm --out dir`,
// python and script as FindGenerator found them.
func GenerateMiniLM(ctx context.Context, python, script, dir string) error {
	cmd := exec.CommandContext(ctx, python, script, "--minilm", "--out", dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s %s --minilm: %w: %s", python, script, err, strings.TrimSpace(string(out)))
	}
	return nil
}
