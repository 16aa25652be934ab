package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/core/transfer"
)

func newExportCmd(g *globals) *cobra.Command {
	var wing string
	c := &cobra.Command{
		Use:   "export [--wing W] > FILE.jsonl",
		Short: "Write drawers, diaries, taxonomy and the knowledge graph as JSON lines",
		Long: `Export writes a versioned header line, then one line per taxonomy room,
drawer (notes, diaries, files and conversations, deleted ones included, with
all their metadata), entity and fact. The same palace always exports the same
bytes. The search index and vectors are not exported: the importing palace
rebuilds them.`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			p, err := g.open()
			if err != nil {
				return err
			}
			defer p.Close()
			n, err := transfer.Export(c.Context(), p, wing, c.OutOrStdout())
			if err != nil {
				return err
			}
			fmt.Fprintf(c.ErrOrStderr(), "exported %d rows\n", n)
			return nil
		},
	}
	c.Flags().StringVar(&wing, "wing", "", "only this wing (and the facts read from its drawers)")
	return c
}

func newImportCmd(g *globals) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "import FILE",
		Short: "Add what an export holds and this palace lacks (idempotent; conflicts reported)",
		Long: `Import reads a file written by 'palace export'. Rows the palace already has
unchanged are skipped, so importing twice changes nothing; a row whose id
exists with other content is reported as a conflict and the palace keeps its
own. A malformed file is refused whole, naming the line, and nothing is
written. Run 'palace reindex' afterwards to embed imported drawers.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			f, err := os.Open(a[0])
			if err != nil {
				return err
			}
			defer f.Close()
			p, err := g.open()
			if err != nil {
				return err
			}
			defer p.Close()
			res, err := transfer.Import(c.Context(), p, a[0], f)
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(c.OutOrStdout(), res)
			}
			fmt.Fprintf(c.OutOrStdout(), "added %v, unchanged %v, %d conflicts\n", res.Added, res.Unchanged, len(res.Conflicts))
			for _, k := range res.Conflicts {
				fmt.Fprintln(c.OutOrStdout(), "conflict (kept this palace's):", k)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the counts as JSON")
	return c
}
