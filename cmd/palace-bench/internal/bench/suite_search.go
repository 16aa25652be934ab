package bench

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"time"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

// SuiteSearch says how the search palaces were built and queried.
type SuiteSearch struct {
	Corpus  string            `json:"corpus"`
	Vectors string            `json:"vectors"`
	Queries int               `json:"queries"`
	Wings   int               `json:"wings"`
	Sizes   []SuiteSearchSize `json:"sizes"`
}

// SuiteSearchSize is one search palace.
type SuiteSearchSize struct {
	Drawers int `json:"drawers"`
	// Distinct is how many distinct drawers of the mined palace it holds:
	// when the mined palace is smaller than the size, drawers repeat under
	// new source names, each copy's content marked as one.
	Distinct     int     `json:"distinct"`
	BuildSeconds float64 `json:"build_seconds"` // grown from the previous size
	DBMB         float64 `json:"db_mb"`
	// Lexical is search.Run in lexical mode with the default limit over
	// the whole palace, as `palace search` without a model.
	Lexical         Latency `json:"lexical"`
	QueriesWithHits int     `json:"lexical_queries_with_hits"`
	// Hybrid and HybridWing are bench vectors' measure over the whole
	// palace and inside one wing (a different wing per query): BM25 at
	// depth 50, then the 50 nearest vectors; no query embedding, no fusion.
	Hybrid     SearchLatency `json:"hybrid"`
	HybridWing SearchLatency `json:"hybrid_wing"`
}

// search builds one palace per size from the mined palace's drawers, grown
// size by size, and times the built-in queries on it.
func (s *suiteRun) search(ctx context.Context) error {
	ds, rooms, err := s.minedDrawers(ctx)
	if err != nil {
		return err
	}
	// Whole files go to one wing, files dealt round-robin in path order,
	// over as many wings as bench vectors uses: hybrid search inside a wing
	// scans only that wing's vectors.
	fileWing := map[string]string{}
	var wings []string
	for w := range DefaultVectorWings {
		wings = append(wings, fmt.Sprintf("%s%02d", s.mined.wing, w+1))
	}
	for _, d := range ds {
		if _, ok := fileWing[d.Source]; !ok {
			fileWing[d.Source] = wings[len(fileWing)%DefaultVectorWings]
		}
	}
	order := rand.New(rand.NewPCG(DefaultVectorSeed, 3)).Perm(len(ds))

	home := filepath.Join(s.tmp, "search")
	p, err := palace.Open(home, palace.Options{Embed: &embed.Config{Backend: embed.BackendNone}})
	if err != nil {
		return err
	}
	defer p.Close()
	if _, err := p.Store.EnsureVectors(ctx, benchVecModel, DefaultVectorDim); err != nil {
		return err
	}
	for _, w := range wings {
		rs := make([]store.Room, len(rooms))
		for i, r := range rooms {
			r.Wing = w
			rs[i] = r
		}
		if err := p.Store.ReplaceTaxonomy(ctx, w, rs); err != nil {
			return err
		}
	}
	g := newSynth(VectorsOptions{Dim: DefaultVectorDim, Wings: 1, Seed: DefaultVectorSeed})
	texts := Queries()
	if s.o.Quick {
		texts = texts[:20]
	}
	qs := make([]benchQuery, len(texts))
	for i, q := range texts {
		qs[i] = benchQuery{text: q, vec: g.vector(uint64(1<<40 + i))}
	}
	out := &SuiteSearch{
		Corpus: fmt.Sprintf("drawers of the mined palace of %s (%d), in a seeded random order, each file's drawers in one of %d wings, the mined rooms copied to each wing",
			s.o.Src, len(ds), DefaultVectorWings),
		Vectors: fmt.Sprintf("random unit vectors of dimension %d (model id %s; no model, so hybrid excludes the query embedding: see embed.ort_16x1_ms)", DefaultVectorDim, benchVecModel),
		Queries: len(qs), Wings: DefaultVectorWings,
	}
	have := 0
	for _, n := range s.o.Sizes {
		t := time.Now()
		batch := make([]store.Drawer, 0, 5000)
		for k := have; k < n; k++ {
			d := ds[order[k%len(ds)]]
			src, content, hash := d.Source, d.Content, d.ContentHash
			if round := k / len(ds); round > 0 {
				// A copy ends with its own marker: a search shows each
				// content once and reads deeper past repeats, which a
				// palace made of copies would have it do on every query.
				src = fmt.Sprintf("%s#copy%d", src, round)
				content = fmt.Sprintf("%s\n(copy %d)", content, round)
				hash = store.ContentHash(content)
			}
			w := fileWing[d.Source]
			batch = append(batch, store.Drawer{
				ID: store.DrawerID(w, src, k, hash), Wing: w, Room: d.Room, Kind: d.Kind, Source: src,
				LineStart: d.LineStart, LineEnd: d.LineEnd, Content: content, IndexText: d.IndexText, ContentHash: hash,
				CreatedAt: d.CreatedAt, OccurredAt: d.OccurredAt, OccurredEnd: d.OccurredEnd, SourceMtime: d.SourceMtime,
				Importance: d.Importance, Metadata: d.Metadata,
			})
			if len(batch) == cap(batch) || k == n-1 {
				added, err := p.Store.InsertDrawers(ctx, batch)
				if err != nil {
					return err
				}
				if added != len(batch) {
					return fmt.Errorf("inserted %d of %d drawers", added, len(batch))
				}
				batch = batch[:0]
			}
		}
		if err := g.fillVectors(ctx, p.Store); err != nil {
			return err
		}
		have = n
		sz := SuiteSearchSize{Drawers: n, Distinct: min(n, len(ds)), BuildSeconds: time.Since(t).Seconds()}
		st, err := p.Store.Status(ctx)
		if err != nil {
			return err
		}
		if st.Drawers != n {
			return fmt.Errorf("the search palace holds %d drawers, want %d", st.Drawers, n)
		}
		sz.DBMB = float64(st.DBBytes) / 1e6
		s.logf("   %d drawers built in %.1fs (%.0f MB)", n, sz.BuildSeconds, sz.DBMB)
		if sz.Lexical, sz.QueriesWithHits, err = Searches(ctx, p, texts, search.Request{Mode: search.ModeLexical}); err != nil {
			return err
		}
		if sz.QueriesWithHits == 0 {
			return fmt.Errorf("no query found anything in %d drawers of %s: the queries do not fit this tree", n, s.o.Src)
		}
		if sz.Hybrid, err = timeSearches(ctx, p, qs, wings, false, HybridDepth); err != nil {
			return err
		}
		if sz.HybridWing, err = timeSearches(ctx, p, qs, wings, true, HybridDepth); err != nil {
			return err
		}
		s.logf("   lexical p50 %.2f p95 %.2f ms (%d of %d queries hit); hybrid p50 %.2f p95 %.2f ms; in one wing p50 %.2f p95 %.2f ms",
			sz.Lexical.P50, sz.Lexical.P95, sz.QueriesWithHits, len(texts), sz.Hybrid.Hybrid.P50, sz.Hybrid.Hybrid.P95,
			sz.HybridWing.Hybrid.P50, sz.HybridWing.Hybrid.P95)
		out.Sizes = append(out.Sizes, sz)
		for _, m := range []struct {
			mode   string
			l      Latency
			what   string
			target float64
		}{
			{"lexical", sz.Lexical, "lexical search, default limit, whole palace", TargetLexicalP95Ms},
			{"hybrid", sz.Hybrid.Hybrid, "hybrid search (BM25 + KNN at depth 50), whole palace", 0},
			{"hybrid_wing", sz.HybridWing.Hybrid, fmt.Sprintf("hybrid search inside one of %d wings", DefaultVectorWings), TargetHybridWingP95Ms},
		} {
			what := fmt.Sprintf("%s, %d drawers", m.what, n)
			s.r.add(searchKey(n, m.mode, "p50_ms"), "ms", what, m.l.P50, 0)
			s.r.add(searchKey(n, m.mode, "p95_ms"), "ms", what, m.l.P95, m.target)
		}
	}
	s.r.Search = out
	return nil
}

// minedDrawers reads every drawer of the mined palace, in source and line
// order, and the mined wing's rooms.
func (s *suiteRun) minedDrawers(ctx context.Context) ([]store.Drawer, []store.Room, error) {
	st, err := store.Open(s.mined.home)
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	ds, err := st.ListDrawers(ctx, store.Filter{}, math.MaxInt32)
	if err != nil {
		return nil, nil, err
	}
	if len(ds) == 0 {
		return nil, nil, fmt.Errorf("the mined palace %s is empty", s.mined.home)
	}
	sort.Slice(ds, func(i, j int) bool {
		if ds[i].Source != ds[j].Source {
			return ds[i].Source < ds[j].Source
		}
		return ds[i].LineStart < ds[j].LineStart
	})
	rooms, err := st.Taxonomy(ctx, s.mined.wing)
	if err != nil {
		return nil, nil, err
	}
	return ds, rooms, nil
}
