package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/vectors"
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
			fmt.Fprintf(out, "%d %s (%d deleted), %d %s\n", s.Drawers, plural(s.Drawers, "drawer", "drawers"), s.Deleted,
				s.Sources, plural(s.Sources, "source", "sources"))
			fmt.Fprintf(out, "embeddings: %s (%s); %s\n", termLine(e.Backend), termLine(e.Reason), vectorsLine(e))
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

// vectorsLine says what the vector index holds. Without a model no drawer
// will ever be embedded, so none is said to be waiting for one: searches
// are lexical.
func vectorsLine(e vectors.Status) string {
	if e.Backend == embed.BackendNone {
		if e.Vectors == 0 {
			return "no vectors: no embedding model, searching lexically"
		}
		return fmt.Sprintf("%d %s kept; no embedding model, searching lexically", e.Vectors, plural(e.Vectors, "vector", "vectors"))
	}
	return fmt.Sprintf("%d %s, %d %s waiting for one", e.Vectors, plural(e.Vectors, "vector", "vectors"), e.Pending, plural(e.Pending, "drawer", "drawers"))
}
