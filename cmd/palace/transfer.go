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

func newExportCmd(g *globals) *cobra.Command {
	var r ops.ExportRequest
	c := &cobra.Command{
		Use:   "export [--wing W] > FILE.jsonl",
		Short: "Write settings, drawers, diaries, taxonomy and the knowledge graph as JSON lines",
		Long: `Export writes a versioned header line, then one line per setting (the
knowledge graph's functional predicates and the AAAK entity map), taxonomy
room, drawer (notes, diaries, files and conversations, deleted ones included,
with all their metadata), entity and fact. The same palace always exports the
same bytes. The search index (and the index text it is built from) and
vectors are not exported: the importing palace rebuilds them. With --wing, the export holds that wing's rooms and
drawers, the facts read from them, and the functional predicates, but not the
entity map, which names entities of every wing.

On a damaged database, rows SQLite cannot read are skipped: every readable
row is written, the skipped ones are listed on stderr (table, rowids and the
drawer ids the id index still names), and the exit code is 1.`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			out := termsafe.NewJSONWriter(c.OutOrStdout())
			res, err := readPalace(g, func(p *palace.Palace) (ops.ExportResult, error) {
				return ops.Export(c.Context(), p, r, out)
			})
			if err == nil {
				err = out.Flush()
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(c.ErrOrStderr(), "exported %d rows\n", res.Rows)
			if len(res.Unreadable) > 0 {
				return reportUnreadable(c.ErrOrStderr(), res.Unreadable)
			}
			return nil
		},
	}
	c.Flags().StringVar(&r.Wing, "wing", "", "only this wing (and the facts read from its drawers)")
	return c
}

func newImportCmd(g *globals) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "import FILE",
		Short: "Add what an export holds and this palace lacks (idempotent; conflicts reported)",
		Long: `Import reads a file written by 'palace export'. Rows the palace already has
unchanged are skipped, so importing twice changes nothing; a row whose id
exists with other content is reported as a conflict and the palace keeps its
own. Settings follow the same rule: a palace that never set its functional
predicates (or has an empty AAAK entity map) takes the file's, one that did
keeps its own and reports the conflict. Every field is checked as the
command that writes it checks it: wing and room names, ids of the form
Palace gives, each content hash against its content, dates, line ranges,
importance, kinds, metadata (a JSON object), the header's format and schema
versions. A malformed file is refused whole, naming the line and the field,
and nothing is written; so is a file naming one id twice (both lines named)
or holding a fact whose entity neither it nor this palace holds (exit 2).
Review decisions travel too: a rejected proposal stays rejected, so 'kg
extract' in the importing palace does not propose it again. What search indexes is derived from each drawer's
content, never read from the file. Run 'palace reindex' afterwards to embed
imported drawers.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			res, err := withPalace(g, func(p *palace.Palace) (ops.ImportResult, error) {
				return ops.Import(c.Context(), p, ops.ImportRequest{File: a[0], Progress: progressFunc("importing", !asJSON)})
			})
			return finishAsIs(c, asJSON, res, err, printImport)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the counts by row type and the conflicts as JSON")
	return c
}

// rowNouns name each export row type (ops.RowKinds) in the import summary,
// singular and plural.
var rowNouns = map[string][2]string{
	"setting":  {"setting", "settings"},
	"taxonomy": {"taxonomy room", "taxonomy rooms"},
	"drawer":   {"drawer", "drawers"},
	"entity":   {"entity", "entities"},
	"triple":   {"fact", "facts"},
	"proposal": {"review decision", "review decisions"},
}

// printImport writes what an import did, one line each for what it added,
// what it already held and what conflicted:
//
//	added      26 drawers, 2 entities, 1 fact
//	unchanged  nothing
//	conflicts  none
func printImport(w io.Writer, r ops.ImportResult) {
	fmt.Fprintf(w, "added      %s\n", countRows(r.Added))
	fmt.Fprintf(w, "unchanged  %s\n", countRows(r.Unchanged))
	if len(r.Conflicts) == 0 {
		fmt.Fprintln(w, "conflicts  none")
		return
	}
	fmt.Fprintf(w, "conflicts  %d (this palace kept its own):\n", len(r.Conflicts))
	for _, k := range r.Conflicts {
		fmt.Fprintf(w, "  %s\n", k)
	}
}

// countRows lists counts in export order: "26 drawers, 1 fact".
func countRows(by map[string]int) string {
	var parts []string
	for _, k := range ops.RowKinds {
		n := by[k]
		if n == 0 {
			continue
		}
		noun := rowNouns[k]
		if n == 1 {
			parts = append(parts, fmt.Sprintf("1 %s", noun[0]))
		} else {
			parts = append(parts, fmt.Sprintf("%d %s", n, noun[1]))
		}
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// reportUnreadable lists on w the rows an export skipped and returns the
// error that makes the exit code 1.
func reportUnreadable(w io.Writer, lost []ops.Unreadable) error {
	rows := printUnreadable(w, lost)
	return fmt.Errorf("export: the database is damaged: skipped %d unreadable runs of rows (at most %d rows); every readable row was written. Run `palace doctor`", len(lost), rows)
}

// printUnreadable lists runs of unreadable rows, with the drawer ids and
// files the indexes still name, and returns how many rows they span at most.
func printUnreadable(w io.Writer, lost []ops.Unreadable) int64 {
	rows := int64(0)
	for _, l := range lost {
		what := fmt.Sprintf("rowids %d-%d", l.From, l.To)
		if l.To < l.From {
			what = "all rows"
		} else {
			rows += l.To - l.From + 1
		}
		fmt.Fprintf(w, "unreadable: %s %s: %s\n", l.Table, what, l.Error)
		if len(l.IDs) > 0 {
			fmt.Fprintf(w, "  ids: %s\n", strings.Join(l.IDs, ", "))
		}
		if len(l.Sources) > 0 {
			fmt.Fprintf(w, "  mined from (mine them again to restore their drawers): %s\n", strings.Join(l.Sources, ", "))
		}
	}
	return rows
}
