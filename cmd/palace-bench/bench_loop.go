package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/cmd/palace-bench/internal/bench"
	"github.com/palace-dev/palace/core/extract"
)

func newBenchLoopCmd(g *globals) *cobra.Command {
	var (
		asJSON         bool
		dir, exe, talk string
		only           []string
	)
	c := &cobra.Command{
		Use:   "loop",
		Short: "The memory loop an agent lives in: what sessions save, shown at the next SessionStart, through the real hooks and MCP server",
		Long: `Bench loop plays scripted multi-session scenarios (testdata/loop/*.yaml in
the bench package, built in; --scenarios DIR for others) through the real
fronts, each on a fresh palace and user home: 'palace hook install AGENT'
sets the agent up, each session's transcript is written where the agent
keeps it (Claude Code's .jsonl or Codex's rollout file, with tool calls
and their output), the installed hooks run with the JSON the agent sends
(SessionStart, Stop after every turn, PreCompact and the SessionStart
after a compaction, SessionEnd when installed), and the saves go through
'palace serve --mcp' with mcp-go's client, the project folder as its root.
At the end the next SessionStart of each project is read, and searches
are asked through palace_search.

It prints:
  continuity         share of expected items in the SessionStart text
  latest-first       share of [newer, older] pairs shown newer first
                     (or the older left out)
  noise              share of SessionStart characters on lines of
                     tool-call JSON, raw tool output or raw code, in
                     scenarios that saved notes
  cross-project      items of the other project a SessionStart showed
  search first       share of searches whose first hit holds the item
  MCP start cost     characters of the initialize instructions plus the
                     tools/list result, as sent by the default profile
  hook p95           wall time of Stop and SessionStart hook runs
  extraction         precision and recall of proposed facts on the
                     held-back engineering-talk set (--talk FILE for
                     another labelled set)

and the misses of each scenario. --exe BIN drives another palace binary
(an earlier build, for before and after).`,
		Example: `  palace bench loop
  palace bench loop --only correction-retry,two-projects --json
  palace bench loop --exe /tmp/palace-before`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			scenarios, err := bench.LoadLoopScenarios(dir, only)
			if err != nil {
				return usageError{err}
			}
			o := bench.LoopOptions{Scenarios: scenarios, Progress: c.ErrOrStderr()}
			if o.Exe, err = loopExe(g, exe); err != nil {
				return err
			}
			if talk != "" {
				f, err := os.Open(talk)
				if err != nil {
					return usageError{fmt.Errorf("--talk: %w", err)}
				}
				o.Talk, err = extract.ReadTalk(f)
				f.Close()
				if err != nil {
					return usageError{fmt.Errorf("--talk %s: %w", talk, err)}
				}
				o.TalkName = talk
			}
			r, err := bench.Loop(c.Context(), o)
			if err != nil {
				return err
			}
			if asJSON {
				return termsafe.WriteJSON(c.OutOrStdout(), r)
			}
			printLoopReport(c.OutOrStdout(), r)
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON, with every SessionStart text checked")
	c.Flags().StringVar(&dir, "scenarios", "", "a folder of *.yaml scenarios to run instead of the built-in ones")
	c.Flags().StringSliceVar(&only, "only", nil, "run only these scenarios, by name (comma-separated)")
	c.Flags().StringVar(&exe, "exe", "", "the palace binary to drive (default: the one --palace names)")
	c.Flags().StringVar(&talk, "talk", "", "a labelled set (JSON lines, as core/extract/testdata/talk_*.jsonl) to score extraction on")
	return c
}

// loopExe is the binary to drive: exe made absolute (the hooks run it
// from project folders), or the palace the other benchmarks run.
func loopExe(g *globals, exe string) (string, error) {
	if exe == "" {
		return g.palaceBinary()
	}
	abs, err := filepath.Abs(exe)
	if err != nil {
		return "", usageError{fmt.Errorf("--exe: %w", err)}
	}
	if fi, err := os.Stat(abs); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return "", usageError{fmt.Errorf("--exe %s: not an executable file", exe)}
	}
	return abs, nil
}

func printLoopReport(out io.Writer, r *bench.LoopReport) {
	fmt.Fprintf(out, "bench loop: %d scenarios, %d sessions, %d turns, %d saves (%d refused), %s, %d cores, %.0f s\n",
		r.Scenarios, r.Sessions, r.Turns, r.Saves, r.SavesFailed, termsafe.Line(r.Exe), r.Cores, r.Seconds)
	row := func(name, value, target string) {
		fmt.Fprintf(out, "  %-28s %-44s %s\n", name, value, target)
	}
	share := func(s bench.LoopShare) string { return fmt.Sprintf("%.2f (%d of %d)", s.Value, s.Hits, s.Of) }
	row("measure", "value", "target")
	row("continuity", share(r.Continuity), fmt.Sprintf(">= %.2f", r.Continuity.Target))
	row("latest-first", share(r.LatestFirst), fmt.Sprintf("%.1f", r.LatestFirst.Target))
	row("noise", fmt.Sprintf("%.3f (%d of %d chars)", r.Noise.Value, r.Noise.NoisyChars, r.Noise.Chars), "0")
	row("cross-project leaks", fmt.Sprintf("%d (of %d items checked)", r.Leaks.Shown, r.Leaks.Of), "0")
	row("search first", share(r.SearchFirst), "")
	m := r.MCPStart
	row("MCP start cost", fmt.Sprintf("%d chars (instructions %d, tools/list %d, %d tools)", m.Chars, m.InstructionsChars, m.ToolsListChars, m.Tools),
		fmt.Sprintf("<= %d", m.Target))
	row("hook p95, Stop+SessionStart", fmt.Sprintf("%.0f ms", r.Hooks.P95), fmt.Sprintf("<= %.0f ms", r.Hooks.Target))
	events := make([]string, 0, len(r.Hooks.Events))
	for ev := range r.Hooks.Events {
		events = append(events, ev)
	}
	sort.Strings(events)
	for _, ev := range events {
		t := r.Hooks.Events[ev]
		row("  "+ev, fmt.Sprintf("p50 %.0f, p95 %.0f, max %.0f ms (%d runs)", t.P50, t.P95, t.Max, t.Runs), "")
	}
	e := r.Extraction
	row("extraction P / R", fmt.Sprintf("%.2f / %.2f (%d sentences, TP %d FP %d FN %d)", e.Precision, e.Recall, e.Sentences, e.TP, e.FP, e.FN),
		fmt.Sprintf(">= %.1f / %.1f", e.TargetPrecision, e.TargetRecall))
	row("SessionStart text", fmt.Sprintf("%.0f chars on average", r.StartChars), "")
	fmt.Fprintf(out, "  extraction set: %s\n", termsafe.Line(e.Set))
	fmt.Fprintf(out, "  largest tools:")
	for _, t := range m.Largest {
		fmt.Fprintf(out, " %s %d", termsafe.Line(t.Name), t.Chars)
	}
	fmt.Fprintln(out)
	for _, res := range r.Results {
		var misses []string
		add := func(what string, xs []string) {
			if len(xs) > 0 {
				misses = append(misses, what+" "+strings.Join(xs, "; "))
			}
		}
		for _, c := range res.Checks {
			where := c.Project
			if c.Source != "startup" {
				where += " after compaction"
			}
			add(where+": missing", c.Missing)
			add(where+": order", c.Misordered)
			add(where+": leaked", c.Leaked)
			add(where+": search", c.SearchMisses)
			if c.NoisyChars > 0 {
				misses = append(misses, fmt.Sprintf("%s: %d noisy chars of %d", where, c.NoisyChars, c.Chars))
			}
		}
		add("refused saves:", res.FailedSaves)
		add("no hooks:", res.NoHooks)
		if len(misses) == 0 {
			continue
		}
		fmt.Fprintf(out, "%s\n", termsafe.Line(res.Name))
		for _, m := range misses {
			fmt.Fprintf(out, "    %s\n", termsafe.Line(m))
		}
	}
}
