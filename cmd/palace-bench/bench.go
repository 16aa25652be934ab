package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/cmd/palace-bench/internal/bench"
	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/ops"
)

func newBenchCmd(g *globals) *cobra.Command {
	c := newBenchSuiteCmd(g)
	var asJSON bool
	var against string
	var rounds int
	m := &cobra.Command{
		Use:   "mine DIR",
		Short: "Cold mine, no-op re-mine and search latency (100 mixed queries) on DIR",
		Long: `Bench mine mines DIR into a fresh palace (a new temporary directory unless
--home names an empty one), mines it again with nothing changed, loads the
files the cold mine recorded into the floor (read, cut into 800-character
chunks and inserted into one FTS5 table in one transaction, by this same
process), then times 100 mixed queries. It prints files/s, MB/s, drawers/s,
both mines over the floor (--json: mine.cold_s, mine.noop_s, mine.floor_s,
mine.cold_ratio, mine.noop_ratio, mine.peak_rss_mb, and mine.cold_write_s, the
time the cold mine's writer spent in its transactions) and query p50/p95.

With --against BIN (an earlier palace build) it instead compares cold mines:
BIN and this palace (the one that ran 'palace bench', or --palace) each mine
DIR into a fresh temporary palace, alternately, --rounds times, as child
processes without an embedding model, and it prints each run's wall time, CPU
time and peak memory, both medians, and their ratios.`,
		Example: `  palace bench mine "$(go env GOROOT)/src"
  palace bench mine "$(go env GOROOT)/src" --against /tmp/palace-before --rounds 3`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			out := c.OutOrStdout()
			if c.Flags().Changed("against") || c.Flags().Changed("rounds") {
				return benchMineAgainst(c, g, out, a[0], against, rounds, asJSON)
			}
			// A missing folder is a usage error, found before a
			// temporary home is made for it.
			if err := bench.CheckMineDir(a[0]); err != nil {
				return usageError{err}
			}
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
			if asJSON {
				return termsafe.WriteJSON(out, r)
			}
			fmt.Fprintf(out, "bench mine %s (%d cores)\n", r.Dir, r.Cores)
			for _, p := range []struct {
				name string
				p    bench.Pass
			}{{"cold", r.Cold}, {"no-op", r.Noop}} {
				fmt.Fprintf(out, "%-6s %7.2fs  %6d files (%d mined)  %7.1f MB  %8.0f files/s  %6.1f MB/s  %8.0f drawers/s\n",
					p.name, p.p.Seconds, p.p.Files, p.p.Mined, float64(p.p.Bytes)/1e6, p.p.FilesPerSec, p.p.MBPerSec, p.p.DrawersPS)
			}
			fmt.Fprintf(out, "floor  %7.2fs  %6d files, %d chunks into one FTS5 table\n", r.Mine.FloorS, r.Mine.FloorFiles, r.Mine.FloorChunks)
			fmt.Fprint(out, r.Mine.WhereTheTimeWent())
			fmt.Fprintf(out, "cold / floor %.2fx (target %.1fx)  writer / floor %.2fx (target %.1fx)  no-op / floor %.3fx (target %.2fx)  peak RSS after the cold mine %.0f MB (target %d)\n",
				r.Mine.ColdRatio, bench.TargetColdRatio, r.Mine.WriteRatio, bench.TargetWriteRatio, r.Mine.NoopRatio, bench.TargetNoopRatio, r.Mine.PeakRSSMB, bench.TargetPeakRSSMB)
			fmt.Fprintf(out, "palace %d drawers, %.1f MB on disk\n", r.Drawers, float64(r.DBBytes)/1e6)
			fmt.Fprintf(out, "search %d queries: p50 %.2f ms  p95 %.2f ms  max %.2f ms  (%d hits)\n",
				r.Search.Queries, r.Search.P50, r.Search.P95, r.Search.Max, r.Search.Hits)
			return nil
		},
	}
	m.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	m.Flags().StringVar(&against, "against", "", "another palace binary to compare cold mines with (an earlier build)")
	m.Flags().IntVar(&rounds, "rounds", 2, "with --against: how many cold mines each binary runs, alternately")
	c.AddCommand(m, newBenchLocomoCmd(), newBenchCodeCmd(), newBenchRelevantCmd(), newBenchEmbedCmd(g), newBenchVectorsCmd(), newBenchTeamCmd(g), newBenchLoopCmd(g))
	checkBenchFlagsFirst(c)
	return c
}

// checkBenchFlagsFirst makes c and every command under it check each of
// its numeric flags against bench.Bounds before it runs, so a size of
// 999999999999 is refused at once rather than found hours later with the
// disk full, and a new numeric flag without a bound fails at its first
// run (TestBenchFlagsBounded fails before that).
func checkBenchFlagsFirst(c *cobra.Command) {
	if run := c.RunE; run != nil {
		c.RunE = func(c *cobra.Command, a []string) error {
			if err := checkBenchFlags(c); err != nil {
				return usageError{err}
			}
			return run(c, a)
		}
	}
	for _, sub := range c.Commands() {
		checkBenchFlagsFirst(sub)
	}
}

// checkBenchFlags refuses the first numeric flag of c outside its bound
// or without one.
func checkBenchFlags(c *cobra.Command) error {
	path := benchPath(c)
	var err error
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		if err != nil || !numericFlag(f) {
			return
		}
		b, ok := bench.BoundOf(path, f.Name)
		if !ok {
			err = fmt.Errorf("%s --%s: no bound in bench.Bounds", path, f.Name)
			return
		}
		vs := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			vs = sv.GetSlice()
		}
		for _, v := range vs {
			if err = checkBound(b, v); err != nil {
				return
			}
		}
	})
	return err
}

// checkBound checks one value, as its flag printed it, against b.
func checkBound(b bench.Bound, v string) error {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return b.Check(n)
	}
	if n, err := strconv.ParseUint(v, 10, 64); err == nil {
		return b.CheckUint(n)
	}
	return fmt.Errorf("--%s %s: not a whole number; bench.Bounds bounds whole numbers", b.Flag, v)
}

// numericFlag says whether f holds a number or a list of them: the flags
// bench.Bounds must bound.
func numericFlag(f *pflag.Flag) bool {
	t := strings.TrimSuffix(f.Value.Type(), "Slice")
	return strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint") || strings.HasPrefix(t, "float") || t == "duration"
}

// benchPath is c's path as `palace bench` names it, whatever the root is
// called: "bench", "bench vectors".
func benchPath(c *cobra.Command) string {
	if !c.HasParent() {
		return "bench"
	}
	return "bench " + strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
}

// benchMineAgainst is `bench mine DIR --against BIN`: cold mines of DIR by
// BIN and by this palace, alternately.
func benchMineAgainst(c *cobra.Command, g *globals, out io.Writer, dir, against string, rounds int, asJSON bool) error {
	if against == "" {
		return usageError{errors.New("--against: give the palace binary to compare with")}
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return usageError{fmt.Errorf("%s: not a folder", dir)}
	}
	if fi, err := os.Stat(against); err != nil || fi.IsDir() {
		return usageError{fmt.Errorf("--against %s: not a palace binary", against)}
	}
	self, err := g.palaceBinary()
	if err != nil {
		return err
	}
	r, err := bench.MineAgainst(c.Context(), dir, self, against, rounds)
	if err != nil {
		return err
	}
	if asJSON {
		return termsafe.WriteJSON(out, r)
	}
	fmt.Fprintf(out, "bench mine %s: cold mines, %d rounds, alternating\n", r.Dir, rounds)
	for _, run := range r.Runs {
		fmt.Fprintf(out, "  round %d %-5s %7.2fs wall %7.2fs cpu %7.1f MB peak %7.1f MB palace\n",
			run.Round, run.Binary, run.WallS, run.CPUS, run.PeakMB, run.DBMB)
	}
	for _, s := range []struct {
		name string
		s    bench.MineSide
	}{{"other", r.Other}, {"this", r.This}} {
		fmt.Fprintf(out, "%-5s median %7.2fs wall %7.2fs cpu %7.1f MB peak %7.1f MB palace  (%s)\n",
			s.name, s.s.WallS, s.s.CPUS, s.s.PeakMB, s.s.DBMB, s.s.Exe)
	}
	fmt.Fprintf(out, "this / other: wall %.2fx, peak memory %.2fx\n", r.WallRatio, r.PeakRatio)
	return nil
}

func newBenchLocomoCmd() *cobra.Command {
	var data string
	var pick []string
	var asJSON bool
	var size ops.SearchSize
	c := &cobra.Command{
		Use:   "locomo --data FILE",
		Short: "Retrieval recall on the LoCoMo benchmark (turn and session level)",
		Long: `Bench locomo indexes each LoCoMo conversation into a fresh palace through the
conversation-mining path, asks every question that is not adversarial
(category 5) as a plain query, and reports turn-level R_all@k, R_any@k,
R_frac@k and MRR and session-level R_any@k and R_all@k for k = 5 and 10,
overall and per category. Only the conversations are indexed. reach is the
share of questions each of whose evidence turns shares a word with the
question (stemmed as the index stems, stop words and the speakers' names
aside), reach_near the same counting the turns beside each (two before, one
after): how much a search that matches words can find at all. retrieved is
the share of questions all of whose evidence turns are among the turns of
the 50 drawers each search returns: what a perfect reordering of them
would reach.

--conversations scores only the conversations it names, by position in the
file (1-based) or by sample_id, so part of a split can be held back from
tuning and reported on its own. --json also lists every scored question
(by_question) with its first 10 turns and the rank of each evidence turn,
so a miss can be read.

--detail and --budget also measure the answers an agent is handed: each
question is asked once more as 'palace search QUESTION --detail D --budget
N' asks it (the default limit, 10 hits), and the report gives the tokens
per answer (mean, p50, p95; each hit's JSON counted with the wake-up's
estimator), the hits shown and left out, and turn R_any@10 and R_all@10 on
the turns of the hits shown (answers in --json). --detail alone measures
without a budget; --budget alone measures full answers.`,
		Example: `  palace bench locomo --data ../shared/datasets/locomo/locomo_dev.json
  palace bench locomo --data ../shared/datasets/locomo/locomo_dev.json --conversations 2,4
  palace bench locomo --data ../shared/datasets/locomo/locomo_dev.json --detail compact --budget 1500`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			if data == "" {
				return usageError{fmt.Errorf("--data FILE is required")}
			}
			var answer *ops.SearchSize
			if c.Flags().Changed("detail") || c.Flags().Changed("budget") {
				answer = &size
			}
			r, err := bench.Locomo(c.Context(), data, "", pick, answer)
			if err != nil {
				return inputErr(err)
			}
			out := c.OutOrStdout()
			if asJSON {
				return termsafe.WriteJSON(out, r)
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
			fmt.Fprintf(out, "conversations %s\n", strings.Join(termsafe.Lines(r.Conversations), ", "))
			fmt.Fprintf(out, "questions %d, adversarial excluded %d, no valid evidence %d, scored %d (%.1fs)\n",
				r.Counts["questions_total"], r.Counts["excluded_adversarial"], r.Counts["excluded_no_evidence"],
				r.Counts["questions_scored"], r.Seconds)
			if a := r.Answers; a != nil {
				fmt.Fprintf(out, "answers (detail %s, budget %d, limit %d): tokens mean %.0f p50 %.0f p95 %.0f; hits %.1f shown, %.1f left out; turn_R_any@10 %.3f turn_R_all@10 %.3f\n",
					a.Detail, a.Budget, a.Limit, a.Tokens.Mean, a.Tokens.P50, a.Tokens.P95, a.Hits, a.Omitted, a.Recall["turn_R_any@10"], a.Recall["turn_R_all@10"])
			}
			return nil
		},
	}
	c.Flags().StringVar(&data, "data", "", "LoCoMo JSON file (a list of conversations with qa)")
	c.Flags().StringVar(&size.Detail, "detail", ops.DetailFull, "measure the answers of this detail too: "+ops.OneOf(ops.SearchDetails))
	c.Flags().IntVar(&size.Budget, "budget", 0, "measure the answers within this many tokens too (0: no budget)")
	c.Flags().StringSliceVar(&pick, "conversations", nil, "score only these conversations: positions in the file (1-based) or sample_ids, comma-separated")
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}

func newBenchCodeCmd() *cobra.Command {
	var o bench.CodeOptions
	var asJSON bool
	c := &cobra.Command{
		Use:   "code --repo DIR",
		Short: "File-level code retrieval on a git repository's own history, beside a BM25 reference",
		Long: `Bench code asks a git repository (work tree or bare) where its own changes were
made. Each non-merge commit, newest first, that changed 1 to 4 source files
(tests, vendored, docs and examples folders are not source), all still at
HEAD, is a query: its subject without a trailing "(#123)", a
conventional-commit prefix ("fix(x): ") or an area prefix ("net/http: ").
Reverts, merges, version bumps, repeats and subjects with fewer than three
words of three letters or more are skipped.

HEAD's tree is mined into a fresh temporary palace (no embedding model) and
each query runs through the same search as 'palace search'; hits are
collapsed to files in rank order. The reference is plain BM25 (k1 1.2,
b 0.75, English stop words, camelCase-split tokens) over 800-character chunks
of every text file, each prefixed with its path. It reports R_any@5,
R_any@10, R_all@10 and MRR@10 for both.`,
		Example: `  palace bench code --repo .
  palace bench code --repo ~/src/go --max 100 --json`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			if o.Repo == "" {
				return usageError{fmt.Errorf("--repo DIR is required")}
			}
			r, err := bench.Code(c.Context(), o)
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			if asJSON {
				return termsafe.WriteJSON(out, r)
			}
			fmt.Fprintf(out, "bench code %s at %.12s: %d queries, %d files mined (%d drawers), %d reference chunks\n",
				r.Repo, r.Head, r.Queries, r.Files, r.Drawers, r.RefChunks)
			fmt.Fprintf(out, "%-10s %8s %10s %8s\n", "metric", "palace", "reference", "diff")
			for _, k := range bench.CodeMetricKeys() {
				fmt.Fprintf(out, "%-10s %8.3f %10.3f %+8.3f\n", k, r.Palace[k], r.Reference[k], r.Palace[k]-r.Reference[k])
			}
			reasons := make([]string, 0, len(r.Skipped))
			for why, n := range r.Skipped {
				reasons = append(reasons, fmt.Sprintf("%s %d", why, n))
			}
			sort.Strings(reasons)
			fmt.Fprintf(out, "commits skipped: %s (%.1fs)\n", strings.Join(reasons, ", "), r.Seconds)
			return nil
		},
	}
	c.Flags().StringVar(&o.Repo, "repo", "", "git repository (work tree or bare)")
	c.Flags().IntVar(&o.Max, "max", bench.DefaultCodeMax, "queries: the newest qualifying commits")
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}

func newBenchRelevantCmd() *cobra.Command {
	var o bench.RelevantOptions
	var asJSON bool
	c := &cobra.Command{
		Use:   "relevant --repo DIR",
		Short: "How often the editor's Relevant puts a called function's definition first",
		Long: `Bench relevant mines DIR (a work tree) into a fresh temporary palace (no
embedding model), finds the calls (an identifier followed by "(", outside
comments and string literals) of functions and methods defined exactly once
in DIR, in another file than the call, by the definitions mining recorded,
and takes up to --max of them spread across files (a fixed order, so runs
compare). For each it puts the cursor on the call and asks Relevant as the
editor's palace/relevant does, and reports the share of calls whose
definition's drawer is the first row (first) and among the first three
(top3).`,
		Example: `  palace bench relevant --repo .
  palace bench relevant --repo "$(go env GOROOT)/src/net/http" --max 100 --json`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			if o.Repo == "" {
				return usageError{fmt.Errorf("--repo DIR is required")}
			}
			r, err := bench.Relevant(c.Context(), o)
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			if asJSON {
				return termsafe.WriteJSON(out, r)
			}
			fmt.Fprintf(out, "bench relevant %s: %d files mined (%d drawers), %d eligible calls (%d Go calls of another package left out), %d asked\n",
				r.Repo, r.Files, r.Drawers, r.Eligible, r.OtherPackage, r.Calls)
			fmt.Fprintf(out, "definition first %.3f  in top 3 %.3f  (p50 %.1f ms, p95 %.1f ms; %.1fs)\n",
				r.First, r.Top3, r.P50ms, r.P95ms, r.Seconds)
			return nil
		},
	}
	c.Flags().StringVar(&o.Repo, "repo", "", "folder to mine (a work tree)")
	c.Flags().IntVar(&o.Max, "max", bench.DefaultRelevantMax, "calls asked about, spread across files")
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}

func newBenchEmbedCmd(g *globals) *cobra.Command {
	var iters int
	var skipGo, asJSON bool
	c := &cobra.Command{
		Use:   "embed",
		Short: "Embedding throughput per backend, and Palace's ORT overhead over bare onnxruntime",
		Long: `Bench embed measures chunks/s of the ort and go embedding backends for texts of
exactly 16, 64 and 256 tokens, one and 32 texts per call, and the overhead of
Palace's ORT path (tokenise, pad, run, pool, normalise) over a bare
onnxruntime_go loop running the same token ids with the same session options.

Without --model-dir it generates a MiniLM-shaped model with random weights
(about 90 MB, deleted afterwards) with scripts/gen_tiny_model.py, which needs
a Palace checkout and python3 with python3-onnx and python3-numpy.
PALACE_MODEL_DIR and 'palace model use' are not consulted. ort is measured
when the onnxruntime library loads ('palace setup ort'); go always, unless
--skip-go (about 30-40 s per call at 256 tokens x 32 on MiniLM, so the go
backend gets at most 3 s of timed calls per cell, at least one). ort and bare
calls alternate; each cell runs --iters pairs, more to fill 5 s when calls
are fast, fewer (at least 3) once it passes 20 s.

Times are medians per call. The overhead is the median over call pairs of
ort/bare - 1, so load from other processes slows both sides alike. "tok ms"
is, for reference, the time the general-purpose tokenizer library
(sugarme/tokenizer) takes for the texts; Palace tokenises plain ASCII text
with its own WordPiece path, far faster, and falls back to the library for
everything else. Progress goes to stderr.`,
		Example: `  palace setup ort && palace bench embed
  palace bench embed --model-dir ~/models/all-MiniLM-L6-v2 --skip-go --json`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			ctx := c.Context()
			dir, generated := g.modelDir, false
			if dir == "" {
				python, script, err := bench.FindGenerator(ctx)
				if err != nil {
					if errors.Is(err, bench.ErrNoGenerator) {
						return usageError{fmt.Errorf("bench embed: no model: %w", err)}
					}
					return err
				}
				tmp, err := os.MkdirTemp("", "palace-bench-minilm-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(tmp)
				fmt.Fprintf(c.ErrOrStderr(), "generating a MiniLM-shaped random-weight model in %s (%s)\n", tmp, python)
				if err := bench.GenerateMiniLM(ctx, python, script, tmp); err != nil {
					return fmt.Errorf("bench embed: generate a model: %w", err)
				}
				dir, generated = tmp, true
			}
			r, err := bench.Embed(ctx, bench.EmbedOptions{
				ModelDir: dir, Config: embed.ConfigFromEnv(g.home), SkipGo: skipGo, Iters: iters, Progress: c.ErrOrStderr(),
			})
			if err != nil {
				return err
			}
			r.Generated = generated
			out := c.OutOrStdout()
			if asJSON {
				return termsafe.WriteJSON(out, r)
			}
			printEmbedReport(out, r)
			return nil
		},
	}
	c.Flags().IntVar(&iters, "iters", 10, "timed calls per backend and cell (ort: more for fast cells, to fill 5 s; fewer past 20 s)")
	c.Flags().BoolVar(&skipGo, "skip-go", false, "do not measure the slow pure-Go backend")
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}

func printEmbedReport(out io.Writer, r *bench.EmbedReport) {
	what := r.ModelDir
	if r.Generated {
		what = "MiniLM-shaped, random weights (scripts/gen_tiny_model.py --minilm)"
	}
	fmt.Fprintf(out, "bench embed: model %s\n", what)
	fmt.Fprintf(out, "  id %s, dim %d, up to %d tokens; %d cores, %d ORT threads\n",
		r.ModelID, r.Dim, r.MaxTokens, r.Cores, r.Threads)
	fmt.Fprintf(out, "  ort: %s\n  go:  %s\n", r.ORT, r.Go)
	fmt.Fprintf(out, "%6s %5s  %10s %10s  %10s %10s  %9s %8s  %10s %10s\n",
		"tokens", "batch", "ort ms", "chunks/s", "bare ms", "chunks/s", "overhead", "tok ms", "go ms", "chunks/s")
	cell := func(t *bench.Throughput) string {
		if t == nil {
			return fmt.Sprintf("%10s %10s", "-", "-")
		}
		return fmt.Sprintf("%10.2f %10.1f", t.MsPerCall, t.ChunksPerSec)
	}
	for _, c := range r.Cells {
		if c.Skipped != "" {
			fmt.Fprintf(out, "%6d %5d  skipped: %s\n", c.Tokens, c.Batch, c.Skipped)
			continue
		}
		over, tok := "-", "-"
		if c.OverheadPct != nil {
			over = fmt.Sprintf("%+.1f %%", *c.OverheadPct)
			tok = fmt.Sprintf("%.2f", c.TokenizeMs)
		}
		fmt.Fprintf(out, "%6d %5d  %s  %s  %9s %8s  %s\n", c.Tokens, c.Batch, cell(c.ORT), cell(c.Bare), over, tok, cell(c.Go))
	}
	fmt.Fprintf(out, "ms: median per call; overhead: median over interleaved call pairs of ort/bare - 1;\n"+
		"tok ms: the tokenizer library alone, for reference (Palace's ASCII fast path is far quicker) (%.0f s)\n", r.Seconds)
}

func newBenchVectorsCmd() *cobra.Command {
	o := bench.VectorsOptions{}
	var asJSON bool
	c := &cobra.Command{
		Use:   "vectors",
		Short: "KNN, BM25 and hybrid search latency on synthetic palaces of 10k and 100k drawers",
		Long: `Bench vectors builds a temporary palace of synthetic drawers (random text from
a fixed pseudo-word vocabulary, random unit vectors; no model needed; fixed
seed) spread over --wings wings, growing it through each --n size. At each
size it times, per query, over the whole palace and inside one wing:

  knn     the 50 nearest vectors (store.SearchVector)
  bm25    search in lexical mode with limit 50 (routing, FTS5, snippets)
  hybrid  both back to back: hybrid search without the query embedding and
          without the rank fusion of the two lists (microseconds)

It prints build time and p50/p95 in milliseconds, each query timed once after
one untimed pass.`,
		Example: `  palace bench vectors
  palace bench vectors --n 10000 --dim 768 --json`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			if err := o.Check(); err != nil {
				return usageError{err}
			}
			o.Progress = c.ErrOrStderr()
			r, err := bench.Vectors(c.Context(), o)
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			if asJSON {
				return termsafe.WriteJSON(out, r)
			}
			printVectorsReport(out, r)
			return nil
		},
	}
	c.Flags().IntSliceVar(&o.Sizes, "n", bench.DefaultVectorSizes, "palace sizes in drawers, comma-separated")
	c.Flags().IntVar(&o.Dim, "dim", bench.DefaultVectorDim, "vector dimension")
	c.Flags().IntVar(&o.Wings, "wings", bench.DefaultVectorWings, "wings the drawers are spread over")
	c.Flags().IntVar(&o.Queries, "queries", bench.DefaultVectorQueries, "timed queries per size and scope")
	c.Flags().Uint64Var(&o.Seed, "seed", bench.DefaultVectorSeed, "random seed for drawers, vectors and queries")
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}

func printVectorsReport(out io.Writer, r *bench.VectorsReport) {
	fmt.Fprintf(out, "bench vectors: dim %d, %d wings, %d queries, %d hits per side, %d cores, seed %d\n",
		r.Dim, r.Wings, r.Queries, r.Depth, r.Cores, r.Seed)
	fmt.Fprintf(out, "  %s\n", r.Workload)
	for _, s := range r.Sizes {
		fmt.Fprintf(out, "  %d drawers: insert %.1f s, vectors %.1f s (grown from the previous size), %.0f MB on disk\n",
			s.Drawers, s.InsertSeconds, s.VectorSeconds, float64(s.DBBytes)/1e6)
	}
	fmt.Fprintf(out, "%8s  %-8s  %17s  %17s  %17s\n", "drawers", "scope", "knn p50/p95 ms", "bm25 p50/p95 ms", "hybrid p50/p95 ms")
	pair := func(l bench.Latency) string { return fmt.Sprintf("%8.2f %8.2f", l.P50, l.P95) }
	for _, s := range r.Sizes {
		for _, sc := range []struct {
			name string
			l    bench.SearchLatency
		}{{"all", s.All}, {"one wing", s.Wing}} {
			fmt.Fprintf(out, "%8d  %-8s  %s  %s  %s\n", s.Drawers, sc.name, pair(sc.l.KNN), pair(sc.l.BM25), pair(sc.l.Hybrid))
		}
	}
	fmt.Fprintf(out, "(%.0f s; hybrid excludes the query embedding)\n", r.Seconds)
}
