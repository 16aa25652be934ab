package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/core/search"
)

func newDrawerCmd(g *globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "drawer",
		Short: "Show, forget or purge one drawer",
	}
	var asJSON bool
	show := &cobra.Command{
		Use:   "show ID",
		Short: "Print a drawer verbatim with its metadata",
		Args:  args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			p, err := g.open()
			if err != nil {
				return err
			}
			defer p.Close()
			d, err := p.Store.GetDrawer(c.Context(), a[0])
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			if asJSON {
				return printJSON(out, search.DrawerOf(d))
			}
			fmt.Fprintf(out, "id:      %s\nwing:    %s\nroom:    %s\nkind:    %s\nsource:  %s\ncreated: %s\n",
				d.ID, d.Wing, d.Room, d.Kind, search.Citation(d), d.CreatedAt.Format("2006-01-02 15:04:05Z07:00"))
			if d.DeletedAt != nil {
				fmt.Fprintf(out, "deleted: %s\n", d.DeletedAt.Format("2006-01-02 15:04:05Z07:00"))
			}
			fmt.Fprintf(out, "---\n%s", d.Content)
			if len(d.Content) > 0 && d.Content[len(d.Content)-1] != '\n' {
				fmt.Fprintln(out)
			}
			return nil
		},
	}
	show.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	needsSubcommand(c)
	c.AddCommand(show, newDrawerRmCmd(g), newDrawerPurgeCmd(g), newDrawerUnpurgeCmd(g))
	return c
}
