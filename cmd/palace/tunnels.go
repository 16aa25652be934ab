package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

func newTunnelsCmd(g *globals) *cobra.Command {
	var (
		req    ops.TunnelsRequest
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "tunnels",
		Short: "List the rooms that join wings: one name in several wings, or shared keywords",
		Long: fmt.Sprintf(`A tunnel joins rooms of different wings that are about the same thing:

  - the rooms of one name in two or more wings (auth in api and in web),
    except the catch-all rooms (general, conversations) and rooms named
    after a generic programming word (docs, tests, src, ...), which every
    project has;
  - two rooms in different wings, not joined by their name already, whose
    taxonomy keywords overlap: at least %d shared, making at least %.1f of
    all the keywords the two list (Jaccard), so one common word is not
    enough.

Each tunnel is listed with why (the name, or the shared keywords and their
overlap) and the live drawers on each side. With --wing, the tunnels with a
room in that wing, all their sides shown; a --wing the palace does not hold
is bad input (exit 2) and the error lists the wings.

'palace search --across' searches a room in every wing: the rooms of its
name. 'palace compress' writes a room's tunnels as T: lines.`, ops.MinSharedKeywords, ops.MinKeywordOverlap),
		Example: `  palace tunnels
  palace tunnels --wing api --json`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			if err := req.Validate(); err != nil {
				return flagError(c, err)
			}
			res, err := readPalace(g, func(p *palace.Palace) (ops.TunnelsResult, error) {
				return ops.Tunnels(c.Context(), p, req)
			})
			return finish(c, asJSON, res, err, func(out io.Writer, res ops.TunnelsResult) {
				if len(res.Tunnels) == 0 {
					fmt.Fprintln(out, "no tunnels (rooms of one name in two wings, or rooms of two wings sharing keywords, would be)")
				}
				for _, t := range res.Tunnels {
					printTunnel(out, t)
				}
			})
		},
	}
	c.Flags().StringVar(&req.Wing, "wing", "", "only the tunnels with a room in this wing")
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}

// printTunnel writes a tunnel's why on one line, then a line per side
// with its drawers, the names padded to one column.
func printTunnel(out io.Writer, t ops.Tunnel) {
	if t.Kind == ops.TunnelByName {
		fmt.Fprintf(out, "%s: the same name in %d wings\n", termsafe.Line(t.Room), len(t.Sides))
	} else {
		fmt.Fprintf(out, "%s ~ %s: shared keywords %s (overlap %.2f)\n", termsafe.Line(t.Sides[0].Room), termsafe.Line(t.Sides[1].Room),
			strings.Join(termsafe.Lines(t.Keywords), ", "), t.Overlap)
	}
	names := make([]string, len(t.Sides))
	width := 0
	for i, s := range t.Sides {
		names[i] = termsafe.Line(s.Wing) + "/" + termsafe.Line(s.Room)
		width = max(width, utf8.RuneCountInString(names[i])) // fmt pads by runes
	}
	for i, s := range t.Sides {
		fmt.Fprintf(out, "  %-*s  %d %s\n", width, names[i], s.Drawers, plural(s.Drawers, "drawer", "drawers"))
	}
}
