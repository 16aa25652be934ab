package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/server/lsp"
)

func newServeCmd(g *globals) *cobra.Command {
	var lspMode bool
	c := &cobra.Command{
		Use:   "serve --lsp",
		Short: "Run a server on stdio: --lsp for editors",
		Long: `Serve runs Palace as a server that speaks only protocol on stdout (logs go to
stderr). --lsp is the Language Server Protocol front for editors: it mines
each workspace folder into its wing, re-mines files on save and when they
change on disk, and answers palace/relevant, palace/search, palace/drawer,
palace/remember, palace/forget, palace/status and palace/wakeUp.`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			if !lspMode {
				return usageError{fmt.Errorf("serve: choose a protocol: --lsp")}
			}
			err := lsp.Serve(c.Context(), os.Stdin, os.Stdout, lsp.Options{Home: g.home, ModelDir: g.modelDir, Version: version})
			if errors.Is(err, lsp.ErrNoShutdown) {
				return exitError{code: 1, err: err}
			}
			return err
		},
	}
	c.Flags().BoolVar(&lspMode, "lsp", false, "serve the Language Server Protocol on stdio (editors)")
	return c
}
