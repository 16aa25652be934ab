package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/embed"
)

// Suite groups, for SuiteOptions.Only and `palace bench --only`.
const (
	GroupMine   = "mine"   // cold and no-op `palace mine` of the source tree
	GroupSearch = "search" // lexical and hybrid latency at each size
	GroupLSP    = "lsp"    // save-to-searchable, palace/relevant, LSP peak RSS
	GroupMCP    = "mcp"    // MCP searches and MCP peak RSS
	GroupStart  = "start"  // server start to the initialize reply, idle RSS
	GroupEmbed  = "embed"  // ORT embedding throughput
)

// SuiteGroups are the groups in the order the suite runs them.
func SuiteGroups() []string {
	return []string{GroupMine, GroupSearch, GroupLSP, GroupMCP, GroupStart, GroupEmbed}
}

// CheckGroups fails on the first name that is not one of SuiteGroups.
func CheckGroups(names []string) error {
	groups := SuiteGroups()
	for _, g := range names {
		if !slices.Contains(groups, g) {
			return fmt.Errorf("unknown group %q (want %s)", g, strings.Join(groups, ", "))
		}
	}
	return nil
}

// Default sizes of the search palaces (drawers), full and --quick.
var (
	DefaultSuiteSizes = []int{10_000, 100_000}
	QuickSuiteSizes   = []int{500, 2_000}
)

// Targets from the issues (upper bounds). Relevant and one-wing hybrid come
// from the editor-latency and vector-search issues; the rest from #11.
const (
	TargetColdMineS       = 20
	TargetNoopMineS       = 2
	TargetLexicalP95Ms    = 10
	TargetHybridWingP95Ms = 25
	TargetSaveP95Ms       = 50
	TargetRelevantP95Ms   = 30
	TargetStartMs         = 150
	TargetIdleRSSMB       = 80
	// The mine against its floor (see mineFloor), from the issue "Mining
	// where the time goes": a cold mine at most 2.5 times the floor, its
	// writer busy at most twice, a no-op one a twentieth, and the cold
	// mine's peak at most 150 MB. (The first mining issue asked twice and
	// a tenth, before the writer was measured.)
	TargetColdRatio  = 2.5
	TargetWriteRatio = 2.0
	TargetNoopRatio  = 0.05
	TargetPeakRSSMB  = 150
)

// SuiteOptions configure Suite.
type SuiteOptions struct {
	// Exe is the palace binary the suite runs as child processes (mine,
	// serve --lsp, serve --mcp): normally the running binary itself.
	Exe string
	// Src is the source tree mined cold and no-op; its palace also feeds the
	// search palaces, the LSP server and the MCP server. "" is DefaultSrc.
	Src string
	// Sizes are the search palaces' sizes in drawers (default
	// DefaultSuiteSizes, or QuickSuiteSizes with Quick).
	Sizes []int
	// Quick uses small sizes and few iterations (for tests); the numbers
	// are then only a smoke test.
	Quick bool
	// Only runs these groups (SuiteGroups); empty runs every one. A group
	// that needs the mined palace (search, lsp, mcp) runs the mine too, and
	// its figures are reported.
	Only []string
	// ModelDir is the model the embed group measures; "" generates a
	// MiniLM-shaped random-weight model (GenerateMiniLM).
	ModelDir string
	// Embed says where the onnxruntime library is (ORTLib, Home, LibDirs).
	Embed embed.Config
	// TmpDir holds the temporary homes and workspaces ("" is the system's).
	TmpDir   string
	Progress io.Writer
}

// Figure is one number of the suite. Targets are upper bounds: OK says
// whether Value is at most Target. An unavailable figure has no value and
// says why (no onnxruntime library, no /proc); that is not an error.
type Figure struct {
	What        string   `json:"what"`
	Value       *float64 `json:"value"`
	Unit        string   `json:"unit"`
	Target      *float64 `json:"target,omitempty"`
	OK          *bool    `json:"ok,omitempty"`
	Unavailable string   `json:"unavailable,omitempty"`
}

// SuiteReport is what `palace bench` prints. Figures holds every number by
// its stable key (see FigureKeys); the other fields say how each was made.
type SuiteReport struct {
	Src     string             `json:"src"`
	Quick   bool               `json:"quick"`
	Cores   int                `json:"cores"`
	OS      string             `json:"os"`
	Groups  []string           `json:"groups"`
	Figures map[string]*Figure `json:"figures"`
	Mine    *SuiteMine         `json:"mine,omitempty"`
	Search  *SuiteSearch       `json:"search,omitempty"`
	LSP     *SuiteLSP          `json:"lsp,omitempty"`
	MCP     *SuiteMCP          `json:"mcp,omitempty"`
	Start   *SuiteStart        `json:"start,omitempty"`
	Embed   *SuiteEmbed        `json:"embed,omitempty"`
	Seconds float64            `json:"seconds"`

	order []string // figure keys in table order
}

// Table returns the figures' keys in the order they were measured.
func (r *SuiteReport) Table() []string { return slices.Clone(r.order) }

func (r *SuiteReport) add(key, unit, what string, value float64, target float64) {
	f := &Figure{What: what, Value: &value, Unit: unit}
	if target > 0 {
		ok := value <= target
		f.Target, f.OK = &target, &ok
	}
	r.put(key, f)
}

func (r *SuiteReport) unavailable(key, unit, what, why string, target float64) {
	f := &Figure{What: what, Unit: unit, Unavailable: why}
	if target > 0 {
		f.Target = &target
	}
	r.put(key, f)
}

func (r *SuiteReport) put(key string, f *Figure) {
	if _, ok := r.Figures[key]; !ok {
		r.order = append(r.order, key)
	}
	r.Figures[key] = f
}

// FigureKeys lists the keys a run with these groups and sizes reports, in
// table order. Search keys are search.<drawers>.<mode>.<stat>.
func FigureKeys(groups []string, sizes []int) []string {
	var keys []string
	for _, g := range groups {
		switch g {
		case GroupMine:
			keys = append(keys, "mine.cold_s", "mine.noop_s", "mine.floor_s", "mine.cold_ratio", "mine.noop_ratio", "mine.cold_write_s", "mine.write_ratio", "mine.peak_rss_mb")
		case GroupSearch:
			for _, n := range sizes {
				for _, mode := range []string{"lexical", "hybrid", "hybrid_wing"} {
					keys = append(keys, searchKey(n, mode, "p50_ms"), searchKey(n, mode, "p95_ms"))
				}
			}
		case GroupLSP:
			keys = append(keys, "save_to_searchable.p50_ms", "save_to_searchable.p95_ms",
				"relevant.p50_ms", "relevant.p95_ms", "lsp.peak_rss_mb")
		case GroupMCP:
			keys = append(keys, "mcp.peak_rss_mb")
		case GroupStart:
			keys = append(keys, "lsp.start_median_ms", "lsp.start_max_ms", "mcp.start_median_ms", "mcp.start_max_ms",
				"lsp.idle_rss_mb", "mcp.idle_rss_mb")
		case GroupEmbed:
			keys = append(keys, "embed.ort_16x1_ms", "embed.ort_16x32_chunks_per_s", "embed.ort_256x32_chunks_per_s")
		}
	}
	return keys
}

func searchKey(n int, mode, stat string) string { return fmt.Sprintf("search.%d.%s.%s", n, mode, stat) }

// suiteRun is one run's shared state.
type suiteRun struct {
	o        SuiteOptions
	r        *SuiteReport
	tmp      string // removed at the end
	progress io.Writer
	mined    *minedPalace // set by the mine group
}

// Suite runs the whole performance suite: each group in SuiteGroups order,
// each measuring what earlier issues measured, against the binary o.Exe run
// as a child process wherever the figure is about a process (mine, servers).
// Children get a temporary palace home and no embedding model.
func Suite(ctx context.Context, o SuiteOptions) (*SuiteReport, error) {
	start := time.Now()
	if o.Exe == "" {
		return nil, errors.New("bench: no palace binary to run")
	}
	if err := o.Check(); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	if len(o.Sizes) == 0 {
		o.Sizes = DefaultSuiteSizes
		if o.Quick {
			o.Sizes = QuickSuiteSizes
		}
	}
	o.Sizes = slices.Clone(o.Sizes)
	slices.Sort(o.Sizes)
	o.Sizes = slices.Compact(o.Sizes)
	groups := SuiteGroups()
	if len(o.Only) > 0 {
		groups = slices.DeleteFunc(groups, func(g string) bool { return !slices.Contains(o.Only, g) })
	}
	needsMine := slices.ContainsFunc(groups, func(g string) bool {
		return g == GroupSearch || g == GroupLSP || g == GroupMCP
	})
	if needsMine && !slices.Contains(groups, GroupMine) {
		groups = append([]string{GroupMine}, groups...)
	}
	if slices.Contains(groups, GroupMine) {
		if o.Src == "" {
			src, err := DefaultSrc(ctx)
			if err != nil {
				return nil, fmt.Errorf("bench: %w", err)
			}
			o.Src = src
		}
		st, err := os.Stat(o.Src)
		if err != nil {
			return nil, fmt.Errorf("bench: source tree: %w", err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("bench: source tree %s is not a folder", o.Src)
		}
		if o.Src, err = filepath.Abs(o.Src); err != nil {
			return nil, fmt.Errorf("bench: source tree: %w", err)
		}
	}
	tmp, err := os.MkdirTemp(o.TmpDir, "palace-bench-suite-")
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	defer os.RemoveAll(tmp)
	s := &suiteRun{o: o, tmp: tmp, progress: o.Progress, r: &SuiteReport{
		Src: o.Src, Quick: o.Quick, Cores: runtime.NumCPU(), OS: runtime.GOOS + "/" + runtime.GOARCH,
		Groups: groups, Figures: map[string]*Figure{},
	}}
	if s.progress == nil {
		s.progress = io.Discard
	}
	for _, g := range groups {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t := time.Now()
		s.logf("== %s", g)
		var err error
		switch g {
		case GroupMine:
			err = s.mine(ctx)
		case GroupSearch:
			err = s.search(ctx)
		case GroupLSP:
			err = s.lsp(ctx)
		case GroupMCP:
			err = s.mcp(ctx)
		case GroupStart:
			err = s.start(ctx)
		case GroupEmbed:
			err = s.embed(ctx)
		}
		if err != nil {
			return nil, fmt.Errorf("bench %s: %w", g, err)
		}
		s.logf("   %s done in %.1fs", g, time.Since(t).Seconds())
	}
	s.r.Seconds = time.Since(start).Seconds()
	return s.r, nil
}

func (s *suiteRun) logf(format string, a ...any) {
	fmt.Fprintf(s.progress, format+"\n", a...)
}

// iters picks the full or the --quick count.
func (s *suiteRun) iters(full, quick int) int {
	if s.o.Quick {
		return quick
	}
	return full
}

// DefaultSrc is Go's own source tree: $(go env GOROOT)/src, else the
// GOROOT this binary was built with.
func DefaultSrc(ctx context.Context) (string, error) {
	var roots []string
	if out, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output(); err == nil {
		roots = append(roots, strings.TrimSpace(string(out)))
	}
	// Deprecated, but the only fallback left when no go command is on PATH.
	//lint:ignore SA1019 a benchmark's default source tree, on the machine that built it
	roots = append(roots, runtime.GOROOT())
	for _, r := range roots {
		if r == "" {
			continue
		}
		src := filepath.Join(r, "src")
		if st, err := os.Stat(src); err == nil && st.IsDir() {
			return src, nil
		}
	}
	return "", errors.New("no Go source tree found (`go env GOROOT` failed and the build-time GOROOT has no src): give --src DIR")
}
