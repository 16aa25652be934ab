package bench

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/embed"
)

// The embed and vectors benchmarks run here on tiny sizes so that `palace
// bench embed` and `palace bench vectors` cannot break silently. Only the
// report's shape is checked, never a timing.

func TestEmbedBenchShape(t *testing.T) {
	tiny, err := filepath.Abs(filepath.Join("..", "..", "..", "..", "core", "embed", "testdata", "tiny"))
	if err != nil {
		t.Fatal(err)
	}
	// ort is measured when PALACE_ORT_LIB names a working library (as
	// `make test` sets it), else only go.
	cfg := embed.Config{ORTLib: os.Getenv(embed.EnvORTLib), LibDirs: []string{}}
	r, err := Embed(context.Background(), EmbedOptions{
		ModelDir: tiny, Config: cfg, Tokens: []int{16, 300}, Batches: []int{1}, Iters: 2, MinCellTime: time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("ort: %s", r.ORT)
	if !r.HaveGo || r.Dim != 32 || r.MaxTokens != 256 || r.ModelID == "" {
		t.Fatalf("report header: %+v", r)
	}
	if os.Getenv(embed.EnvORTLib) != "" && !r.HaveORT {
		t.Errorf("PALACE_ORT_LIB is set but ort was not measured: %s", r.ORT)
	}
	if len(r.Cells) != 2 {
		t.Fatalf("%d cells, want 2", len(r.Cells))
	}
	if c := r.Cells[1]; c.Tokens != 300 || c.Skipped == "" || c.Go != nil || c.ORT != nil {
		t.Errorf("a text longer than the model's 256 tokens should be skipped: %+v", c)
	}
	c := r.Cells[0]
	if c.Tokens != 16 || c.Batch != 1 || c.Skipped != "" {
		t.Fatalf("cell: %+v", c)
	}
	checkThroughput(t, "go", c.Go)
	if r.HaveORT {
		checkThroughput(t, "ort", c.ORT)
		checkThroughput(t, "ort-bare", c.Bare)
		if c.OverheadPct == nil || c.MinCosine < 0.999 {
			t.Errorf("ort overhead %v, palace vs bare cosine %v", c.OverheadPct, c.MinCosine)
		}
	} else if c.ORT != nil || c.Bare != nil || c.OverheadPct != nil {
		t.Errorf("ort cells without ort: %+v", c)
	}
}

func checkThroughput(t *testing.T, name string, tp *Throughput) {
	t.Helper()
	if tp == nil {
		t.Errorf("%s: not measured", name)
		return
	}
	if tp.Calls < 1 || tp.MsPerCall <= 0 || tp.ChunksPerSec <= 0 {
		t.Errorf("%s: %+v", name, tp)
	}
}

// Every text the benchmark builds has exactly the requested token count.
func TestEmbedBenchTexts(t *testing.T) {
	m, err := readBenchModel(filepath.Join("..", "..", "..", "..", "core", "embed", "testdata", "tiny"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tokens := range []int{3, 16, 64, 256} {
		in, err := m.texts(tokens, 4)
		if err != nil {
			t.Fatal(err)
		}
		if len(in.texts) != 4 || in.texts[0] == in.texts[1] {
			t.Errorf("%d tokens: texts should differ: %q", tokens, in.texts)
		}
		for i, ids := range in.ids {
			if len(ids) != tokens {
				t.Errorf("%d tokens: text %d has %d", tokens, i, len(ids))
			}
		}
	}
}

func TestEmbedBenchNoModel(t *testing.T) {
	if _, err := Embed(context.Background(), EmbedOptions{ModelDir: t.TempDir()}); err == nil {
		t.Error("an empty model folder should fail")
	}
	if _, _, err := FindGenerator(context.Background()); err != nil && !errors.Is(err, ErrNoGenerator) {
		t.Errorf("FindGenerator fails without saying what to do: %v", err)
	}
}

func TestVectorsBenchShape(t *testing.T) {
	r, err := Vectors(context.Background(), VectorsOptions{Sizes: []int{500, 300}, Dim: 16, Wings: 3, Queries: 10, TmpDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Sizes) != 2 || r.Sizes[0].Drawers != 300 || r.Sizes[1].Drawers != 500 {
		t.Fatalf("sizes: %+v", r.Sizes)
	}
	for _, sz := range r.Sizes {
		if sz.InsertSeconds <= 0 || sz.VectorSeconds <= 0 || sz.DBBytes <= 0 {
			t.Errorf("%d drawers: build %+v", sz.Drawers, sz)
		}
		for scope, l := range map[string]SearchLatency{"all": sz.All, "wing": sz.Wing} {
			for name, lat := range map[string]Latency{"knn": l.KNN, "bm25": l.BM25, "hybrid": l.Hybrid} {
				if lat.Queries != 10 || lat.P50 <= 0 || lat.P95 < lat.P50 || lat.Max < lat.P95 || lat.Hits <= 0 {
					t.Errorf("%d drawers, %s, %s: %+v", sz.Drawers, scope, name, lat)
				}
			}
			// Every query gets the full depth from KNN (there are more
			// than 50 vectors in each wing).
			if l.KNN.Hits != 10*HybridDepth {
				t.Errorf("%d drawers, %s: %d KNN hits, want %d", sz.Drawers, scope, l.KNN.Hits, 10*HybridDepth)
			}
		}
	}
}

// The synthetic palace depends only on the seed and the drawer's index.
func TestVectorsSynthDeterministic(t *testing.T) {
	o := VectorsOptions{Dim: 8, Wings: 4, Seed: 7}
	a, b := newSynth(o), newSynth(o)
	if a.drawer(123) != b.drawer(123) || a.drawer(1).Content == a.drawer(2).Content {
		t.Error("drawers are not a function of seed and index")
	}
	if a.drawer(5).Wing != "wing02" {
		t.Errorf("drawer 5 in %s, want wing02", a.drawer(5).Wing)
	}
	v := a.vector(9)
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	if len(v) != 8 || ss < 0.999 || ss > 1.001 {
		t.Errorf("vector %v is not a unit vector of length 8", v)
	}
}
