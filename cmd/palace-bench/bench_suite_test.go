//go:build unix

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/cmd/internal/clitest"
	"github.com/palace-dev/palace/cmd/palace-bench/internal/bench"
	"github.com/palace-dev/palace/core/embed"
)

// benchSuiteReport is the part of `palace bench --json` the tests read.
type benchSuiteReport struct {
	Src     string   `json:"src"`
	Quick   bool     `json:"quick"`
	Groups  []string `json:"groups"`
	Figures map[string]struct {
		What        string   `json:"what"`
		Value       *float64 `json:"value"`
		Unit        string   `json:"unit"`
		Target      *float64 `json:"target"`
		OK          *bool    `json:"ok"`
		Unavailable string   `json:"unavailable"`
	} `json:"figures"`
	Mine struct {
		Drawers     int    `json:"drawers"`
		FilesSeen   int    `json:"files_seen"`
		FilesMined  int    `json:"files_mined"`
		NoopMined   int    `json:"noop_files_mined"`
		PeakRSSFrom string `json:"peak_rss_from"`
		FloorFiles  int    `json:"floor_files"`
		FloorChunks int    `json:"floor_chunks"`
	} `json:"mine"`
	Search struct {
		Queries int `json:"queries"`
		Sizes   []struct {
			Drawers         int `json:"drawers"`
			Distinct        int `json:"distinct"`
			QueriesWithHits int `json:"lexical_queries_with_hits"`
		} `json:"sizes"`
	} `json:"search"`
	LSP struct {
		StartupMines []struct {
			Path           string `json:"path"`
			FilesMined     int    `json:"files_mined"`
			DrawersAdded   int    `json:"drawers_added"`
			DrawersRemoved int    `json:"drawers_removed"`
		} `json:"startup_mines"`
		PalaceDrawers    int `json:"palace_drawers"`
		RelevantWithHits int `json:"relevant_with_hits"`
		SaveToSearchable struct {
			Queries int `json:"queries"`
		} `json:"save_to_searchable"`
	} `json:"lsp"`
	Start struct {
		LSP []float64 `json:"lsp_ms"`
		MCP []float64 `json:"mcp_ms"`
	} `json:"start"`
	Embed struct {
		Report *struct {
			HaveORT bool   `json:"have_ort"`
			ORT     string `json:"ort"`
		} `json:"report"`
	} `json:"embed"`
}

// benchTree writes a small Go-like source tree whose comments use the words
// of the suite's queries, so lexical search finds something for most.
func benchTree(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "src")
	rng := rand.New(rand.NewPCG(1, 2))
	qs := bench.Queries()
	files := map[string]string{}
	for i := range 40 {
		var b strings.Builder
		fmt.Fprintf(&b, "package pkg%d\n\n", i%8)
		for j := range 60 {
			q := strings.Trim(qs[rng.IntN(len(qs))], `"-*`)
			fmt.Fprintf(&b, "// step%d: %s, see %s\nfunc f%d_%d() { _ = %q }\n", j, q, qs[rng.IntN(len(qs))], i, j, q)
		}
		files[fmt.Sprintf("pkg%d/file%02d.go", i%8, i)] = b.String()
	}
	files["README.md"] = "# bench tree\n\nA generated tree for the bench suite test.\n"
	clitest.WriteTree(t, root, files)
	return root
}

// TestBenchSuiteQuickJSON runs the whole suite through the real binary on a
// small tree and checks the report: every figure present, plausible, with
// its target and a verdict that agrees with it.
func TestBenchSuiteQuickJSON(t *testing.T) {
	src := benchTree(t)
	tiny, err := filepath.Abs(filepath.Join("..", "..", "core", "embed", "testdata", "tiny"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := palaceCmd(ctx, "", "bench", "--json", "--quick", "--src", src, "--model-dir", tiny)
	out, errOut, code := clitest.Run(t, cmd)
	if code != 0 {
		t.Fatalf("bench: exit %d\nstderr:\n%s", code, errOut)
	}
	var r benchSuiteReport
	clitest.Decode(t, "bench", out, &r)
	if !strings.Contains(errOut, "== mine") || !strings.Contains(errOut, "== embed") {
		t.Errorf("progress should go to stderr, got %q", errOut)
	}
	if r.Src != src || !r.Quick || !slices.Equal(r.Groups, bench.SuiteGroups()) {
		t.Errorf("header: src %q quick %v groups %v", r.Src, r.Quick, r.Groups)
	}

	want := bench.FigureKeys(bench.SuiteGroups(), bench.QuickSuiteSizes)
	for _, k := range want {
		if _, ok := r.Figures[k]; !ok {
			t.Errorf("figure %s is missing", k)
		}
	}
	for k := range r.Figures {
		if !slices.Contains(want, k) {
			t.Errorf("figure %s is not a documented key", k)
		}
	}

	// Targets are attached exactly where an issue gives one.
	targets := map[string]float64{
		"mine.cold_s": 20, "mine.noop_s": 2, "mine.cold_ratio": 2.5, "mine.noop_ratio": 0.05,
		"mine.write_ratio": 2, "mine.peak_rss_mb": 150,
		"save_to_searchable.p95_ms": 50, "relevant.p95_ms": 30,
		"lsp.start_median_ms": 150, "mcp.start_median_ms": 150,
		"lsp.idle_rss_mb": 80, "mcp.idle_rss_mb": 80,
	}
	for _, n := range bench.QuickSuiteSizes {
		targets[fmt.Sprintf("search.%d.lexical.p95_ms", n)] = 10
		targets[fmt.Sprintf("search.%d.hybrid_wing.p95_ms", n)] = 25
	}
	// Plausible upper bounds per unit for a tiny run on a slow machine.
	ceiling := map[string]float64{"s": 120, "ms": 30_000, "MB": 8192, "chunks/s": 1e7, "x": 1e5}
	haveORT := os.Getenv(embed.EnvORTLib) != ""
	for k, f := range r.Figures {
		if f.What == "" || ceiling[f.Unit] == 0 {
			t.Errorf("%s: what %q, unit %q", k, f.What, f.Unit)
		}
		switch want, ok := targets[k]; {
		case ok && (f.Target == nil || *f.Target != want):
			t.Errorf("%s: target %v, want %v", k, targetOf(f.Target), want)
		case !ok && f.Target != nil:
			t.Errorf("%s: target %v, want none", k, *f.Target)
		}
		if f.Value == nil {
			// Only the embedding figures may be missing (no onnxruntime
			// library), and resident sets off Linux.
			mayMiss := strings.HasPrefix(k, "embed.") && !haveORT ||
				strings.HasSuffix(k, "_rss_mb") && runtime.GOOS != "linux"
			if !mayMiss || f.Unavailable == "" || f.OK != nil {
				t.Errorf("%s: no value (unavailable %q)", k, f.Unavailable)
			}
			continue
		}
		if v := *f.Value; v <= 0 || v > ceiling[f.Unit] || f.Unavailable != "" {
			t.Errorf("%s = %v %s (unavailable %q): not plausible", k, v, f.Unit, f.Unavailable)
		}
		if f.Target != nil && (f.OK == nil || *f.OK != (*f.Value <= *f.Target)) {
			verdict := "missing"
			if f.OK != nil {
				verdict = fmt.Sprint(*f.OK)
			}
			t.Errorf("%s = %v, target %v: ok %s", k, *f.Value, *f.Target, verdict)
		}
	}
	value := func(k string) float64 {
		if f := r.Figures[k]; f.Value != nil {
			return *f.Value
		}
		return 0
	}
	if value("mine.noop_s") >= value("mine.cold_s") {
		t.Errorf("the no-op mine (%v s) is not faster than the cold one (%v s)", value("mine.noop_s"), value("mine.cold_s"))
	}
	if haveORT && (r.Embed.Report == nil || !r.Embed.Report.HaveORT) {
		t.Errorf("PALACE_ORT_LIB is set but ORT was not measured: %+v", r.Embed.Report)
	}

	// What the figures were measured on.
	if r.Mine.FilesSeen != 41 || r.Mine.Drawers == 0 || r.Mine.NoopMined != 0 || r.Mine.FloorFiles != r.Mine.FilesMined || r.Mine.FloorChunks == 0 {
		t.Errorf("mine: %+v", r.Mine)
	}
	if from := r.Mine.PeakRSSFrom; runtime.GOOS == "linux" && from != "rusage maxrss" && !strings.HasPrefix(from, "VmHWM") {
		t.Errorf("mine.peak_rss_mb comes from %q", from)
	}
	if r.Search.Queries != 20 || len(r.Search.Sizes) != len(bench.QuickSuiteSizes) {
		t.Fatalf("search: %+v", r.Search)
	}
	for i, sz := range r.Search.Sizes {
		if sz.Drawers != bench.QuickSuiteSizes[i] || sz.Distinct != min(sz.Drawers, r.Mine.Drawers) || sz.QueriesWithHits < 15 {
			t.Errorf("search palace %d: %+v (mined %d drawers)", i, sz, r.Mine.Drawers)
		}
	}
	if r.LSP.PalaceDrawers <= r.Mine.Drawers || r.LSP.RelevantWithHits == 0 || r.LSP.SaveToSearchable.Queries < 10 {
		t.Errorf("lsp: %+v (mined %d drawers)", r.LSP, r.Mine.Drawers)
	}
	// The server's startup mine of the source tree is a no-op (same wing
	// as the mine), the save workspace's adds its drawers.
	palace := r.Mine.Drawers
	for _, m := range r.LSP.StartupMines {
		if m.Path == src && (m.FilesMined != 0 || m.DrawersAdded != 0) {
			t.Errorf("the LSP server re-mined the source tree: %+v", m)
		}
		palace += m.DrawersAdded - m.DrawersRemoved
	}
	if len(r.LSP.StartupMines) != 2 || r.LSP.PalaceDrawers != palace {
		t.Errorf("lsp palace of %d drawers, want %d: %+v", r.LSP.PalaceDrawers, palace, r.LSP.StartupMines)
	}
	if len(r.Start.LSP) < 3 || len(r.Start.MCP) < 3 {
		t.Errorf("start: %+v", r.Start)
	}
}

// TestBenchSuiteTable runs one cheap group and reads the human table.
func TestBenchSuiteTable(t *testing.T) {
	out, errOut, code := runPalace(t, "", "bench", "--quick", "--only", "start")
	if code != 0 {
		t.Fatalf("bench --only start: exit %d\n%s", code, errOut)
	}
	if strings.Contains(out, "mine.cold_s") || strings.Contains(errOut, "== mine") {
		t.Errorf("--only start ran the mine:\n%s", out)
	}
	for _, k := range bench.FigureKeys([]string{bench.GroupStart}, nil) {
		var line string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, k+" ") {
				line = l
			}
		}
		f := strings.Fields(line)
		switch {
		case line == "":
			t.Errorf("no row for %s in\n%s", k, out)
		case strings.Contains(k, "median") || strings.Contains(k, "idle"):
			// figure, value, unit, "<=", target, verdict
			if len(f) != 6 || f[3] != "<=" || (f[5] != "yes" && f[5] != "NO") {
				t.Errorf("row %q: want a target and a verdict", line)
			}
		case len(f) != 4 || f[3] != "-":
			t.Errorf("row %q: want no target", line)
		}
	}
}

func TestBenchSuiteUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "bogus"},
		{"bench", "--only", "bogus"},
		{"bench", "--sizes", "ten"},
	} {
		out, errOut, code := runPalace(t, "", args...)
		if code != 2 || out != "" {
			t.Errorf("palace %v: exit %d, stdout %q, want 2 and nothing", args, code, out)
		}
		oneLine(t, errOut)
	}
}

// A suite that mined nothing says so in its header instead of naming an
// empty source (issue #11).
func TestBenchSuiteHeaderWithoutSource(t *testing.T) {
	var b strings.Builder
	printSuite(&b, &bench.SuiteReport{Cores: 2, OS: "linux/amd64", Groups: []string{bench.GroupStart, bench.GroupEmbed}, Figures: map[string]*bench.Figure{}})
	head, _, _ := strings.Cut(b.String(), "\n")
	if want := "palace bench: no source tree mined (groups: start, embed), 2 cores, linux/amd64"; head != want {
		t.Errorf("header %q, want %q", head, want)
	}
	b.Reset()
	printSuite(&b, &bench.SuiteReport{Src: "/go/src", Cores: 2, OS: "linux/amd64", Groups: []string{bench.GroupMine}, Figures: map[string]*bench.Figure{}})
	if head, _, _ := strings.Cut(b.String(), "\n"); head != "palace bench: /go/src, 2 cores, linux/amd64" {
		t.Errorf("header %q", head)
	}
}

// targetOf is a figure's target for a message: the number, not its address.
func targetOf(t *float64) any {
	if t == nil {
		return "none"
	}
	return *t
}
