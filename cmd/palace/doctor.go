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
		Short: "Check the palace: database integrity, FTS and vector indexes, drawer metadata, audit log, knowledge graph, embedding backend",
		Long: `Doctor runs every check it can, lists each, and exits 1 if any fails,
saying what to do next. A check that cannot run fails with the reason; a
palace too damaged to open normally is checked read-only, with an "open"
check saying why. A home without a palace is an error; doctor never creates
one. So is a lost palace: palace.db missing, empty or without tables while
the audit log records committed writes (the error names them and how to
restore). The checks, integrity first:

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
  kg         every fact's subject and object is an entity (an import by an
             older palace could store a fact no query reaches); repair
             does not change the graph, the check names the facts

` + "`palace repair`" + ` rebuilds what these find broken from the drawers.

On a palace this user may not write (a read-only file, folder or mount),
what needs the write lock is skipped and says so: FTS5's integrity-check, and
the second look at write-log lines past the last commit. Nothing is written.`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			r, err := ops.DoctorAt(c.Context(), g.home, palace.Options{ModelDir: g.modelDir}, ops.DoctorRequest{})
			if err != nil {
				return err
			}
			// The checks are printed, failed or not; a failure is the
			// command's error after them.
			if err := finishAsIs(c, asJSON, r, nil, printDoctor); err != nil {
				return err
			}
			if !r.OK {
				return fmt.Errorf("doctor: %s failed; %s", strings.Join(r.Failed, ", "), r.Next)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}

// printDoctor prints the doctor's report as text.
func printDoctor(out io.Writer, r ops.DoctorResult) {
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
