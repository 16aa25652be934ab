package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

func newMapCmd(g *globals) *cobra.Command {
	var (
		wing   string
		asJSON bool
		file   string
	)
	c := &cobra.Command{
		Use:   "map",
		Short: "The palace's shape: wings and rooms with their sizes, as text, JSON or an HTML page",
		Long: fmt.Sprintf(`Map lists every wing and its rooms with their live drawers, how many of
each kind (file, conversation, note, diary), and the days of the oldest and
newest (when their content happened, else when it was mined); then the
tunnels between wings and the entities in the most facts.

--html FILE writes the map as one self-contained page: a treemap of wings
and rooms sized by drawers, coloured by kind or age, tunnels drawn as links
between wings; a click on a room lists its first %d drawers. The page
loads nothing (inline style and script, a content security policy that
forbids any request), so it opens offline.`, ops.MapPageTop),
		Example: `  palace map
  palace map --wing api --json
  palace map --html map.html`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			out := c.OutOrStdout()
			if file != "" {
				res, err := readPalace(g, func(p *palace.Palace) (ops.MapPageResult, error) {
					return ops.MapPage(c.Context(), p, ops.MapPageRequest{Wing: wing})
				})
				if err != nil {
					return flagError(c, err)
				}
				if err := os.WriteFile(file, []byte(res.HTML), 0o644); err != nil {
					return fmt.Errorf("map --html: %w", err)
				}
				rooms := 0
				for _, w := range res.Map.Wings {
					rooms += len(w.Rooms)
				}
				fmt.Fprintf(out, "wrote %s: %d %s, %d %s, %d bytes\n", file, len(res.Map.Wings), plural(len(res.Map.Wings), "wing", "wings"),
					rooms, plural(rooms, "room", "rooms"), len(res.HTML))
				return nil
			}
			res, err := readPalace(g, func(p *palace.Palace) (ops.MapResult, error) {
				return ops.Map(c.Context(), p, ops.MapRequest{Wing: wing})
			})
			return finish(c, asJSON, res, err, printMap)
		},
	}
	c.Flags().StringVar(&wing, "wing", "", "only this wing (and the tunnels touching it)")
	c.Flags().BoolVar(&asJSON, "json", false, "print the map as JSON")
	c.Flags().StringVar(&file, "html", "", "write the map as a self-contained HTML page to this file")
	c.MarkFlagsMutuallyExclusive("json", "html")
	return c
}

// mapTextParts is how many parts of a room the text map lists (the page
// tiles all the map names); the others are counted on a "…" line.
const mapTextParts = 8

// printMap writes each wing (with the folder of its files), then its
// rooms indented, in aligned columns: name, drawers, drawers by kind, the
// days they span; under a room of more than one part, its parts (folders
// or files, relative to the wing's folder) with their main language.
func printMap(out io.Writer, m ops.MapResult) {
	if len(m.Wings) == 0 {
		fmt.Fprintln(out, "the palace holds no drawers")
		return
	}
	type row struct{ name, n, kinds, span string }
	var rows []row
	line := func(indent string, c ops.MapCounts) row {
		kinds := make([]string, 0, len(c.Kinds))
		for k, n := range c.Kinds {
			kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
		}
		slices.Sort(kinds)
		span := c.Oldest.Format("2006-01-02")
		if last := c.Newest.Format("2006-01-02"); last != span {
			span += " to " + last
		}
		return row{indent + termsafe.Line(c.Name), fmt.Sprint(c.Drawers), strings.Join(kinds, ", "), span}
	}
	for _, w := range m.Wings {
		wr := line("", w.MapCounts)
		if w.Root != "" {
			wr.span += "  files in " + termsafe.Line(w.Root)
		}
		rows = append(rows, wr)
		for _, r := range w.Rooms {
			rows = append(rows, line("  ", r.MapCounts))
			if len(r.Parts) < 2 {
				continue // one folder says nothing the room does not
			}
			rest := r.Rest
			for i, pt := range r.Parts {
				if i >= mapTextParts {
					rest += pt.Drawers
					continue
				}
				rows = append(rows, row{"    " + termsafe.Line(pt.Name), fmt.Sprint(pt.Drawers), pt.Language, ""})
			}
			if rest > 0 {
				rows = append(rows, row{"    …", fmt.Sprint(rest), "", ""})
			}
		}
	}
	var wn, wc, wk int
	for _, r := range rows {
		wn, wc, wk = max(wn, utf8.RuneCountInString(r.name)), max(wc, len(r.n)), max(wk, len(r.kinds))
	}
	for _, r := range rows {
		fmt.Fprintln(out, strings.TrimRight(fmt.Sprintf("%-*s  %*s  %-*s  %s", wn, r.name, wc, r.n, wk, r.kinds, r.span), " "))
	}
	if len(m.Tunnels) > 0 {
		fmt.Fprintln(out, "\ntunnels")
		for _, t := range m.Tunnels {
			what := t.Room
			if what == "" {
				what = strings.Join(t.Keywords, ", ")
			}
			fmt.Fprintf(out, "  %s: %s\n", termsafe.Line(what), strings.Join(termsafe.Lines(t.Wings), ", "))
		}
	}
	if len(m.Entities) > 0 {
		fmt.Fprintln(out, "\nentities")
		width := 0
		for _, e := range m.Entities {
			width = max(width, utf8.RuneCountInString(termsafe.Line(e.Name)))
		}
		for _, e := range m.Entities {
			fmt.Fprintf(out, "  %-*s  %d %s\n", width, termsafe.Line(e.Name), e.Facts, plural(e.Facts, "fact", "facts"))
		}
	}
}
