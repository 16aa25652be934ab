package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

func newRepairCmd(g *globals) *cobra.Command {
	var (
		asJSON bool
		into   string
	)
	c := &cobra.Command{
		Use:   "repair [--into NEWHOME]",
		Short: "Rebuild what doctor finds broken (FTS and vector indexes, audit lines) from the drawers",
		Long: `Repair mends what ` + "`palace doctor`" + ` checks, never touching a drawer:

  audit    marks failed every write-log line of a write that never committed
  fts      rebuilds the full-text index from the drawers when it disagrees
  indexes  REINDEX when PRAGMA integrity_check still fails (it includes the
           full-text index's own check, so it runs after fts)
  cjk      re-segments Chinese index text written by an earlier version
           (whose sub-words straddled word boundaries), once per palace, and
           records whether a palace from before that record holds Chinese
  vectors  drops vectors of missing or deleted drawers and of drawers not
           marked as embedded, marks embedded drawers that lost their vector
           as pending, drops an index of the wrong dimension, then embeds
           every pending drawer with the palace's model (if one is set)

Each step is one audited write (op "repair") that holds the write lock only
for itself, so servers and mines may keep running. Steps with nothing to do
write nothing. The checks run again at the end; repair exits 1 if one still
fails. A palace this user may not write is refused before any step.

A damaged database file (doctor fails integrity) cannot be mended in place:
its damaged pages may hold drawers. With --into NEWHOME, repair instead
copies every row SQLite can still read into a new palace at NEWHOME (a
folder that does not exist yet or is empty), through export and import, so
every row is checked as an import checks it, runs doctor on the new palace,
and lists what was lost: the unreadable runs of rows, the drawer ids the
id index still names and the files they came from (exit 1 when anything
was lost). The damaged palace is only read; a file cut short, which SQLite
refuses whole, is read from a copy of its pages made inside NEWHOME and
removed afterwards. The new palace has no vectors yet ('palace reindex') and no
record of mined files (the next mine reads them all again). Check it, then
use it with --home NEWHOME or move it in place of the old folder.`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			if c.Flags().Changed("into") { // an empty value is refused, not a plain repair
				return salvage(c, g, into, asJSON)
			}
			res, err := withPalace(g, func(p *palace.Palace) (ops.RepairResult, error) {
				return ops.Repair(c.Context(), p, ops.RepairRequest{Progress: progressFunc("embedding", !asJSON)})
			})
			if err != nil {
				return err
			}
			// What was repaired is printed; checks still failing are
			// the command's error after it.
			if err := finishAsIs(c, asJSON, res, nil, printRepair); err != nil {
				return err
			}
			if !res.OK {
				var still []string
				for _, ch := range res.Checks {
					if !ch.OK {
						still = append(still, ch.Name+": "+ch.Detail)
					}
				}
				return fmt.Errorf("repair: still failing: %s", strings.Join(still, "; "))
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print what was repaired and the checks afterwards as JSON")
	c.Flags().StringVar(&into, "into", "", "copy every readable row of a damaged palace into a new palace at this folder, and say what was lost")
	return c
}

// salvage runs `repair --into`.
func salvage(c *cobra.Command, g *globals, into string, asJSON bool) error {
	res, err := ops.SalvageAt(c.Context(), g.home, palace.Options{ModelDir: g.modelDir}, ops.SalvageRequest{Into: into, Progress: progressFunc("copying", !asJSON)})
	if err != nil {
		return err
	}
	err = finishAsIs(c, asJSON, res, nil, func(out io.Writer, res ops.SalvageResult) {
		fmt.Fprintf(out, "new palace %s: %d rows read, %d drawers written\n", res.Into, res.Rows, res.Added["drawer"])
		printChecks(out, res.Doctor.Checks)
		if len(res.Unreadable) > 0 {
			fmt.Fprintln(out, "lost (unreadable in the damaged file):")
			printUnreadable(out, res.Unreadable)
		}
	})
	if err != nil {
		return err
	}
	if !res.Doctor.OK {
		return fmt.Errorf("repair --into: the new palace at %s fails %s", res.Into, strings.Join(res.Doctor.Failed, ", "))
	}
	if len(res.Unreadable) > 0 {
		return fmt.Errorf("repair --into: %d runs of rows were unreadable and are lost (listed above); everything else is in %s", len(res.Unreadable), res.Into)
	}
	return nil
}

func printRepair(w io.Writer, r ops.RepairResult) {
	did := false
	line := func(format string, a ...any) {
		fmt.Fprintf(w, format+"\n", a...)
		did = true
	}
	if r.AuditCorrected > 0 {
		line("audit      %d uncommitted writes marked failed", r.AuditCorrected)
	}
	if r.Reindexed {
		line("indexes    rebuilt (REINDEX)")
	}
	if r.FTSRebuilt {
		line("fts        rebuilt from the drawers")
	}
	if r.Resegmented > 0 {
		line("cjk        %d drawers' Chinese index text re-segmented", r.Resegmented)
	}
	if r.VectorIndexDropped {
		line("vectors    index dropped: it did not fit its model's dimension")
	}
	if r.VectorsDropped > 0 {
		line("vectors    %d vectors dropped (no live drawer, or not marked as embedded)", r.VectorsDropped)
	}
	if r.VectorsUnmarked > 0 {
		line("vectors    %d drawers had lost their vector and were marked pending", r.VectorsUnmarked)
	}
	if r.Vectors.Embedded > 0 {
		line("vectors    %d drawers embedded with %s", r.Vectors.Embedded, r.Vectors.Model)
	}
	if !did {
		fmt.Fprintln(w, "nothing to repair")
	}
	printChecks(w, r.Checks)
	if r.Vectors.Model == "" && r.Vectors.Pending > 0 {
		fmt.Fprintf(w, "no embedding model (%s): %d drawers stay searchable lexically only\n", r.Vectors.Reason, r.Vectors.Pending)
	}
}
