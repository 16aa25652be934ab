package main

import (
	"fmt"
	"os"
	"runtime"
	"sort"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/core/bench"
)

func newBenchCmd(g *globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "bench",
		Short: "Measure Palace and print the numbers",
	}
	var asJSON bool
	m := &cobra.Command{
		Use:   "mine DIR",
		Short: "Cold mine, no-op re-mine and search latency (100 mixed queries) on DIR",
		Long: `Bench mine mines DIR into a fresh palace (a new temporary directory unless
--home names an empty one), mines it again with nothing changed, then times 100
mixed queries. It prints files/s, MB/s, drawers/s and query p50/p95.`,
		Example: `  palace bench mine "$(go env GOROOT)/src"`,
		Args:    args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			home := g.home
			if home == "" {
				tmp, err := os.MkdirTemp("", "palace-bench-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(tmp)
				home = tmp
			}
			r, err := bench.Mine(c.Context(), a[0], home, runtime.NumCPU())
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			if asJSON {
				return printJSON(out, r)
			}
			fmt.Fprintf(out, "bench mine %s (%d cores)\n", r.Dir, r.Cores)
			for _, p := range []struct {
				name string
				p    bench.Pass
			}{{"cold", r.Cold}, {"no-op", r.Noop}} {
				fmt.Fprintf(out, "%-6s %7.2fs  %6d files (%d mined)  %7.1f MB  %8.0f files/s  %6.1f MB/s  %8.0f drawers/s\n",
					p.name, p.p.Seconds, p.p.Files, p.p.Mined, float64(p.p.Bytes)/1e6, p.p.FilesPerSec, p.p.MBPerSec, p.p.DrawersPS)
			}
			fmt.Fprintf(out, "palace %d drawers, %.1f MB on disk\n", r.Drawers, float64(r.DBBytes)/1e6)
			fmt.Fprintf(out, "search %d queries: p50 %.2f ms  p95 %.2f ms  max %.2f ms  (%d hits)\n",
				r.Search.Queries, r.Search.P50, r.Search.P95, r.Search.Max, r.Search.Hits)
			return nil
		},
	}
	m.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	needsSubcommand(c)
	c.AddCommand(m, newBenchLocomoCmd())
	return c
}

func newBenchLocomoCmd() *cobra.Command {
	var data string
	var asJSON bool
	c := &cobra.Command{
		Use:   "locomo --data FILE",
		Short: "Retrieval recall on the LoCoMo benchmark (turn and session level)",
		Long: `Bench locomo indexes each LoCoMo conversation into a fresh palace through the
conversation-mining path, asks every question that is not adversarial
(category 5) as a plain query, and reports turn-level R_all@k, R_any@k,
R_frac@k and MRR and session-level R_any@k and R_all@k for k = 5 and 10,
overall and per category. Only the conversations are indexed.`,
		Example: `  palace bench locomo --data ../shared/datasets/locomo/locomo_dev.json`,
		Args:    args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			if data == "" {
				return usageError{fmt.Errorf("--data FILE is required")}
			}
			r, err := bench.Locomo(c.Context(), data, "")
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			if asJSON {
				return printJSON(out, r)
			}
			cats := make([]string, 0, len(r.ByCategory))
			for k := range r.ByCategory {
				cats = append(cats, k)
			}
			sort.Strings(cats)
			fmt.Fprintf(out, "%-16s %8s", "metric", "overall")
			for _, k := range cats {
				fmt.Fprintf(out, " %8s", "cat "+k)
			}
			fmt.Fprintln(out)
			for _, key := range bench.LocomoKeys() {
				fmt.Fprintf(out, "%-16s %8.3f", key, r.Overall[key])
				for _, k := range cats {
					fmt.Fprintf(out, " %8.3f", r.ByCategory[k][key])
				}
				fmt.Fprintln(out)
			}
			fmt.Fprintf(out, "questions %d, adversarial excluded %d, no valid evidence %d, scored %d (%.1fs)\n",
				r.Counts["questions_total"], r.Counts["excluded_adversarial"], r.Counts["excluded_no_evidence"],
				r.Counts["questions_scored"], r.Seconds)
			return nil
		},
	}
	c.Flags().StringVar(&data, "data", "", "LoCoMo JSON file (a list of conversations with qa)")
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}
