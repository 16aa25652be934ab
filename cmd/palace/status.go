package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

func newStatusCmd(g *globals) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "status",
		Short: "Drawers per wing and room, sources, database size, schema version, agents",
		Args:  args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			s, err := readPalace(g, func(p *palace.Palace) (ops.StatusResult, error) {
				return ops.Status(c.Context(), p, ops.StatusRequest{})
			})
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			if asJSON {
				return printJSON(out, s)
			}
			e := s.Embedding
			fmt.Fprintf(out, "palace %s (schema v%d, %.1f MB)\n", termLine(s.Database), s.SchemaVersion, float64(s.DBBytes)/1e6)
			fmt.Fprintf(out, "%d drawers (%d deleted), %d sources\n", s.Drawers, s.Deleted, s.Sources)
			fmt.Fprintf(out, "embeddings: %s (%s); %d vectors, %d drawers waiting for one\n", termLine(e.Backend), termLine(e.Reason), e.Vectors, e.Pending)
			if len(s.Agents) > 0 {
				fmt.Fprintln(out, "agents:")
				for _, a := range s.Agents {
					printAgent(out, "  ", a)
				}
			}
			wing := ""
			for _, r := range s.Rooms {
				if r.Wing != wing {
					wing = r.Wing
					fmt.Fprintf(out, "wing %s\n", termLine(wing))
				}
				fmt.Fprintf(out, "  %-24s %d\n", termLine(r.Room), r.Drawers)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}
