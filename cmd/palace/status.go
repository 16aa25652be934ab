package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
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
			return readOp(c, g, asJSON, func(ctx context.Context, p *palace.Palace) (ops.StatusResult, error) {
				return ops.Status(ctx, p, ops.StatusRequest{})
			}, printStatus)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}

// printStatus prints the status as text.
func printStatus(out io.Writer, s ops.StatusResult) {
	e := s.Embedding
	fmt.Fprintf(out, "palace %s (schema v%d, %.1f MB)\n", termsafe.Line(s.Database), s.SchemaVersion, float64(s.DBBytes)/1e6)
	fmt.Fprintf(out, "%d %s (%d deleted), %d %s\n", s.Drawers, plural(s.Drawers, "drawer", "drawers"), s.Deleted,
		s.Sources, plural(s.Sources, "source", "sources"))
	fmt.Fprintf(out, "embeddings: %s (%s); %s\n", termsafe.Line(e.Backend), termsafe.Line(e.Reason), vectorsLine(s))
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
			fmt.Fprintf(out, "wing %s\n", termsafe.Line(wing))
		}
		fmt.Fprintf(out, "  %-24s %d\n", termsafe.Line(r.Room), r.Drawers)
	}
}

// vectorsLine says what the vector index holds. Without a model no drawer
// will ever be embedded, so none is said to be waiting for one: searches
// are lexical.
func vectorsLine(s ops.StatusResult) string {
	e := s.Embedding
	if s.NoModel() {
		if e.Vectors == 0 {
			return "no vectors: no embedding model, searching lexically"
		}
		return fmt.Sprintf("%d %s kept; no embedding model, searching lexically", e.Vectors, plural(e.Vectors, "vector", "vectors"))
	}
	return fmt.Sprintf("%d %s, %d %s waiting for one", e.Vectors, plural(e.Vectors, "vector", "vectors"), e.Pending, plural(e.Pending, "drawer", "drawers"))
}
