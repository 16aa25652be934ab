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
	var asJSON bool
	c := &cobra.Command{
		Use:   "repair",
		Short: "Rebuild what doctor finds broken (FTS and vector indexes, audit lines) from the drawers",
		Long: `Repair mends what ` + "`palace doctor`" + ` checks, never touching a drawer:

  audit    marks failed every write-log line of a write that never committed
  fts      rebuilds the full-text index from the drawers when it disagrees
  indexes  REINDEX when PRAGMA integrity_check still fails (it includes the
           full-text index's own check, so it runs after fts)
  cjk      re-segments Chinese index text written by an earlier version
           (whose sub-words straddled word boundaries), once per palace
  vectors  drops vectors of missing or deleted drawers and of drawers not
           marked as embedded, marks embedded drawers that lost their vector
           as pending, drops an index of the wrong dimension, then embeds
           every pending drawer with the palace's model (if one is set)

Each step is one audited write (op "repair") that holds the write lock only
for itself, so servers and mines may keep running. Steps with nothing to do
write nothing. The checks run again at the end; repair exits 1 if one still
fails. A palace this user may not write is refused before any step.`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			res, err := withPalace(g, func(p *palace.Palace) (ops.RepairResult, error) {
				return ops.Repair(c.Context(), p, ops.RepairRequest{Progress: progressFunc("embedding", !asJSON)})
			})
			if err != nil {
				return inputErr(err)
			}
			out := c.OutOrStdout()
			if asJSON {
				if err := printJSON(out, res); err != nil {
					return err
				}
			} else {
				printRepair(out, res)
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
	return c
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
