package main

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

func newSyncCmd(g *globals) *cobra.Command {
	var (
		asJSON  bool
		wing    string
		timeout time.Duration
	)
	c := &cobra.Command{
		Use:   "sync [--wing W]",
		Short: "Push this palace's writes to shared wings, then pull the team's",
		Long: `Sync pushes the queued local writes to the shared wings (of --wing only,
when given) to the team's PostgreSQL database, then pulls every operation
after the last one applied and applies each batch in one local transaction,
through the audit log (op team.pull). A sync cut at any point (killed,
connection lost) resumes where it stopped on the next run, without losing or
repeating anything. A team server that does not answer a step (connecting,
one batch pushed or pulled) within --timeout, else ` + ops.TeamTimeoutEnv + `,
else ` + ops.TeamTimeout.String() + `, fails the sync, naming its host; the batches already
applied stay, and the next sync resumes after them.`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			if err := checkTeamTimeout(c, timeout); err != nil {
				return err
			}
			res, err := withPalace(g, func(p *palace.Palace) (ops.SyncResult, error) {
				return ops.Sync(c.Context(), p, ops.SyncRequest{Wing: wing, Timeout: timeout})
			})
			return finishAsIs(c, asJSON, res, err, func(out io.Writer, res ops.SyncResult) {
				fmt.Fprintf(out, "pushed %d operations\n", res.Pushed)
				var wings []string
				for w := range res.Seq {
					wings = append(wings, w)
				}
				slices.Sort(wings)
				for _, w := range wings {
					fmt.Fprintf(out, "pulled %d operations of wing %s (up to %d)\n", res.Pulled[w], w, res.Seq[w])
				}
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	c.Flags().StringVar(&wing, "wing", "", "sync this shared wing only")
	teamTimeoutFlag(c.Flags(), &timeout)
	return c
}
