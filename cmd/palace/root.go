package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/core/palace"
)

// usageError marks a mistake in how palace was called (exit code 2).
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

// globals are the flags every command shares.
type globals struct {
	home     string
	modelDir string
}

// open resolves the palace home (--home, else PALACE_HOME, else ~/.palace)
// and opens it.
func (g *globals) open() (*palace.Palace, error) {
	home, err := palace.ResolveHome(g.home)
	if err != nil {
		return nil, err
	}
	return palace.Open(home, palace.Options{ModelDir: g.modelDir})
}

// openExisting opens the palace for a read command, which never creates
// one: a missing home is an error naming it.
func (g *globals) openExisting() (*palace.Palace, error) {
	home, err := palace.ResolveHome(g.home)
	if err != nil {
		return nil, err
	}
	return palace.Open(home, palace.Options{ModelDir: g.modelDir, NoCreate: true})
}

func newRoot() *cobra.Command {
	g := &globals{}
	root := &cobra.Command{
		Use:   "palace",
		Short: "Palace: local-first long-term memory for coding agents",
		Long: `Palace keeps project files and conversations verbatim as drawers in one
SQLite file ($PALACE_HOME/palace.db, default ~/.palace), sorted into wings and
rooms, and finds them again with full-text search.`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          args(cobra.NoArgs),
		RunE:          func(c *cobra.Command, _ []string) error { return c.Help() },
	}
	root.PersistentFlags().StringVar(&g.home, "home", "", "palace directory (overrides PALACE_HOME; default ~/.palace)")
	root.PersistentFlags().StringVar(&g.modelDir, "model-dir", "", "embedding model folder (model.onnx, tokenizer.json, config.json); overrides PALACE_MODEL_DIR and 'palace model use'")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageError{fmt.Errorf("%w (see '%s --help')", err, c.CommandPath())}
	})
	root.AddCommand(
		newInitCmd(g),
		newMineCmd(g),
		newSearchCmd(g),
		newStatusCmd(g),
		newDrawerCmd(g),
		newBenchCmd(g),
		newKGCmd(g),
		newCompressCmd(g),
		newAAAKCmd(g),
		newSplitCmd(),
		newReindexCmd(g),
		newDupCmd(g),
		newModelCmd(g),
		newSetupCmd(g),
		newDoctorCmd(g),
		newRepairCmd(g),
		newTaxonomyCmd(g),
		newTunnelsCmd(g),
		newMapCmd(g),
		newAuditCmd(g),
		newExportCmd(g),
		newImportCmd(g),
		newRememberCmd(g),
		newDiaryCmd(g),
		newAgentCmd(g),
		newWakeUpCmd(g),
		newServeCmd(g),
		newHookCmd(g),
		newTeamCmd(g),
		newSyncCmd(g),
	)
	return root
}

// needsSubcommand makes a command group reject a missing or unknown
// subcommand as a usage error instead of printing help and exiting 0.
func needsSubcommand(c *cobra.Command) *cobra.Command {
	c.Args = args(cobra.NoArgs)
	c.RunE = func(c *cobra.Command, _ []string) error {
		return usageError{fmt.Errorf("%s needs a subcommand (see '%s --help')", c.CommandPath(), c.CommandPath())}
	}
	return c
}

// withPalace opens the palace, runs fn and closes it, keeping fn's error
// first.
func withPalace[T any](g *globals, fn func(*palace.Palace) (T, error)) (T, error) {
	return runWith(g.open, fn)
}

// readPalace is withPalace for a read command: it never creates a palace.
func readPalace[T any](g *globals, fn func(*palace.Palace) (T, error)) (T, error) {
	return runWith(g.openExisting, fn)
}

func runWith[T any](open func() (*palace.Palace, error), fn func(*palace.Palace) (T, error)) (T, error) {
	p, err := open()
	if err != nil {
		var zero T
		return zero, err
	}
	v, err := fn(p)
	if cerr := p.Close(); err == nil && cerr != nil {
		err = cerr
	}
	return v, err
}

// args wraps a cobra argument validator so its errors are usage errors.
func args(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(c *cobra.Command, a []string) error {
		if err := v(c, a); err != nil {
			if !c.HasParent() {
				return usageError{err} // main already says "palace:"
			}
			return usageError{fmt.Errorf("%s: %w", c.CommandPath(), err)}
		}
		return nil
	}
}
