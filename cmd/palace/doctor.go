package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

func newDoctorCmd(g *globals) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "doctor",
		Short: "Check the palace: database integrity, FTS and vector indexes, drawer metadata, audit log, embedding backend",
		Long: `Doctor runs five checks and exits 1 if any fails:

  integrity  PRAGMA integrity_check on the database file
  fts        every live drawer is in the full-text index once, nothing else
             is, and FTS5's own integrity-check passes
  metadata   every drawer's metadata is a JSON object (an import by an
             older palace could store any text); repair cannot mend this,
             the check names the drawers
  vectors    every drawer marked as embedded has exactly one vector of the
             palace's model, of the right dimension, and no vector belongs
             to a missing drawer; drawers not embedded yet are pending, not
             a failure (mining embeds after it commits)
  audit      no line of the write log reads as applied for a write that
             never committed (what a process killed mid-write leaves until
             the next write corrects it)

` + "`palace repair`" + ` rebuilds what these find broken from the drawers.

On a palace this user may not write (a read-only file, folder or mount),
what needs the write lock is skipped and says so: FTS5's integrity-check, and
the second look at write-log lines past the last commit. Nothing is written.`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			r, err := withPalace(g, func(p *palace.Palace) (ops.DoctorResult, error) {
				return ops.Doctor(c.Context(), p, ops.DoctorRequest{})
			})
			if err != nil {
				return inputErr(err)
			}
			out := c.OutOrStdout()
			if asJSON {
				if err := printJSON(out, r); err != nil {
					return err
				}
			} else {
				fmt.Fprintf(out, "palace     %s (schema v%d of v%d)\n", r.Home, r.Schema, r.Supported)
				fmt.Fprintf(out, "integrity  %s\n", r.Integrity)
				e := r.Embedding
				fmt.Fprintf(out, "embedding  %s: %s\n", e.Backend, e.Reason)
				if e.ORTLib != "" {
					fmt.Fprintf(out, "ort lib    %s\n", e.ORTLib)
				}
				if e.Model != "" {
					fmt.Fprintf(out, "vectors    %d of model %s, %d drawers pending\n", e.Vectors, e.Model, e.Pending)
				}
				printChecks(out, r.Checks)
			}
			if !r.OK {
				failed := strings.Join(r.Failed, ", ")
				if r.ReadOnly {
					return fmt.Errorf("doctor: %s failed; the palace is read-only for this user, and a repair needs write access", failed)
				}
				return fmt.Errorf("doctor: %s failed; run `palace repair`", failed)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}

// printChecks writes one line per check: ok or FAIL, its name, its detail.
func printChecks(w io.Writer, cs []ops.HealthCheck) {
	fmt.Fprintln(w, "checks")
	for _, ch := range cs {
		mark := "ok"
		if !ch.OK {
			mark = "FAIL"
		}
		fmt.Fprintf(w, "  %-4s  %-9s  %s\n", mark, ch.Name, ch.Detail)
	}
}
