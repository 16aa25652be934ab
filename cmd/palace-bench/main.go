// Command palace-bench runs Palace's benchmarks: the performance suite and
// one command per benchmark (mine, code, locomo, loop, relevant, team,
// vectors, embed). It is a binary of its own so that the product, palace,
// links none of it (the MCP and LSP clients, pgx, onnxruntime); `palace
// bench ARGS` runs `palace-bench ARGS`. Where a benchmark starts palace
// children (mines, servers, hooks) they are the palace binary named by
// --palace, else $PALACE_BIN, else the palace beside this executable, else
// the one on PATH.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/input"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:]))
}

// run executes one command line and returns the exit code: 0 ok, 1 error,
// 2 usage, as palace's.
func run(ctx context.Context, args []string) int {
	root := newRoot()
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	fmt.Fprintln(os.Stderr, "palace-bench:", termsafe.Text(err.Error()))
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

// usageError marks a mistake in how the bench was called (exit code 2).
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

// globals are the flags every bench command shares.
type globals struct {
	home     string
	modelDir string
	palace   string
}

// newRoot is palace-bench: with no subcommand, the whole suite (what
// `palace bench` runs).
func newRoot() *cobra.Command {
	g := &globals{}
	root := newBenchCmd(g)
	root.Use = "palace-bench"
	root.SilenceUsage, root.SilenceErrors = true, true
	root.PersistentFlags().StringVar(&g.home, "home", "", "palace directory (overrides PALACE_HOME; default ~/.palace)")
	root.PersistentFlags().StringVar(&g.modelDir, "model-dir", "", "embedding model folder (model.onnx, tokenizer.json, config.json); overrides PALACE_MODEL_DIR and 'palace model use'")
	root.PersistentFlags().StringVar(&g.palace, "palace", "", "the palace binary the benchmarks run (default: $PALACE_BIN, else the palace beside palace-bench, else palace on PATH)")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w (see '%s --help')", err, c.CommandPath())}
	})
	return root
}

// palaceBinary is the palace binary the benchmarks start as children:
// --palace, else $PALACE_BIN (`palace bench` sets it to itself), else
// the palace beside this executable (bin/ after `make build`), else the
// one on PATH. The path is absolute: hooks run it from project folders.
func (g *globals) palaceBinary() (string, error) {
	name := g.palace
	if name == "" {
		name = os.Getenv("PALACE_BIN")
	}
	if name == "" {
		if self, err := os.Executable(); err == nil {
			if p := filepath.Join(filepath.Dir(self), "palace"); isExecutable(p) {
				name = p
			}
		}
	}
	if name == "" {
		p, err := exec.LookPath("palace")
		if err != nil {
			return "", errors.New("no palace binary: none beside palace-bench nor on PATH; build both with 'make build', or name one with --palace")
		}
		name = p
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return "", err
	}
	if !isExecutable(abs) {
		return "", usageError{fmt.Errorf("palace binary %s: not an executable file", name)}
	}
	return abs, nil
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// inputErr reports a core feature's refusal of bad input as a usage error
// (exit 2); other errors pass unchanged.
func inputErr(err error) error {
	if errors.Is(err, input.ErrInvalid) {
		return usageError{err}
	}
	return err
}

// args wraps a cobra argument validator so its errors are usage errors.
func args(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(c *cobra.Command, a []string) error {
		if err := v(c, a); err != nil {
			if !c.HasParent() {
				return usageError{err} // main already says "palace-bench:"
			}
			return usageError{fmt.Errorf("%s: %w", c.CommandPath(), err)}
		}
		return nil
	}
}
