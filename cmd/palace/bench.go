package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/spf13/cobra"
)

// benchBinary is the benchmarks' own binary (cmd/palace-bench): palace
// links none of the harness, its MCP and LSP clients, pgx or onnxruntime.
const benchBinary = "palace-bench"

// errNoBench says how to get palace-bench when it is missing.
var errNoBench = errors.New("the benchmarks are a binary of their own, palace-bench, and none is beside this palace or on PATH: 'make build' builds both, or 'go build -o bin/palace-bench ./cmd/palace-bench' next to bin/palace")

// newBenchCmd is `palace bench ARGS...`: it runs `palace-bench ARGS...`
// (the one beside this executable, else the one on PATH) with the same
// arguments, standard streams and exit code, the benchmarks' children
// being this palace ($PALACE_BIN).
func newBenchCmd(*globals) *cobra.Command {
	return &cobra.Command{
		Use:   "bench [SUBCOMMAND] [FLAGS]",
		Short: "Run the performance suite, or one benchmark (runs palace-bench)",
		Long: `Bench runs palace-bench, the benchmarks' own binary, with the same arguments:
with no subcommand the performance suite, else one benchmark (mine, code,
locomo, loop, relevant, team, vectors, embed). The benchmarks start this
palace as their child processes. palace-bench is looked for beside this
palace, then on PATH; 'make build' builds both ('palace bench --help' shows
palace-bench's own help).`,
		Example: `  palace bench --quick
  palace bench code --repo .
  palace bench loop
  palace bench locomo --data ../shared/datasets/locomo/locomo_dev.json`,
		DisableFlagParsing: true,
		RunE: func(c *cobra.Command, a []string) error {
			exe, err := findBench()
			if err != nil {
				return err
			}
			self, err := os.Executable()
			if err != nil {
				return fmt.Errorf("bench: find this palace: %w", err)
			}
			// With flag parsing off, a holds every argument after
			// "bench", flags given before it (--home, --model-dir)
			// included: palace-bench has them too.
			return runBench(exe, a, append(os.Environ(), "PALACE_BIN="+self))
		},
	}
}

// findBench is palace-bench beside this executable, else on PATH.
func findBench() (string, error) {
	if self, err := os.Executable(); err == nil {
		if resolved, err := filepath.EvalSymlinks(self); err == nil {
			self = resolved
		}
		p := filepath.Join(filepath.Dir(self), benchBinary)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	if p, err := exec.LookPath(benchBinary); err == nil {
		return p, nil
	}
	return "", errNoBench
}
