package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/core/audit"
	"github.com/palace-dev/palace/core/dates"
)

func newAuditCmd(g *globals) *cobra.Command {
	var (
		f      audit.Filter
		since  string
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
			var err error
			if f.Since, err = dates.Parse(since, false); err != nil {
				return usageError{fmt.Errorf("--since %q: %w", since, err)}
			}
			p, err := g.open()
			if err != nil {
				return err
			}
			defer p.Close()
			es, err := p.Store.AuditLog().Read(f)
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			if asJSON {
				return printJSON(out, es)
			}
			for _, e := range es {
				who := e.Actor
				if e.Client != "" {
					who += "/" + e.Client
				}
				ids := strings.Join(e.IDs, ",")
				if len(ids) > 100 {
					ids = ids[:100] + fmt.Sprintf("… (%d ids)", len(e.IDs))
				}
				fmt.Fprintf(out, "%s  %-8s %-16s %-8s %s", e.Time.Format("2006-01-02 15:04:05"), who, e.Op, e.Status, ids)
				if e.Error != "" {
					fmt.Fprintf(out, "  (%s)", e.Error)
				}
				fmt.Fprintln(out)
			}
			return nil
		},
	}
	c.Flags().StringVar(&since, "since", "", "only writes from this date on (YYYY-MM-DD or RFC 3339)")
	c.Flags().StringVar(&f.Actor, "actor", "", "only this actor: cli, mcp, lsp or hook")
	c.Flags().StringVar(&f.Op, "op", "", "only this operation, e.g. drawer.add, source.replace, kg.add")
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}
