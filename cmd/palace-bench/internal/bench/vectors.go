package bench

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

// VectorsOptions configure Vectors. Zero fields take the defaults of
// `palace bench vectors`.
type VectorsOptions struct {
	Sizes   []int // palace sizes in drawers, measured in increasing order
	Dim     int   // vector dimension
	Wings   int   // drawers are spread evenly over this many wings
	Queries int   // timed queries per measurement
	Depth   int   // hits per side, as hybrid search takes (50)
	Seed    uint64
	// TmpDir holds the temporary palace ("" is the system default).
	TmpDir   string
	Progress io.Writer
}

// Defaults of `palace bench vectors`.
var DefaultVectorSizes = []int{10_000, 100_000}

const (
	DefaultVectorDim     = 384
	DefaultVectorWings   = 10
	DefaultVectorQueries = 100
	DefaultVectorSeed    = 20261129
	// HybridDepth is how many hits each side of hybrid search contributes
	// (core/search's hybridDepth for the default limit of 10).
	HybridDepth = 50
)

// SearchLatency is the latency of each half of hybrid search and of the
// two together, per query, in one scope.
type SearchLatency struct {
	// KNN is store.SearchVector for the depth nearest vectors.
	KNN Latency `json:"knn"`
	// BM25 is search.Run in lexical mode with limit depth: routing, the
	// all-terms then any-term FTS5 queries, snippets, hit conversion.
	BM25 Latency `json:"bm25"`
	// Hybrid is BM25 then KNN for the same query, back to back: hybrid
	// search without the query embedding and without the reciprocal rank
	// fusion of the two lists (unexported; microseconds for 100 hits).
	Hybrid Latency `json:"hybrid"`
}

// VectorsSize is one palace size.
type VectorsSize struct {
	Drawers int `json:"drawers"`
	// InsertSeconds and VectorSeconds are the time to grow the palace to
	// this size from the previous one: drawers (with their FTS rows) by
	// store.InsertDrawers, vectors by store.PendingVectors + PutVectors.
	InsertSeconds float64 `json:"insert_seconds"`
	VectorSeconds float64 `json:"vector_seconds"`
	DBBytes       int64   `json:"db_bytes"`
	// All searches the whole palace; Wing searches inside one wing (the
	// wing is the vector table's partition key), a different wing for each
	// query in turn.
	All  SearchLatency `json:"all"`
	Wing SearchLatency `json:"wing"`
}

// VectorsReport is what `palace bench vectors` prints.
type VectorsReport struct {
	Dim     int    `json:"dim"`
	Wings   int    `json:"wings"`
	Queries int    `json:"queries"`
	Depth   int    `json:"depth"`
	Seed    uint64 `json:"seed"`
	Cores   int    `json:"cores"`
	// Workload describes the synthetic drawers and queries in one line.
	Workload string        `json:"workload"`
	Sizes    []VectorsSize `json:"sizes"`
	Seconds  float64       `json:"seconds"`
}

// benchVecModel is the model id the synthetic vectors are stored under.
const benchVecModel = "bench-random"

// withDefaults fills the fields left zero; a negative one stays, for
// Check to refuse.
func (o VectorsOptions) withDefaults() VectorsOptions {
	if len(o.Sizes) == 0 {
		o.Sizes = DefaultVectorSizes
	}
	if o.Dim == 0 {
		o.Dim = DefaultVectorDim
	}
	if o.Wings == 0 {
		o.Wings = DefaultVectorWings
	}
	if o.Queries == 0 {
		o.Queries = DefaultVectorQueries
	}
	if o.Depth <= 0 {
		o.Depth = HybridDepth
	}
	if o.Seed == 0 {
		o.Seed = DefaultVectorSeed
	}
	return o
}

// Vectors builds a temporary palace of synthetic drawers (text drawn from a
// fixed pseudo-word vocabulary with Zipf frequencies, so FTS5 has realistic
// posting lists, and random unit vectors; no model is needed), grows it
// through each size in turn, and at each size times KNN, BM25 and the two
// together (hybrid search minus the query embedding), over the whole palace
// and inside one wing. Everything comes from o.Seed.
func Vectors(ctx context.Context, o VectorsOptions) (*VectorsReport, error) {
	start := time.Now()
	if err := o.Check(); err != nil {
		return nil, fmt.Errorf("bench vectors: %w", err)
	}
	o = o.withDefaults()
	progress := o.Progress
	if progress == nil {
		progress = io.Discard
	}
	sizes := slices.Clone(o.Sizes)
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)

	home, err := os.MkdirTemp(o.TmpDir, "palace-bench-vectors-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(home)
	// No model: the vectors are synthetic, and nothing here embeds.
	p, err := palace.Open(home, palace.Options{Embed: &embed.Config{Backend: embed.BackendNone}})
	if err != nil {
		return nil, err
	}
	defer p.Close()
	if _, err := p.Store.EnsureVectors(ctx, benchVecModel, o.Dim); err != nil {
		return nil, err
	}

	g := newSynth(o)
	qs := g.queries(o.Queries)
	r := &VectorsReport{Dim: o.Dim, Wings: o.Wings, Queries: o.Queries, Depth: o.Depth, Seed: o.Seed, Cores: runtime.NumCPU(), Workload: synthWorkload}
	have := 0
	for _, n := range sizes {
		sz := VectorsSize{Drawers: n}
		t := time.Now()
		if err := g.insert(ctx, p.Store, have, n); err != nil {
			return nil, err
		}
		sz.InsertSeconds = time.Since(t).Seconds()
		t = time.Now()
		if err := g.fillVectors(ctx, p.Store); err != nil {
			return nil, err
		}
		sz.VectorSeconds = time.Since(t).Seconds()
		have = n
		st, err := p.Store.Status(ctx)
		if err != nil {
			return nil, err
		}
		if st.Drawers != n {
			return nil, fmt.Errorf("bench vectors: the palace holds %d drawers, want %d", st.Drawers, n)
		}
		sz.DBBytes = st.DBBytes
		fmt.Fprintf(progress, "%d drawers: insert %.1fs, vectors %.1fs, %.0f MB\n", n, sz.InsertSeconds, sz.VectorSeconds, float64(sz.DBBytes)/1e6)
		for _, scope := range []struct {
			name string
			out  *SearchLatency
			wing bool
		}{{"all", &sz.All, false}, {"one wing", &sz.Wing, true}} {
			if *scope.out, err = timeSearches(ctx, p, qs, g.wings, scope.wing, o.Depth); err != nil {
				return nil, err
			}
			l := scope.out
			fmt.Fprintf(progress, "  %-8s knn p50 %.2f p95 %.2f ms; bm25 p50 %.2f p95 %.2f ms; hybrid p50 %.2f p95 %.2f ms\n",
				scope.name, l.KNN.P50, l.KNN.P95, l.BM25.P50, l.BM25.P95, l.Hybrid.P50, l.Hybrid.P95)
		}
		r.Sizes = append(r.Sizes, sz)
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

type benchQuery struct {
	text string
	vec  []float32
}

// timeSearches runs every query once untimed (so the page cache is the
// same for each), then once timed: BM25 through search.Run in lexical mode,
// then KNN, for the same query and filter.
func timeSearches(ctx context.Context, p *palace.Palace, qs []benchQuery, wings []string, inWing bool, depth int) (SearchLatency, error) {
	var knn, lex, both []float64
	hitsK, hitsL := 0, 0
	for pass := range 2 {
		for i, q := range qs {
			f := store.Filter{}
			if inWing {
				f.Wing = wings[i%len(wings)]
			}
			t0 := time.Now()
			res, err := search.Run(ctx, p, search.Request{Query: q.text, Filter: f, Limit: depth, Mode: search.ModeLexical})
			if err != nil {
				return SearchLatency{}, err
			}
			t1 := time.Now()
			vs, err := p.Store.SearchVector(ctx, q.vec, f, depth)
			if err != nil {
				return SearchLatency{}, err
			}
			t2 := time.Now()
			if pass == 0 {
				continue
			}
			lex = append(lex, msBetween(t0, t1))
			knn = append(knn, msBetween(t1, t2))
			both = append(both, msBetween(t0, t2))
			hitsL += len(res.Hits)
			hitsK += len(vs)
		}
	}
	return SearchLatency{KNN: latency(knn, hitsK), BM25: latency(lex, hitsL), Hybrid: latency(both, hitsK+hitsL)}, nil
}

func msBetween(a, b time.Time) float64 { return float64(b.Sub(a).Nanoseconds()) / 1e6 }

// latency summarises times in ms as `bench mine` does: p50 is the middle
// value, p95 the value 95 % of the queries do not exceed.
func latency(ms []float64, hits int) Latency {
	s := slices.Clone(ms)
	slices.Sort(s)
	l := Latency{Queries: len(s), Hits: hits}
	if len(s) > 0 {
		l.P50 = s[len(s)/2]
		l.P95 = s[(len(s)*95+99)/100-1]
		l.Max = s[len(s)-1]
	}
	return l
}

const synthWorkload = "drawers of 40-120 words drawn with Zipf frequencies (s = 1.1) from 4,000 pseudo-words, " +
	"5 rooms per wing; queries of 2-3 words drawn uniformly from the 20th-2,000th most frequent; random unit vectors"

// synth makes the synthetic palace: drawer i's text, wing and vector
// depend only on the seed and i, so a palace grown in steps equals one
// built at once.
type synth struct {
	seed  uint64
	dim   int
	wings []string
	words []string
}

func newSynth(o VectorsOptions) *synth {
	g := &synth{seed: o.Seed, dim: o.Dim}
	for w := range o.Wings {
		g.wings = append(g.wings, fmt.Sprintf("wing%02d", w+1))
	}
	// 4,000 pronounceable pseudo-words: none is an English stop word, so
	// every query term reaches FTS5.
	rng := rand.New(rand.NewPCG(o.Seed, 1))
	cons, vows := "bcdfghjklmnprstvz", "aeiou"
	seen := map[string]bool{}
	for len(g.words) < 4000 {
		var b strings.Builder
		for range 2 + rng.IntN(2) {
			b.WriteByte(cons[rng.IntN(len(cons))])
			b.WriteByte(vows[rng.IntN(len(vows))])
		}
		if rng.IntN(3) == 0 {
			b.WriteByte(cons[rng.IntN(len(cons))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			g.words = append(g.words, w)
		}
	}
	return g
}

// drawer is drawer i: 40 to 120 words with Zipf word frequencies (s = 1.1),
// in wing i mod W, one of five rooms.
func (g *synth) drawer(i int) store.Drawer {
	rng := rand.New(rand.NewPCG(g.seed, uint64(i)+2))
	zipf := rand.NewZipf(rng, 1.1, 2, uint64(len(g.words)-1))
	n := 40 + rng.IntN(81)
	parts := make([]string, n)
	for k := range parts {
		parts[k] = g.words[zipf.Uint64()]
	}
	content := strings.Join(parts, " ")
	wing := g.wings[i%len(g.wings)]
	source := fmt.Sprintf("bench/%s/doc%07d.txt", wing, i)
	h := store.ContentHash(content)
	return store.Drawer{
		ID: store.DrawerID(wing, source, 0, h), Wing: wing, Room: fmt.Sprintf("room%d", (i/len(g.wings))%5),
		Kind: store.KindNote, Source: source, Content: content, ContentHash: h,
	}
}

// vector is a random unit vector from seed s.
func (g *synth) vector(s uint64) []float32 {
	rng := rand.New(rand.NewPCG(g.seed^0x9e3779b97f4a7c15, s))
	v := make([]float64, g.dim)
	var ss float64
	for k := range v {
		v[k] = rng.NormFloat64()
		ss += v[k] * v[k]
	}
	norm := math.Sqrt(ss)
	out := make([]float32, g.dim)
	for k, x := range v {
		out[k] = float32(x / norm)
	}
	return out
}

// queries are two or three words drawn uniformly from the 20th to the
// 2,000th most frequent words (no near-universal terms, no hapaxes), and a
// random unit vector each.
func (g *synth) queries(n int) []benchQuery {
	rng := rand.New(rand.NewPCG(g.seed, 0))
	qs := make([]benchQuery, n)
	for i := range qs {
		k := 2 + rng.IntN(2)
		ws := make([]string, k)
		for j := range ws {
			ws[j] = g.words[20+rng.IntN(1980)]
		}
		qs[i] = benchQuery{text: strings.Join(ws, " "), vec: g.vector(uint64(1<<40 + i))}
	}
	return qs
}

// insert adds drawers from..to-1 in transactions of 5,000.
func (g *synth) insert(ctx context.Context, st *store.Store, from, to int) error {
	const batch = 5000
	for lo := from; lo < to; lo += batch {
		hi := min(lo+batch, to)
		ds := make([]store.Drawer, 0, hi-lo)
		for i := lo; i < hi; i++ {
			ds = append(ds, g.drawer(i))
		}
		n, err := st.InsertDrawers(ctx, ds)
		if err != nil {
			return err
		}
		if n != len(ds) {
			return fmt.Errorf("bench vectors: inserted %d of %d drawers", n, len(ds))
		}
	}
	return nil
}

// fillVectors gives every drawer without one its vector, in transactions
// of 2,000, the way `palace reindex` pages through pending drawers.
func (g *synth) fillVectors(ctx context.Context, st *store.Store) error {
	var after int64
	for {
		ps, err := st.PendingVectors(ctx, benchVecModel, after, 2000)
		if err != nil {
			return err
		}
		if len(ps) == 0 {
			return nil
		}
		vecs := make([][]float32, len(ps))
		for k, pv := range ps {
			vecs[k] = g.vector(uint64(pv.Seq))
		}
		n, err := st.PutVectors(ctx, benchVecModel, ps, vecs)
		if err != nil {
			return err
		}
		if n != len(ps) {
			return fmt.Errorf("bench vectors: stored %d of %d vectors", n, len(ps))
		}
		after = ps[len(ps)-1].Seq
	}
}
