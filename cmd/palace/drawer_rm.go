package main

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

func newDrawerRmCmd(g *globals) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "rm ID",
		Short: "Forget a drawer: it leaves search, its content stays readable by id and in exports",
		Long: `Rm forgets a drawer (a soft delete): it leaves search and wake-up at once,
and its vector is dropped, but its row stays, readable with 'palace drawer show'
and carried by 'palace export', for the record. The removal is written to the
audit log. Forgetting a forgotten drawer changes nothing and is not an error.

To erase the content itself (a secret, say), use 'palace drawer purge'.

Exit codes: 0 forgotten (now or before), 1 no such drawer or error, 2 bad usage.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			req := ops.ForgetRequest{ID: a[0]}
			if err := req.Validate(); err != nil {
				return usageError{err} // before the palace is opened, or created
			}
			res, err := withPalace(g, func(p *palace.Palace) (ops.ForgetResult, error) {
				return ops.Forget(c.Context(), p, req)
			})
			return finishAsIs(c, asJSON, res, err, func(out io.Writer, res ops.ForgetResult) {
				if res.AlreadyDeleted {
					fmt.Fprintf(out, "%s was already forgotten%s; nothing changed\n", res.ID, whenSuffix(res.DeletedAt))
					return
				}
				fmt.Fprintf(out, "forgot %s [%s/%s] %s: it left search; 'palace drawer purge %s' erases its content\n",
					termsafe.Line(res.ID), termsafe.Line(res.Wing), termsafe.Line(res.Room), termsafe.Line(res.Citation), termsafe.Line(res.ID))
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}

func newDrawerPurgeCmd(g *globals) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "purge ID",
		Short: "Erase a drawer's content for good (a secret, say): from the drawer, search, vectors and exports",
		Long: `Purge erases a drawer's content: its text, index text and metadata are
removed from the drawer, the full-text index and the vector index, and
overwritten in the database file; exports carry only a tombstone (id, wing,
room, source, times), and the audit log records the purge without content (as
it records every write). It cannot be undone from the palace.

Mining the same source again does not bring a purged chunk back while the
chunk is unchanged, whatever the secrets mode; 'palace drawer unpurge ID'
lets the next mine write it again. An edit that changes the chunk makes a new
chunk, which is mined: remove the secret from the file too. Chunks of a file
overlap, so search again and purge each drawer that still holds the text.

Purging a purged drawer changes nothing and is not an error.

Exit codes: 0 purged (now or before), 1 no such drawer or error, 2 bad usage.`,
		Example: `  palace search "db password" --json | jq -r '.hits[].id'
  palace drawer purge d_1ccd4a90bce4c1b7b96267f7`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			req := ops.PurgeRequest{ID: a[0]}
			if err := req.Validate(); err != nil {
				return usageError{err} // before the palace is opened, or created
			}
			res, err := withPalace(g, func(p *palace.Palace) (ops.PurgeResult, error) {
				return ops.Purge(c.Context(), p, req)
			})
			return finishAsIs(c, asJSON, res, err, func(out io.Writer, res ops.PurgeResult) {
				if res.AlreadyPurged {
					fmt.Fprintf(out, "%s was already purged%s; nothing changed\n", res.ID, whenSuffix(res.PurgedAt))
					return
				}
				fmt.Fprintf(out, "purged %s [%s/%s] %s: its content is erased from the palace\n", termsafe.Line(res.ID), termsafe.Line(res.Wing), termsafe.Line(res.Room), termsafe.Line(res.Citation))
				if res.Notice != "" {
					fmt.Fprintln(out, "note: "+termsafe.Line(res.Notice))
				}
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}

func newDrawerUnpurgeCmd(g *globals) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "unpurge ID",
		Short: "Let the next mine write a purged chunk of a file again",
		Long: `Unpurge removes a purged drawer's tombstone and marks its source file so
that the next mine of its wing reads the file again, changed or not, and writes
the chunk back if the file still holds it. The palace itself no longer has the
content. Purged notes and diary entries cannot be unpurged (nothing mines
them): remember them anew.

Exit codes: 0 done, 1 no such drawer or error, 2 bad usage or not purged.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			req := ops.UnpurgeRequest{ID: a[0]}
			if err := req.Validate(); err != nil {
				return usageError{err} // before the palace is opened, or created
			}
			res, err := withPalace(g, func(p *palace.Palace) (ops.UnpurgeResult, error) {
				return ops.Unpurge(c.Context(), p, req)
			})
			return finishAsIs(c, asJSON, res, err, func(out io.Writer, res ops.UnpurgeResult) {
				fmt.Fprintf(out, "unpurged %s: the next mine of wing %s reads %s again\n", termsafe.Line(res.ID), termsafe.Line(res.Wing), termsafe.Line(res.Source))
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}

// whenSuffix is " at TIME", or "" when t is unknown.
func whenSuffix(t *time.Time) string {
	if t == nil {
		return ""
	}
	return " at " + t.Format("2006-01-02 15:04:05Z07:00")
}
