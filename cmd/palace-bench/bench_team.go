package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/cmd/palace-bench/internal/bench"
)

func newBenchTeamCmd(g *globals) *cobra.Command {
	o := bench.TeamOptions{}
	var asJSON bool
	c := &cobra.Command{
		Use:   "team",
		Short: "Team palace through PostgreSQL: push and pull of 100,000 drawers, remember-to-searchable between serving members, 20 members at once",
		Long: `Bench team measures a team palace against a real PostgreSQL. It creates its
own database and one login role per member (so --url, or $PALACE_TEST_PG,
must name a role that may create databases and roles) and drops them at the
end. Members are temporary palaces on this machine.

  push/pull   one member pushes --drawers new drawers of a shared wing, a
              second pulls and applies them (full-text index included)
  follow      two members run 'palace serve --mcp'; a note remembered
              through one's palace_remember is timed until the other's
              palace_search finds it (--samples times; p50/p95/max)
  members     --members members, each with --writes new notes, sync at once,
              round after round, until every member holds every note

It ends with the team database's size and the log's bytes per operation.`,
		Example: `  palace bench team --url postgres://admin@127.0.0.1/postgres
  palace bench team --drawers 10000 --members 5 --json`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			if o.URL == "" {
				o.URL = os.Getenv("PALACE_TEST_PG")
			}
			self, err := g.palaceBinary()
			if err != nil {
				return err
			}
			o.Exe, o.Progress = self, c.ErrOrStderr()
			r, err := bench.Team(c.Context(), o)
			if err != nil {
				return err
			}
			if asJSON {
				return termsafe.WriteJSON(c.OutOrStdout(), r)
			}
			printTeamReport(c.OutOrStdout(), r)
			return nil
		},
	}
	c.Flags().StringVar(&o.URL, "url", "", "PostgreSQL connection string of a role that may create databases and roles (default $PALACE_TEST_PG)")
	c.Flags().IntVar(&o.Drawers, "drawers", bench.DefaultTeamDrawers, "drawers pushed and pulled")
	c.Flags().IntVar(&o.Members, "members", bench.DefaultTeamMembers, "members syncing at once")
	c.Flags().IntVar(&o.Writes, "writes", bench.DefaultTeamWrites, "new notes per member in the many-members run")
	c.Flags().IntVar(&o.Samples, "samples", bench.DefaultTeamSamples, "remember-to-searchable measurements")
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}

func printTeamReport(out io.Writer, r *bench.TeamReport) {
	fmt.Fprintf(out, "bench team: PostgreSQL %s, %d cores (%.0f s)\n", r.Postgres, r.Cores, r.Seconds)
	fmt.Fprintf(out, "%-34s %12s %10s %12s\n", "phase", "operations", "seconds", "ops/s")
	fmt.Fprintf(out, "%-34s %12d %10.2f %12.0f\n", "push (one member)", r.Push.Ops, r.Push.Seconds, r.Push.PerSec)
	fmt.Fprintf(out, "%-34s %12d %10.2f %12.0f\n", "pull and apply (another member)", r.Pull.Ops, r.Pull.Seconds, r.Pull.PerSec)
	m := r.Members
	fmt.Fprintf(out, "%-34s %12d %10.2f %12.0f\n", fmt.Sprintf("%d members at once (%d rounds)", m.Members, m.Rounds), m.Applied, m.Seconds, m.PerSec)
	fmt.Fprintf(out, "  one member's sync while %d sync: p50 %.0f ms, p95 %.0f ms (%d writes each)\n", m.Members, m.SyncP50, m.SyncP95, m.Writes)
	f := r.Follow
	fmt.Fprintf(out, "remember to searchable on another serving member (%d samples): p50 %.0f ms, p95 %.0f ms, max %.0f ms\n", f.Queries, f.P50, f.P95, f.Max)
	fmt.Fprintf(out, "team database: %.1f MB for %d operations (%.0f bytes per operation in the log)\n", float64(r.DBBytes)/1e6, r.Ops, r.OpBytes)
}
