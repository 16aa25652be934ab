package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

func newTeamCmd(g *globals) *cobra.Command {
	c := needsSubcommand(&cobra.Command{
		Use:   "team",
		Short: "Share wings with a team through PostgreSQL (join, share, unshare, grant, status)",
		Long: `A team palace shares some wings of each member's local palace through a
PostgreSQL database: every member keeps searching its own SQLite file, and
'palace sync' (or 'palace serve', continuously) pushes its writes to the
shared wings and pulls the others'. The connection string comes from
` + ops.TeamURLEnv + ` or from 'palace team join'; it is never printed,
logged or written to the audit log. The team server must answer each step
(connecting, one batch pushed or pulled, a status read) within --timeout,
else ` + ops.TeamTimeoutEnv + ` (a duration such as 30s or 2m; 'palace
serve' reads only this), else ` + ops.TeamTimeout.String() + `; the server also cancels a statement
running longer. A connect_timeout in the connection string bounds
connecting instead. A server that does not answer in time fails the
command (status reports it instead), naming its host.`,
	})
	var timeout time.Duration
	teamTimeoutFlag(c.PersistentFlags(), &timeout)
	c.AddCommand(newTeamJoinCmd(g, &timeout), newTeamShareCmd(g, true, &timeout), newTeamShareCmd(g, false, &timeout), newTeamGrantCmd(g, &timeout), newTeamStatusCmd(g, &timeout))
	return c
}

// teamTimeoutFlag adds --timeout, the bound of each step the team server
// must answer. A flag rather than a palace.yaml key: palace.yaml holds a
// project folder's mine settings, while the bound belongs to the network
// a command runs over, like the connection string; 'palace serve' takes
// it from the environment, as it does the URL.
func teamTimeoutFlag(fs *pflag.FlagSet, d *time.Duration) {
	fs.DurationVar(d, "timeout", 0, "how long the team server may take over each step, such as 30s or 2m (default $"+ops.TeamTimeoutEnv+", else "+ops.TeamTimeout.String()+")")
}

// checkTeamTimeout refuses --timeout 0 or below: 0 is the flag's unset
// value, so it cannot mean "no bound".
func checkTeamTimeout(c *cobra.Command, d time.Duration) error {
	if f := c.Flag("timeout"); f != nil && f.Changed && d <= 0 {
		return usageError{fmt.Errorf("--timeout %s: want a positive duration such as 30s or 2m", d)}
	}
	return nil
}

func newTeamJoinCmd(g *globals, timeout *time.Duration) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "join [URL]",
		Short: "Join the team whose PostgreSQL database URL names (default $" + ops.TeamURLEnv + ")",
		Args:  args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			if err := checkTeamTimeout(c, *timeout); err != nil {
				return err
			}
			r := ops.TeamJoinRequest{Timeout: *timeout}
			if len(a) == 1 {
				r.URL = a[0]
			}
			res, err := withPalace(g, func(p *palace.Palace) (ops.TeamJoinResult, error) {
				return ops.TeamJoin(c.Context(), p, r)
			})
			return finishAsIs(c, asJSON, res, err, func(out io.Writer, res ops.TeamJoinResult) {
				fmt.Fprintf(out, "joined the team as role %s\n", res.Role)
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}

func newTeamShareCmd(g *globals, share bool, timeout *time.Duration) *cobra.Command {
	var asJSON bool
	use, short := "share WING", "Share a wing with the team (its rows are pushed by the next sync)"
	if !share {
		use, short = "unshare WING", "Stop sharing a wing from this palace (its rows stay; the team keeps its copy)"
	}
	c := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			if err := checkTeamTimeout(c, *timeout); err != nil {
				return err
			}
			res, err := withPalace(g, func(p *palace.Palace) (ops.TeamShareResult, error) {
				if share {
					return ops.TeamShare(c.Context(), p, ops.TeamShareRequest{Wing: a[0], Timeout: *timeout})
				}
				return ops.TeamUnshare(c.Context(), p, ops.TeamShareRequest{Wing: a[0]})
			})
			return finishAsIs(c, asJSON, res, err, func(out io.Writer, res ops.TeamShareResult) {
				if !share {
					fmt.Fprintf(out, "wing %s is no longer shared from this palace\n", res.Wing)
					return
				}
				access := "read"
				if res.Write {
					access = "read and write"
				}
				fmt.Fprintf(out, "wing %s shared (%s); %d rows queued for the next sync\n", res.Wing, access, res.Queued)
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}

func newTeamGrantCmd(g *globals, timeout *time.Duration) *cobra.Command {
	var write, revoke bool
	c := &cobra.Command{
		Use:   "grant WING ROLE",
		Short: "Give a PostgreSQL role read (or --write) access to a wing, or --revoke it; only a writer of the wing may",
		Args:  args(cobra.ExactArgs(2)),
		RunE: func(c *cobra.Command, a []string) error {
			if err := checkTeamTimeout(c, *timeout); err != nil {
				return err
			}
			r := ops.TeamGrantRequest{Wing: a[0], Role: a[1], Write: write, Revoke: revoke, Timeout: *timeout}
			res, err := withPalace(g, func(p *palace.Palace) (ops.TeamGrantRequest, error) {
				return ops.TeamGrant(c.Context(), p, r)
			})
			return finishAsIs(c, false, res, err, func(out io.Writer, r ops.TeamGrantRequest) {
				switch {
				case revoke:
					fmt.Fprintf(out, "role %s no longer has access to wing %s\n", r.Role, r.Wing)
				case write:
					fmt.Fprintf(out, "role %s may read and write wing %s\n", r.Role, r.Wing)
				default:
					fmt.Fprintf(out, "role %s may read wing %s\n", r.Role, r.Wing)
				}
			})
		},
	}
	c.Flags().BoolVar(&write, "write", false, "allow writing too")
	c.Flags().BoolVar(&revoke, "revoke", false, "take the role's access away")
	return c
}

func newTeamStatusCmd(g *globals, timeout *time.Duration) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "status",
		Short: "Members, wings, this palace's shared wings with their pending operations, and the last sync",
		Args:  args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			if err := checkTeamTimeout(c, *timeout); err != nil {
				return err
			}
			res, err := readPalace(g, func(p *palace.Palace) (ops.TeamStatusResult, error) {
				return ops.TeamStatus(c.Context(), p, ops.TeamStatusRequest{Timeout: *timeout})
			})
			return finishAsIs(c, asJSON, res, err, printTeamStatus)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the status as JSON")
	return c
}

func printTeamStatus(out io.Writer, res ops.TeamStatusResult) {
	if !res.Joined {
		fmt.Fprintln(out, "no team: palace team join URL (or set "+ops.TeamURLEnv+")")
		return
	}
	if res.Error != "" {
		fmt.Fprintf(out, "team database unreachable: %s\n", res.Error)
	} else {
		fmt.Fprintf(out, "role: %s\n", res.Role)
		fmt.Fprintf(out, "members (%d):\n", len(res.Members))
		for _, m := range res.Members {
			last := "never"
			if m.LastSync != nil {
				last = m.LastSync.UTC().Format("2006-01-02 15:04:05Z")
			}
			fmt.Fprintf(out, "  %-20s last sync %s\n", m.Role, last)
		}
		fmt.Fprintf(out, "team wings (%d):\n", len(res.Wings))
		for _, w := range res.Wings {
			access := "none"
			switch {
			case w.Write:
				access = "write"
			case w.Read:
				access = "read"
			}
			fmt.Fprintf(out, "  %-20s access %-5s  %d operations\n", w.Wing, access, w.Ops)
		}
	}
	fmt.Fprintf(out, "shared from this palace (%d):\n", len(res.Shared))
	for _, w := range res.Shared {
		fmt.Fprintf(out, "  %-20s %d pending, applied up to operation %d\n", w.Wing, w.Pending, w.Seq)
	}
	last := res.Synced
	if last == "" {
		last = "never"
	}
	fmt.Fprintf(out, "last sync: %s\n", last)
	if len(res.Contradictions) > 0 {
		fmt.Fprintf(out, "knowledge-graph contradictions (%d; palace kg check):\n", len(res.Contradictions))
		printContradictions(out, res.Contradictions)
	}
}
