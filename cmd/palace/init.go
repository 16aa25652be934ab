package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/ops"
)

func newInitCmd(_ *globals) *cobra.Command {
	var force bool
	var dry bool
	c := &cobra.Command{
		Use:   "init DIR",
		Short: "Propose a wing and rooms from DIR's folders and write DIR/palace.yaml",
		Long: `Init names the wing after DIR and proposes one room per top-level folder
(keyword: the folder name, except for generic programming words such as
src, internal, test, docs, util, http or context, which would route nearly
every query; those rooms get no keyword), then writes palace.yaml. Edit the file to rename
rooms or add keywords; at every mine the file replaces the wing's taxonomy.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			res, err := ops.Init(c.Context(), ops.InitRequest{Dir: a[0], Force: force, DryRun: dry})
			return finish(c, false, res, err, func(out io.Writer, res ops.InitResult) {
				if dry {
					io.WriteString(out, res.YAML)
					return
				}
				fmt.Fprintf(out, "wrote %s: wing %s, %d rooms\n", termsafe.Line(res.Path), termsafe.Line(res.Wing), res.Rooms)
			})
		},
	}
	c.Flags().BoolVar(&force, "force", false, "replace an existing palace.yaml")
	c.Flags().BoolVar(&dry, "dry-run", false, "print the proposal instead of writing it")
	return c
}
