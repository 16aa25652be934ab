package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/route"
	"github.com/palace-dev/palace/core/store"
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
		wing   string
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "list",
		Short: "List rooms with their display names and keywords",
		Args:  args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			rooms, err := withPalace(g, func(p *palace.Palace) ([]store.Room, error) {
				st := p.Store
				if wing != "" {
					return st.Taxonomy(c.Context(), wing)
				}
				return st.AllTaxonomy(c.Context())
			})
			if err != nil {
				return err
			}
			if rooms == nil {
				rooms = []store.Room{}
			}
			for i := range rooms {
				if rooms[i].Keywords == nil {
					rooms[i].Keywords = []string{}
				}
			}
			out := c.OutOrStdout()
			if asJSON {
				return printJSON(out, map[string]any{"rooms": rooms})
			}
			if len(rooms) == 0 {
				fmt.Fprintln(out, "no rooms (add one with 'palace taxonomy set WING ROOM --keywords a,b' or list them in palace.yaml)")
			}
			for _, r := range rooms {
				printRoom(out, "", r)
			}
			return nil
		},
	}
	c.Flags().StringVar(&wing, "wing", "", "only this wing's rooms")
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}

func printRoom(out io.Writer, prefix string, r store.Room) {
	name := ""
	if r.DisplayName != "" {
		name = fmt.Sprintf(" (%s)", r.DisplayName)
	}
	kw := "no keywords"
	if len(r.Keywords) > 0 {
		kw = "keywords: " + strings.Join(r.Keywords, ", ")
	}
	fmt.Fprintf(out, "%s%s/%s%s  %s\n", prefix, r.Wing, r.Room, name, kw)
}

// taxonomyChange is what set and rm report.
type taxonomyChange struct {
	// Action is added, updated or removed.
	Action string     `json:"action"`
	Room   store.Room `json:"room"`
	// PalaceYAML is the palace.yaml rewritten along with the table (--dir).
	PalaceYAML string `json:"palace_yaml,omitempty"`
	// Dropped lists rooms the table had but palace.yaml did not: making the
	// table match the file removed them, as the next mine would have.
	Dropped []string `json:"dropped,omitempty"`
	// Warning says when a palace.yaml will undo this change at the next mine.
	Warning string `json:"warning,omitempty"`
}

func newTaxonomySetCmd(g *globals) *cobra.Command {
	var (
		keywords, display, dir string
		asJSON                 bool
	)
	c := &cobra.Command{
		Use:   "set WING ROOM",
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
			wing, name := a[0], a[1]
			// Everything is checked before the palace is opened: bad input
			// writes nothing, not even a new palace.
			if err := route.CheckName("wing", wing); err != nil {
				return inputErr(err)
			}
			if err := route.CheckName("room", name); err != nil {
				return inputErr(err)
			}
			var kw []string
			setKW, setName := c.Flags().Changed("keywords"), c.Flags().Changed("name")
			if setKW {
				var err error
				if kw, err = route.ParseKeywords(keywords); err != nil {
					return inputErr(fmt.Errorf("--keywords: %w", err))
				}
			}
			if setName {
				if err := route.CheckDisplayName(display); err != nil {
					return inputErr(fmt.Errorf("--name: %w", err))
				}
			}
			proj, err := projectConfig(dir, wing)
			if err != nil {
				return err
			}
			res, err := withPalace(g, func(p *palace.Palace) (taxonomyChange, error) {
				st := p.Store
				ctx := c.Context()
				base, err := baseRooms(ctx, st, wing, proj)
				if err != nil {
					return taxonomyChange{}, err
				}
				res := taxonomyChange{Action: "added", Room: store.Room{Wing: wing, Room: name, Keywords: []string{}}}
				i := indexRoom(base, name)
				if i >= 0 {
					res.Action, res.Room = "updated", base[i]
				}
				if setKW {
					res.Room.Keywords = kw
				}
				if setName {
					res.Room.DisplayName = display
				}
				if proj == nil {
					if err := st.SetRoom(ctx, res.Room); err != nil {
						return res, err
					}
					res.Warning = yamlWarning(ctx, st, wing)
					return res, nil
				}
				if i >= 0 {
					base[i] = res.Room
				} else {
					base = append(base, res.Room)
				}
				res.PalaceYAML, res.Dropped, err = syncProject(ctx, st, proj, base, "")
				return res, err
			})
			if err != nil {
				return err
			}
			return printChange(c, res, asJSON)
		},
	}
	c.Flags().StringVar(&keywords, "keywords", "", "comma-separated words that route to the room (replaces its keywords)")
	c.Flags().StringVar(&display, "name", "", "display name of the room")
	c.Flags().StringVar(&dir, "dir", "", "project folder whose palace.yaml to change as well")
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}

func newTaxonomyRmCmd(g *globals) *cobra.Command {
	var (
		dir    string
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "rm WING ROOM",
		Short: "Remove a room from the taxonomy (its drawers stay where they are)",
		Long: `Rm removes ROOM from WING's taxonomy; drawers already filed in the room keep
it. With --dir DIR, the room also leaves DIR/palace.yaml (whose wing must be
WING) and the table is made to match the file, so the next mine does not
bring the room back.

Exit codes: 0 done, 1 error (no such room: nothing removed), 2 bad usage or
input.`,
		Example: `  palace taxonomy rm shop billing
  palace taxonomy rm shop billing --dir ~/src/shop`,
		Args: args(cobra.ExactArgs(2)),
		RunE: func(c *cobra.Command, a []string) error {
			wing, name := a[0], a[1]
			// Only the basic checks: a room stored before names were
			// checked (from palace.yaml, say) must stay removable.
			for _, n := range []struct{ what, name string }{{"wing", wing}, {"room", name}} {
				if n.name == "" || len(n.name) > route.MaxNameBytes {
					return inputErr(route.CheckName(n.what, n.name))
				}
			}
			proj, err := projectConfig(dir, wing)
			if err != nil {
				return err
			}
			res, err := withPalace(g, func(p *palace.Palace) (taxonomyChange, error) {
				st := p.Store
				ctx := c.Context()
				res := taxonomyChange{Action: "removed", Room: store.Room{Wing: wing, Room: name, Keywords: []string{}}}
				notFound := fmt.Errorf("wing %s has no room %s in the taxonomy (nothing removed)", route.Show(wing), route.Show(name))
				if proj == nil {
					ok, err := st.RemoveRoom(ctx, wing, name)
					if err == nil && !ok {
						err = notFound
					}
					if err == nil {
						res.Warning = yamlWarning(ctx, st, wing)
					}
					return res, err
				}
				base, err := baseRooms(ctx, st, wing, proj)
				if err != nil {
					return res, err
				}
				table, err := st.Taxonomy(ctx, wing)
				if err != nil {
					return res, err
				}
				i := indexRoom(base, name)
				if i < 0 && indexRoom(table, name) < 0 {
					return res, notFound
				}
				if i >= 0 {
					res.Room = base[i]
					base = append(base[:i:i], base[i+1:]...)
				}
				res.PalaceYAML, res.Dropped, err = syncProject(ctx, st, proj, base, name)
				return res, err
			})
			if err != nil {
				return err
			}
			return printChange(c, res, asJSON)
		},
	}
	c.Flags().StringVar(&dir, "dir", "", "project folder whose palace.yaml to change as well")
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}

func newTaxonomyRouteCmd(g *globals) *cobra.Command {
	var (
		wing   string
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "route QUERY",
		Short: "Show the wing and room a search for QUERY would be routed to",
		Long: `Route shows the route a search for QUERY would take when it names no room:
the wing and room, the confidence, whether it would filter the search and
why. It does not search, so it cannot tell whether the routed search would
find anything (a search that finds nothing there runs without the route).`,
		Example: `  palace taxonomy route "refresh the session token"
  palace taxonomy route invoice --wing shop --json`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			q := strings.Join(a, " ")
			r, err := withPalace(g, func(p *palace.Palace) (route.Route, error) {
				st := p.Store
				return route.Propose(c.Context(), st, q, wing)
			})
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(c.OutOrStdout(), r)
			}
			fmt.Fprintln(c.OutOrStdout(), r)
			return nil
		},
	}
	c.Flags().StringVar(&wing, "wing", "", "route among this wing's rooms only")
	c.Flags().BoolVar(&asJSON, "json", false, "print the route as JSON")
	return c
}

func printChange(c *cobra.Command, res taxonomyChange, asJSON bool) error {
	if res.Warning != "" {
		fmt.Fprintln(c.ErrOrStderr(), "palace: warning:", res.Warning)
	}
	out := c.OutOrStdout()
	if asJSON {
		return printJSON(out, res)
	}
	printRoom(out, res.Action+" ", res.Room)
	if res.PalaceYAML != "" {
		fmt.Fprintf(out, "wrote %s\n", res.PalaceYAML)
	}
	if len(res.Dropped) > 0 {
		fmt.Fprintf(out, "dropped from the palace, not being in palace.yaml: %s\n", strings.Join(res.Dropped, ", "))
	}
	return nil
}

// project is a palace.yaml named by --dir.
type project struct {
	dir  string
	wing string
	cfg  *mine.Config
}

// projectConfig loads DIR/palace.yaml for --dir and checks it is WING's; it
// returns nil without --dir.
func projectConfig(dir, wing string) (*project, error) {
	if dir == "" {
		return nil, nil
	}
	cfg, err := mine.LoadConfig(dir)
	if err != nil {
		return nil, usageError{fmt.Errorf("--dir: %w", err)}
	}
	if cfg == nil {
		return nil, usageError{fmt.Errorf("--dir %s: no %s there (create one with 'palace init %s')", dir, mine.ConfigName, dir)}
	}
	if w := mine.WingOf(dir, cfg); w != wing {
		return nil, usageError{fmt.Errorf("--dir %s: its %s is for wing %s, not %s", dir, mine.ConfigName, route.Show(w), route.Show(wing))}
	}
	return &project{dir: dir, wing: wing, cfg: cfg}, nil
}

// baseRooms is the room list an edit starts from: palace.yaml's rooms when
// --dir names a file that lists some (the file wins at mine time), else the
// table's.
func baseRooms(ctx context.Context, st *store.Store, wing string, proj *project) ([]store.Room, error) {
	if proj != nil && len(proj.cfg.Rooms) > 0 {
		rooms := append([]store.Room(nil), proj.cfg.Rooms...)
		for i := range rooms {
			rooms[i].Wing = wing // yaml has no wing per room
			if rooms[i].Keywords == nil {
				rooms[i].Keywords = []string{}
			}
		}
		return rooms, nil
	}
	rooms, err := st.Taxonomy(ctx, wing)
	if err != nil {
		return nil, err
	}
	for i := range rooms {
		if rooms[i].Keywords == nil {
			rooms[i].Keywords = []string{}
		}
	}
	return rooms, nil
}

func indexRoom(rooms []store.Room, name string) int {
	for i, r := range rooms {
		if r.Room == name {
			return i
		}
	}
	return -1
}

// syncProject writes rooms to the project's palace.yaml, then makes the
// wing's table hold exactly those rooms. The file goes first: if the table
// write then fails, the next mine still applies the file. It returns the
// file and the table's rooms this dropped, other than removed (the room
// being removed on purpose).
func syncProject(ctx context.Context, st *store.Store, proj *project, rooms []store.Room, removed string) (string, []string, error) {
	old, err := st.Taxonomy(ctx, proj.wing)
	if err != nil {
		return "", nil, err
	}
	var dropped []string
	for _, r := range old {
		if r.Room != removed && indexRoom(rooms, r.Room) < 0 {
			dropped = append(dropped, r.Room)
		}
	}
	cfg := *proj.cfg
	cfg.Rooms = rooms
	path, err := writeConfigAtomic(proj.dir, &cfg)
	if err != nil {
		return "", nil, err
	}
	if err := st.ReplaceTaxonomy(ctx, proj.wing, rooms); err != nil {
		return path, nil, fmt.Errorf("%s was updated but the palace was not (the next 'palace mine %s' applies it): %w", path, proj.dir, err)
	}
	return path, dropped, nil
}

// writeConfigAtomic writes palace.yaml through mine.WriteConfig into a
// temporary folder beside it and renames it into place, so an interrupted
// write never leaves a project with half a palace.yaml. A symlinked
// palace.yaml is replaced where it points.
func writeConfigAtomic(dir string, cfg *mine.Config) (string, error) {
	target := filepath.Join(dir, mine.ConfigName)
	if resolved, err := filepath.EvalSymlinks(target); err == nil {
		target = resolved
	}
	tmp, err := os.MkdirTemp(filepath.Dir(target), ".palace-yaml-")
	if err != nil {
		return "", fmt.Errorf("write %s: %w", target, err)
	}
	defer os.RemoveAll(tmp)
	written, err := mine.WriteConfig(tmp, cfg, false)
	if err != nil {
		return "", err
	}
	if err := os.Rename(written, target); err != nil {
		return "", fmt.Errorf("write %s: %w", target, err)
	}
	return filepath.Join(dir, mine.ConfigName), nil
}

// yamlWarning looks for a palace.yaml that will replace the wing's rooms at
// the next mine, undoing an edit made without --dir: one in a folder above a
// file the wing was mined from, for this wing, listing rooms. Best effort:
// any failure means no warning.
func yamlWarning(ctx context.Context, st *store.Store, wing string) string {
	src, err := st.SourceSample(ctx, wing, store.KindFile)
	if err != nil || src == "" {
		return ""
	}
	for d := filepath.Dir(src); ; d = filepath.Dir(d) {
		if cfg, err := mine.LoadConfig(d); err == nil && cfg != nil && len(cfg.Rooms) > 0 && mine.WingOf(d, cfg) == wing {
			return fmt.Sprintf("%s lists the rooms of wing %s and replaces them at the next 'palace mine'; run again with --dir %s to change both",
				filepath.Join(d, mine.ConfigName), wing, d)
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}
