package main

import (
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/cmd/palace-bench/internal/bench"
	"github.com/palace-dev/palace/core/embed"
)

// newBenchSuiteCmd is `palace bench`: with no subcommand, the whole
// performance suite.
func newBenchSuiteCmd(g *globals) *cobra.Command {
	var (
		o          bench.SuiteOptions
		asJSON     bool
		cpuProfile string
	)
	c := &cobra.Command{
		Use:   "bench",
		Short: "Run the performance suite, or one benchmark (subcommands)",
		Long: `Bench with no subcommand runs the performance suite and prints one table:
each figure, its value, its target (an upper bound) and whether it is met.
Progress goes to stderr. Children are the palace binary (the one that ran
'palace bench', or --palace) with a temporary palace home and no embedding
model (PALACE_EMBED_BACKEND=none); --home only says where to look for the
onnxruntime library ($PALACE_HOME/lib).

Figures, by their --json key (under "figures"; each has what, value, unit,
and target and ok where there is a target, or unavailable with the reason):

  mine.cold_s, mine.noop_s     'palace mine' of --src into a fresh home, then
                               again with nothing changed: wall time of the
                               child process (targets 20 s and 2 s)
  mine.floor_s                 the floor: the files the cold mine recorded,
                               read, cut into 800-character chunks and
                               inserted into one FTS5 table in one
                               transaction by the bench process itself
  mine.cold_ratio, mine.noop_ratio    mine.cold_s and mine.noop_s over
                               mine.floor_s (targets 2.0 and 0.1)
  mine.peak_rss_mb             the cold mine's own peak resident set: its
                               rusage maxrss, or on Linux, when that may be
                               the bench process's peak (a vforked child's
                               maxrss includes it), its VmHWM read every 10
                               ms while it ran (mine.peak_rss_from says which)
  search.N.lexical.p50_ms/p95_ms      lexical search, default limit, whole
                               palace (p95 target 10 ms)
  search.N.hybrid.p50_ms/p95_ms       BM25 at depth 50 then the 50 nearest
                               vectors, whole palace (no query embedding)
  search.N.hybrid_wing.p50_ms/p95_ms  the same inside one of 10 wings (p95
                               target 25 ms)
                               N is each --sizes: a palace of N drawers
                               sampled from the mined palace (repeated when
                               it has fewer), random 384-d unit vectors; the
                               100 queries of 'bench mine'
  save_to_searchable.p50_ms/p95_ms    'serve --lsp' on the mined palace plus a
                               generated 300-file workspace: write a new word
                               into a 2,000-line file, didSave, until
                               palace/search returns it; 60 saves (p95 target
                               50 ms)
  relevant.p50_ms/p95_ms       palace/relevant at 300 random positions of 30
                               open files of --src, on the mined palace (p95
                               target 30 ms)
  lsp.peak_rss_mb              that LSP server's peak resident set (VmHWM)
  mcp.peak_rss_mb              'serve --mcp' after 100 palace_search calls
  lsp.start_median_ms, lsp.start_max_ms, mcp.start_median_ms,
  mcp.start_max_ms             process start to the initialize reply over 15
                               starts (median target 150 ms)
  lsp.idle_rss_mb, mcp.idle_rss_mb    resident set 1 s after the handshake
                               (VmRSS; target 80 MB)
  embed.ort_16x1_ms, embed.ort_16x32_chunks_per_s,
  embed.ort_256x32_chunks_per_s       Palace's ORT backend ('bench embed') on
                               --model-dir, else a generated MiniLM-shaped
                               model; unavailable without an onnxruntime
                               library ('palace setup ort')

--quick uses palaces of 500 and 2,000 drawers and few iterations: a smoke
test, not numbers to quote. --only runs some groups (mine, search, lsp, mcp,
start, embed); search, lsp and mcp need the mined palace, so they run mine
too. On Linux the resident sets come from /proc; elsewhere they are
unavailable. With default sizes the suite takes a few minutes.`,
		Example: `  palace bench --json > bench.json
  palace bench --quick --src ~/src/myproject
  palace bench --only start,embed`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			ctx := c.Context()
			if !c.Flags().Changed("sizes") {
				o.Sizes = nil
			}
			// Sizes and groups are refused before anything runs.
			if err := o.Check(); err != nil {
				return usageError{err}
			}
			exe, err := g.palaceBinary()
			if err != nil {
				return err
			}
			o.Exe, o.ModelDir, o.Progress = exe, g.modelDir, c.ErrOrStderr()
			o.Embed = embed.ConfigFromEnv(g.home)
			if cpuProfile != "" {
				f, err := os.Create(cpuProfile)
				if err != nil {
					return fmt.Errorf("bench: cpu profile: %w", err)
				}
				defer f.Close()
				if err := pprof.StartCPUProfile(f); err != nil {
					return fmt.Errorf("bench: cpu profile: %w", err)
				}
				defer pprof.StopCPUProfile()
			}
			r, err := bench.Suite(ctx, o)
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			if asJSON {
				return termsafe.WriteJSON(out, r)
			}
			printSuite(out, r)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	c.Flags().StringVar(&o.Src, "src", "", "source tree to mine (default: $(go env GOROOT)/src)")
	c.Flags().IntSliceVar(&o.Sizes, "sizes", bench.DefaultSuiteSizes, "search palace sizes in drawers, comma-separated (--quick: 500,2000)")
	c.Flags().BoolVar(&o.Quick, "quick", false, "small sizes and few iterations (a smoke test)")
	c.Flags().StringSliceVar(&o.Only, "only", nil, "run only these groups: "+strings.Join(bench.SuiteGroups(), ", "))
	c.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of this process (search and embed run here; mine and the servers are children) to FILE")
	_ = c.Flags().MarkHidden("cpuprofile")
	return c
}

func printSuite(out io.Writer, r *bench.SuiteReport) {
	// Only the mine group mines a source tree; the other groups need none.
	src := r.Src
	if src == "" {
		src = "no source tree mined (groups: " + strings.Join(r.Groups, ", ") + ")"
	}
	fmt.Fprintf(out, "palace bench: %s, %d cores, %s\n", src, r.Cores, r.OS)
	fmt.Fprintf(out, "%-34s %12s %-9s %10s  %s\n", "figure", "value", "unit", "target", "ok")
	for _, k := range r.Table() {
		f := r.Figures[k]
		target := "-"
		if f.Target != nil {
			target = "<= " + strconv.FormatFloat(*f.Target, 'g', -1, 64)
		}
		if f.Value == nil {
			fmt.Fprintf(out, "%-34s %12s %-9s %10s  unavailable: %s\n", k, "-", f.Unit, target, f.Unavailable)
			continue
		}
		ok := ""
		if f.OK != nil {
			ok = "yes"
			if !*f.OK {
				ok = "NO"
			}
		}
		fmt.Fprintf(out, "%-34s %12s %-9s %10s  %s\n", k, benchNum(*f.Value), f.Unit, target, ok)
	}
	note := ""
	if r.Quick {
		note = "; --quick: a smoke test, not numbers to quote"
	}
	fmt.Fprintf(out, "(%.0f s%s; what each figure is: --json or --help)\n", r.Seconds, note)
}

// benchNum prints a figure with three significant digits or so.
func benchNum(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}
