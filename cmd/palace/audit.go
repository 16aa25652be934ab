package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

func newAuditCmd(g *globals) *cobra.Command {
	var (
		r      ops.AuditRequest
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "audit",
		Short: "Show the write log: who wrote what, when, and whether it committed",
		Long: `Every write to the palace (drawers added, replaced, deleted; sources mined
or pruned; knowledge-graph facts; taxonomy changes) is appended to
$PALACE_HOME/audit/write_log.jsonl before it commits: time, actor (cli, mcp,
lsp, hook) and client, operation, ids, content hash and size, never the
content. A write that failed, or whose process died before committing, shows
as failed. The log rotates at 10 MiB and keeps 5 old files.`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			es, err := readPalace(g, func(p *palace.Palace) ([]ops.AuditEntry, error) {
				return ops.Audit(c.Context(), p, r)
			})
			return finishAsIs(c, asJSON, es, err, func(out io.Writer, es []ops.AuditEntry) {
				for _, e := range es {
					who := e.Actor
					if e.Client != "" {
						who += "/" + e.Client
					}
					ids := strings.Join(e.IDs, ",")
					if len(ids) > 100 {
						ids = ids[:100] + fmt.Sprintf("… (%d ids)", len(e.IDs))
					}
					fmt.Fprintf(out, "%s  %-8s %-16s %-8s %s", e.Time.Format("2006-01-02 15:04:05"), termsafe.Line(who), termsafe.Line(e.Op), termsafe.Line(e.Status), termsafe.Line(ids))
					if e.Error != "" {
						fmt.Fprintf(out, "  (%s)", termsafe.Line(e.Error))
					}
					fmt.Fprintln(out)
				}
			})
		},
	}
	c.Flags().StringVar(&r.Since, "since", "", "only writes from this date on (YYYY-MM-DD or RFC 3339)")
	c.Flags().StringVar(&r.Actor, "actor", "", "only this actor: "+ops.OneOf(ops.Actors))
	c.Flags().StringVar(&r.Op, "op", "", "only this operation, e.g. drawer.add, source.replace, kg.add")
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}
