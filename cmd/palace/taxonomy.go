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

const taxonomyLong = `The taxonomy is each wing's rooms and the keywords that send content and
queries to them.

Query routing: when a search names no room, the query's words (stop words
and -excluded words left out) are compared with every room's name and
keywords, within --wing when the search gives one. The room with the most
distinct matches filters the search, unless another room has as many:
confidence 0.6, 0.8 or 1.0 for 1, 2 or 3+ matches (applied from 0.5). A tie
or a query without any keyword searches everywhere. When the routed search
finds nothing, the search runs again without the route and says so. Every
search result reports the route it used ("route" in --json: wing, room,
confidence, applied, reason). 'palace taxonomy route QUERY' shows what a
query would route to.

palace.yaml and the table: routing reads the table in the palace.
'palace mine DIR' replaces the wing's rooms with the ones DIR/palace.yaml
lists, when it lists any: at mine time the file wins. 'taxonomy set' and
'taxonomy rm' edit the table; with --dir DIR they edit DIR/palace.yaml too
(its wing must be WING) and then make the table match the file, so the two
agree and the next mine keeps the change. Without --dir, palace warns when it
finds a palace.yaml that will undo the change at the next mine. Rewriting
palace.yaml does not keep comments in it.

Names: wing and room names are valid UTF-8, at most 200 bytes, without
control characters, surrounding spaces, '/' or '"' (names appear as
wing/room in paths and citations). Keywords are single words (letters,
digits, '-', '_'), lower-cased, at most 64 bytes each and 100 per room.
Removing a room does not move the drawers already filed in it.

A --wing the palace does not hold (no drawer, no room) is bad input for list
and route: the error lists the wings there are.

Exit codes: 0 done, 1 error (such as no room to remove), 2 bad usage or input
(nothing written).`

func newTaxonomyCmd(g *globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "taxonomy",
		Short: "List and edit wings' rooms and keywords; show how a query routes",
		Long:  taxonomyLong,
	}
	needsSubcommand(c)
	c.AddCommand(newTaxonomyListCmd(g), newTaxonomySetCmd(g), newTaxonomyRmCmd(g), newTaxonomyRouteCmd(g))
	return c
}

func newTaxonomyListCmd(g *globals) *cobra.Command {
	var (
		req    ops.TaxonomyListRequest
		asJSON bool
	)
	c := &cobra.Command{
		Use:   ops.TaxonomyActionList,
		Short: "List rooms with their display names and keywords",
		Args:  args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			if err := req.Validate(); err != nil {
				return usageError{err}
			}
			res, err := readPalace(g, func(p *palace.Palace) (ops.TaxonomyListResult, error) {
				return ops.TaxonomyList(c.Context(), p, req)
			})
			return finishAsIs(c, asJSON, res, err, func(out io.Writer, res ops.TaxonomyListResult) {
				if len(res.Rooms) == 0 {
					fmt.Fprintln(out, "no rooms (add one with 'palace taxonomy set WING ROOM --keywords a,b' or list them in palace.yaml)")
				}
				for _, r := range res.Rooms {
					printRoom(out, "", r)
				}
			})
		},
	}
	c.Flags().StringVar(&req.Wing, "wing", "", "only this wing's rooms")
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}

func printRoom(out io.Writer, prefix string, r ops.Room) {
	name := ""
	if r.DisplayName != "" {
		name = fmt.Sprintf(" (%s)", termsafe.Line(r.DisplayName))
	}
	kw := "no keywords"
	if len(r.Keywords) > 0 {
		kw = "keywords: " + strings.Join(termsafe.Lines(r.Keywords), ", ")
	}
	fmt.Fprintf(out, "%s%s/%s%s  %s\n", prefix, termsafe.Line(r.Wing), termsafe.Line(r.Room), name, kw)
}

func newTaxonomySetCmd(g *globals) *cobra.Command {
	var (
		req               ops.TaxonomySetRequest
		keywords, display string
		asJSON            bool
	)
	c := &cobra.Command{
		Use:   ops.TaxonomyActionSet + " WING ROOM",
		Short: "Add a room, or change its keywords or display name",
		Long: `Set adds ROOM to WING's taxonomy, or changes it. For a room that exists, a
flag not given keeps its value; --keywords '' clears the keywords.

With --dir DIR, DIR/palace.yaml (whose wing must be WING) gets the same change
and the table is made to match it, so the next 'palace mine DIR' keeps the
room; rooms only in the table are then dropped, as that mine would. Without
--dir only the table changes. See 'palace taxonomy --help' for the rules on
names and keywords.

Exit codes: 0 done, 1 error, 2 bad usage or input (nothing written).`,
		Example: `  palace taxonomy set shop billing --keywords invoice,payment,stripe --name "Billing"
  palace taxonomy set shop billing --keywords invoice,refund --dir ~/src/shop --json`,
		Args: args(cobra.ExactArgs(2)),
		RunE: func(c *cobra.Command, a []string) error {
			req.Wing, req.Room = a[0], a[1]
			if c.Flags().Changed("keywords") {
				kw := strings.Split(keywords, ",")
				req.Keywords = &kw
			}
			if c.Flags().Changed("name") {
				req.DisplayName = &display
			}
			// Checked before the palace is opened: bad input writes
			// nothing, not even a new palace.
			if err := req.Validate(); err != nil {
				return usageError{err}
			}
			res, err := withPalace(g, func(p *palace.Palace) (ops.TaxonomyChange, error) {
				return ops.TaxonomySet(c.Context(), p, req)
			})
			return printChange(c, res, err, asJSON)
		},
	}
	c.Flags().StringVar(&keywords, "keywords", "", "comma-separated words that route to the room (replaces its keywords)")
	c.Flags().StringVar(&display, "name", "", "display name of the room")
	c.Flags().StringVar(&req.Dir, "dir", "", "project folder whose palace.yaml to change as well")
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}

func newTaxonomyRmCmd(g *globals) *cobra.Command {
	var (
		req    ops.TaxonomyRmRequest
		asJSON bool
	)
	c := &cobra.Command{
		Use:   ops.TaxonomyActionRm + " WING ROOM",
		Short: "Remove a room from the taxonomy (its drawers stay where they are)",
		Long: `Rm removes ROOM from WING's taxonomy; drawers already filed in the room keep
it. With --dir DIR, the room also leaves DIR/palace.yaml (whose wing must be
WING) and the table is made to match the file, so the next mine does not
bring the room back.

Exit codes: 0 done, 1 error (such as no such room: nothing removed), 2 bad
usage or input.`,
		Example: `  palace taxonomy rm shop billing
  palace taxonomy rm shop billing --dir ~/src/shop`,
		Args: args(cobra.ExactArgs(2)),
		RunE: func(c *cobra.Command, a []string) error {
			req.Wing, req.Room = a[0], a[1]
			if err := req.Validate(); err != nil {
				return usageError{err}
			}
			res, err := withPalace(g, func(p *palace.Palace) (ops.TaxonomyChange, error) {
				return ops.TaxonomyRm(c.Context(), p, req)
			})
			return printChange(c, res, err, asJSON)
		},
	}
	c.Flags().StringVar(&req.Dir, "dir", "", "project folder whose palace.yaml to change as well")
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}

func newTaxonomyRouteCmd(g *globals) *cobra.Command {
	var (
		req    ops.TaxonomyRouteRequest
		asJSON bool
	)
	c := &cobra.Command{
		Use:   ops.TaxonomyActionRoute + " QUERY",
		Short: "Show the wing and room a search for QUERY would be routed to",
		Long: `Route shows the route a search for QUERY would take when it names no room:
the wing and room, the confidence, whether it would filter the search and
why. It does not search, so it cannot tell whether the routed search would
find anything (a search that finds nothing there runs without the route).`,
		Example: `  palace taxonomy route "refresh the session token"
  palace taxonomy route invoice --wing shop --json`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			req.Query = strings.Join(a, " ")
			if err := req.Validate(); err != nil {
				return usageError{err}
			}
			r, err := readPalace(g, func(p *palace.Palace) (ops.Route, error) {
				return ops.TaxonomyRoute(c.Context(), p, req)
			})
			return finishAsIs(c, asJSON, r, err, func(out io.Writer, r ops.Route) {
				fmt.Fprintln(out, termsafe.Line(r.String()))
			})
		},
	}
	c.Flags().StringVar(&req.Wing, "wing", "", "route among this wing's rooms only")
	c.Flags().BoolVar(&asJSON, "json", false, "print the route as JSON")
	return c
}

// printChange ends taxonomy set and rm: the warning (on stderr, in
// either form), then the room as changed.
func printChange(c *cobra.Command, res ops.TaxonomyChange, err error, asJSON bool) error {
	if err == nil && res.Warning != "" {
		fmt.Fprintln(c.ErrOrStderr(), "palace: warning:", termsafe.Line(res.Warning))
	}
	return finishAsIs(c, asJSON, res, err, func(out io.Writer, res ops.TaxonomyChange) {
		printRoom(out, res.Action+" ", res.Room)
		if res.PalaceYAML != "" {
			fmt.Fprintf(out, "wrote %s\n", termsafe.Line(res.PalaceYAML))
		}
		if len(res.Dropped) > 0 {
			fmt.Fprintf(out, "dropped from the palace, not being in palace.yaml: %s\n", strings.Join(termsafe.Lines(res.Dropped), ", "))
		}
	})
}
