package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

func newDrawerCmd(g *globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "drawer",
		Short: "Show, forget or purge one drawer",
	}
	var (
		asJSON     bool
		neighbours int
	)
	show := &cobra.Command{
		Use:   "show ID",
		Short: "Print a drawer verbatim with its metadata",
		Long: `Show prints a drawer verbatim with its metadata, a forgotten one too (with
the time it was deleted). --neighbours N adds the N drawers before and after
it in the same source, for a hit that starts or ends mid-thought.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			req := ops.GetRequest{ID: a[0], Neighbours: neighbours}
			if err := req.Validate(); err != nil {
				return flagError(c, err)
			}
			d, err := readPalace(g, func(p *palace.Palace) (ops.GetResult, error) {
				return ops.Get(c.Context(), p, req)
			})
			return finish(c, asJSON, d, err, printDrawer)
		},
	}
	show.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	show.Flags().IntVar(&neighbours, "neighbours", 0, fmt.Sprintf("also print this many drawers before and after it in its source, 0 to %d", ops.MaxNeighbours))
	needsSubcommand(c)
	c.AddCommand(show, newDrawerRmCmd(g), newDrawerPurgeCmd(g), newDrawerUnpurgeCmd(g))
	return c
}

// printDrawer prints a drawer verbatim after its metadata, between its
// neighbours when asked for.
func printDrawer(out io.Writer, d ops.GetResult) {
	fmt.Fprintf(out, "id:      %s\nwing:    %s\nroom:    %s\nkind:    %s\nsource:  %s\ncreated: %s\n",
		termsafe.Line(d.ID), termsafe.Line(d.Wing), termsafe.Line(d.Room), termsafe.Line(d.Kind), termsafe.Line(d.Citation), d.CreatedAt.Format("2006-01-02 15:04:05Z07:00"))
	if d.DeletedAt != nil {
		fmt.Fprintf(out, "deleted: %s\n", d.DeletedAt.Format("2006-01-02 15:04:05Z07:00"))
	}
	printProvenance(out, d.Metadata)
	for _, n := range d.Before {
		printDrawerPart(out, "--- before: "+termsafe.Line(n.Citation)+"  "+termsafe.Line(n.ID), n.Content)
	}
	printDrawerPart(out, "---", d.Content)
	for _, n := range d.After {
		printDrawerPart(out, "--- after: "+termsafe.Line(n.Citation)+"  "+termsafe.Line(n.ID), n.Content)
	}
}

// printDrawerPart prints a separator line, then content ending in a newline:
// verbatim but for control characters other than LF and TAB (see termText).
func printDrawerPart(out io.Writer, sep, content string) {
	content = termsafe.Text(content)
	fmt.Fprintf(out, "%s\n%s", sep, content)
	if !strings.HasSuffix(content, "\n") {
		fmt.Fprintln(out)
	}
}

// printProvenance prints where a note or diary entry was saved (the
// session and its turns) and the older drawers a note may update, when
// its metadata says.
func printProvenance(out io.Writer, meta json.RawMessage) {
	var m struct {
		ops.Provenance
		Updates []string `json:"updates"`
	}
	if len(meta) == 0 || json.Unmarshal(meta, &m) != nil {
		return
	}
	if m.Session != "" {
		turns := ""
		if t := m.Turns; t != nil {
			turns = fmt.Sprintf(" (turns %d-%d)", t.From, t.To)
		}
		fmt.Fprintf(out, "session: %s%s\n", termsafe.Line(m.Session), turns)
	}
	if len(m.Updates) > 0 {
		fmt.Fprintf(out, "updates: %s\n", termsafe.Line(strings.Join(m.Updates, ", ")))
	}
}
