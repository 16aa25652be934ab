package ops

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/route"
	"github.com/palace-dev/palace/core/store"
)

// The taxonomy actions: the MCP palace_taxonomy tool's action values and
// the CLI's 'palace taxonomy' subcommands.
const (
	TaxonomyActionList  = "list"
	TaxonomyActionSet   = "set"
	TaxonomyActionRm    = "rm"
	TaxonomyActionRoute = "route"
	// TaxonomyActionTunnels lists tunnels (Tunnels); the CLI's command is
	// 'palace tunnels'.
	TaxonomyActionTunnels = "tunnels"
)

// TaxonomyActions are the taxonomy actions, in the order help lists them.
var TaxonomyActions = []string{TaxonomyActionList, TaxonomyActionSet, TaxonomyActionRm, TaxonomyActionRoute, TaxonomyActionTunnels}

// What a set or rm did to the room (TaxonomyChange.Action).
const (
	RoomAdded   = "added"
	RoomUpdated = "updated"
	RoomRemoved = "removed"
)

// Taxonomy limits: names are identifiers, keywords single words (letters,
// digits, '-', '_'), lower-cased.
const (
	MaxNameBytes    = route.MaxNameBytes // wing, room, display name
	MaxKeywordBytes = route.MaxKeywordBytes
	MaxKeywords     = route.MaxKeywords // per room
)

// Room is one taxonomy entry: a wing's room, its display name and the
// keywords that route content and queries to it.
type Room = store.Room

// Route is where a query would be routed, and why.
type Route = route.Route

// TaxonomyListRequest lists rooms.
type TaxonomyListRequest struct {
	// Wing keeps one wing's rooms; "" is every wing. A wing the palace
	// does not hold is invalid.
	Wing string
}

// Validate names the first bad field. Any wing name may be asked for; the
// operation refuses one the palace does not hold.
func (r TaxonomyListRequest) Validate() error { return nil }

// TaxonomyListResult holds rooms sorted by wing, then room; Keywords is
// never null.
type TaxonomyListResult struct {
	Rooms []Room `json:"rooms"`
}

// TaxonomyList lists the rooms of one wing or all.
func TaxonomyList(ctx context.Context, p *palace.Palace, r TaxonomyListRequest) (TaxonomyListResult, error) {
	res := TaxonomyListResult{Rooms: []Room{}}
	if err := checkWing(ctx, p, "wing", r.Wing); err != nil {
		return res, err
	}
	var rooms []Room
	var err error
	if r.Wing != "" {
		rooms, err = p.Store.Taxonomy(ctx, r.Wing)
	} else {
		rooms, err = p.Store.AllTaxonomy(ctx)
	}
	if err != nil {
		return res, err
	}
	res.Rooms = append(res.Rooms, rooms...)
	nonNilKeywords(res.Rooms)
	return res, nil
}

// TaxonomySetRequest adds a room to a wing or changes it.
type TaxonomySetRequest struct {
	Wing string
	Room string
	// Keywords replace the room's keywords; nil keeps them, an empty list
	// clears them. They are trimmed, lower-cased and deduplicated.
	Keywords *[]string
	// DisplayName replaces the room's display name; nil keeps it.
	DisplayName *string
	// Dir is a project folder whose palace.yaml (for Wing) gets the same
	// change, the table then made to match the file; "" changes only the
	// table.
	Dir string
	// Folders are project folders the caller works in (an MCP client's
	// roots). Without Dir, a palace.yaml there that lists Wing's rooms is
	// reported in the Warning, as is one above the wing's mined files.
	Folders []string
}

// Validate names the first bad field.
func (r TaxonomySetRequest) Validate() error {
	_, err := r.room()
	return err
}

// room checks r and returns the fields it sets, normalised, on a room
// without a stored state.
func (r TaxonomySetRequest) room() (Room, error) {
	rm := Room{Wing: r.Wing, Room: r.Room, Keywords: []string{}}
	if err := route.CheckName("wing", r.Wing); err != nil {
		return rm, err
	}
	if err := route.CheckName("room", r.Room); err != nil {
		return rm, err
	}
	if r.Keywords != nil {
		kw, err := route.NormalizeKeywords(*r.Keywords)
		if err != nil {
			return rm, err
		}
		rm.Keywords = kw
	}
	if r.DisplayName != nil {
		if err := route.CheckDisplayName(*r.DisplayName); err != nil {
			return rm, err
		}
		rm.DisplayName = *r.DisplayName
	}
	return rm, nil
}

// TaxonomyChange is what a set or rm did.
type TaxonomyChange struct {
	// Action is RoomAdded, RoomUpdated or RoomRemoved.
	Action string `json:"action"`
	Room   Room   `json:"room"`
	// PalaceYAML is the palace.yaml rewritten along with the table (Dir).
	PalaceYAML string `json:"palace_yaml,omitempty"`
	// Dropped lists rooms the table had but palace.yaml did not: making
	// the table match the file removed them, as the next mine would have.
	Dropped []string `json:"dropped,omitempty"`
	// Warning names a palace.yaml that will undo this change at the next
	// mine, when the change was made without Dir.
	Warning string `json:"warning,omitempty"`
}

// TaxonomySet adds r.Room to r.Wing, or changes the fields r sets, in the
// table and, with Dir, in the project's palace.yaml.
func TaxonomySet(ctx context.Context, p *palace.Palace, r TaxonomySetRequest) (TaxonomyChange, error) {
	set, err := r.room()
	res := TaxonomyChange{Action: RoomAdded, Room: set}
	if err != nil {
		return res, err
	}
	proj, err := loadProject(r.Dir, r.Wing)
	if err != nil {
		return res, err
	}
	base, err := baseRooms(ctx, p.Store, r.Wing, proj)
	if err != nil {
		return res, err
	}
	i := slices.IndexFunc(base, func(b Room) bool { return b.Room == r.Room })
	if i >= 0 {
		res.Action, res.Room = RoomUpdated, base[i]
		if r.Keywords != nil {
			res.Room.Keywords = set.Keywords
		}
		if r.DisplayName != nil {
			res.Room.DisplayName = set.DisplayName
		}
	}
	if proj == nil {
		if _, err := retryBusy(ctx, "taxonomy set", func() (struct{}, error) {
			return struct{}{}, p.Store.SetRoom(ctx, res.Room)
		}); err != nil {
			return res, err
		}
		res.Warning = yamlWarning(ctx, p.Store, r.Wing, r.Folders)
		return res, nil
	}
	if i >= 0 {
		base[i] = res.Room
	} else {
		base = append(base, res.Room)
	}
	res.PalaceYAML, res.Dropped, err = syncProject(ctx, p.Store, proj, base, "")
	return res, err
}

// TaxonomyRmRequest removes a room from a wing's taxonomy.
type TaxonomyRmRequest struct {
	Wing string
	Room string
	// Dir is a project folder whose palace.yaml (for Wing) loses the room
	// too, the table then made to match the file.
	Dir string
	// Folders are as in TaxonomySetRequest.
	Folders []string
}

// Validate names the first bad field. Only the basic checks: a room
// stored before names were checked (from a palace.yaml, say) must stay
// removable.
func (r TaxonomyRmRequest) Validate() error {
	for _, n := range []struct{ field, name string }{{"wing", r.Wing}, {"room", r.Room}} {
		if err := checkText(n.field, n.name); err != nil {
			return err
		}
		if len(n.name) > MaxNameBytes {
			return route.CheckName(n.field, n.name)
		}
	}
	return nil
}

// TaxonomyRm removes r.Room from r.Wing's taxonomy; drawers already filed
// in it keep their room. A room the wing does not have is ErrNotFound and
// nothing changes.
func TaxonomyRm(ctx context.Context, p *palace.Palace, r TaxonomyRmRequest) (TaxonomyChange, error) {
	res := TaxonomyChange{Action: RoomRemoved, Room: Room{Wing: r.Wing, Room: r.Room, Keywords: []string{}}}
	if err := r.Validate(); err != nil {
		return res, err
	}
	notFound := noRoomError(fmt.Sprintf("room %s: not found in the taxonomy of wing %s (nothing removed)", route.Show(r.Room), route.Show(r.Wing)))
	proj, err := loadProject(r.Dir, r.Wing)
	if err != nil {
		return res, err
	}
	if proj == nil {
		ok, err := retryBusy(ctx, "taxonomy rm", func() (bool, error) {
			return p.Store.RemoveRoom(ctx, r.Wing, r.Room)
		})
		if err != nil {
			return res, err
		}
		if !ok {
			return res, notFound
		}
		res.Warning = yamlWarning(ctx, p.Store, r.Wing, r.Folders)
		return res, nil
	}
	base, err := baseRooms(ctx, p.Store, r.Wing, proj)
	if err != nil {
		return res, err
	}
	table, err := p.Store.Taxonomy(ctx, r.Wing)
	if err != nil {
		return res, err
	}
	named := func(x Room) bool { return x.Room == r.Room }
	i := slices.IndexFunc(base, named)
	if i < 0 && !slices.ContainsFunc(table, named) {
		return res, notFound
	}
	if i >= 0 {
		res.Room = base[i]
		base = slices.Delete(base, i, i+1)
	}
	res.PalaceYAML, res.Dropped, err = syncProject(ctx, p.Store, proj, base, r.Room)
	return res, err
}

// TaxonomyRouteRequest asks where a search for Query would be routed when
// it names no room. It does not search.
type TaxonomyRouteRequest struct {
	Query string
	// Wing routes among one wing's rooms; "" among every wing's. A wing
	// the palace does not hold is invalid.
	Wing string
}

// Validate names the first bad field; the query has a search's bounds.
func (r TaxonomyRouteRequest) Validate() error {
	return checkQuery(r.Query)
}

// TaxonomyRoute proposes the route: wing, room, confidence, whether a
// search would apply it, and why.
func TaxonomyRoute(ctx context.Context, p *palace.Palace, r TaxonomyRouteRequest) (Route, error) {
	if err := r.Validate(); err != nil {
		return Route{}, err
	}
	if err := checkWing(ctx, p, "wing", r.Wing); err != nil {
		return Route{}, err
	}
	return route.Propose(ctx, p.Store, r.Query, r.Wing)
}

// noRoomError is ErrNotFound for a room to remove; its message says so
// without repeating "not found", which fronts add themselves.
type noRoomError string

func (e noRoomError) Error() string { return string(e) }

// Is makes errors.Is(err, ErrNotFound) true.
func (e noRoomError) Is(target error) bool { return target == ErrNotFound }

func nonNilKeywords(rooms []Room) {
	for i := range rooms {
		if rooms[i].Keywords == nil {
			rooms[i].Keywords = []string{}
		}
	}
}

// project is the palace.yaml a set or rm edits along with the table.
type project struct {
	dir  string
	wing string
	cfg  *mine.Config
}

// loadProject loads DIR/palace.yaml and checks it is wing's; "" gives nil.
func loadProject(dir, wing string) (*project, error) {
	if dir == "" {
		return nil, nil
	}
	cfg, err := mine.LoadConfig(dir)
	if err != nil {
		return nil, input.Invalid("dir", "%v", err)
	}
	if cfg == nil {
		return nil, input.Invalid("dir", "%s has no %s (create one with 'palace init %s')", dir, mine.ConfigName, dir)
	}
	if w := mine.WingOf(dir, cfg); w != wing {
		return nil, input.Invalid("dir", "%s: its %s is for wing %s, not %s", dir, mine.ConfigName, route.Show(w), route.Show(wing))
	}
	return &project{dir: dir, wing: wing, cfg: cfg}, nil
}

// baseRooms is the room list an edit starts from: palace.yaml's rooms when
// the project's file lists some (the file wins at mine time), else the
// table's.
func baseRooms(ctx context.Context, st *store.Store, wing string, proj *project) ([]Room, error) {
	var rooms []Room
	if proj != nil && len(proj.cfg.Rooms) > 0 {
		rooms = slices.Clone(proj.cfg.Rooms)
		for i := range rooms {
			rooms[i].Wing = wing // palace.yaml has no wing per room
		}
	} else {
		var err error
		if rooms, err = st.Taxonomy(ctx, wing); err != nil {
			return nil, err
		}
	}
	nonNilKeywords(rooms)
	return rooms, nil
}

// syncProject writes rooms to the project's palace.yaml, then makes the
// wing's table hold exactly those rooms. The file goes first: if the table
// write then fails, the next mine still applies the file. It returns the
// file and the table's rooms this dropped, other than removed (the room
// being removed on purpose).
func syncProject(ctx context.Context, st *store.Store, proj *project, rooms []Room, removed string) (string, []string, error) {
	old, err := st.Taxonomy(ctx, proj.wing)
	if err != nil {
		return "", nil, err
	}
	var dropped []string
	for _, r := range old {
		if r.Room != removed && !slices.ContainsFunc(rooms, func(x Room) bool { return x.Room == r.Room }) {
			dropped = append(dropped, r.Room)
		}
	}
	cfg := *proj.cfg
	cfg.Rooms = rooms
	path, err := writeConfigAtomic(proj.dir, &cfg)
	if err != nil {
		return "", nil, err
	}
	if _, err := retryBusy(ctx, "taxonomy sync", func() (struct{}, error) {
		return struct{}{}, st.ReplaceTaxonomy(ctx, proj.wing, rooms)
	}); err != nil {
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
// the next mine, undoing an edit made without Dir: one for this wing that
// lists rooms, in one of folders or in a folder above a file the wing was
// mined from. Best effort: any failure means no warning.
func yamlWarning(ctx context.Context, st *store.Store, wing string, folders []string) string {
	undoes := func(d string) bool {
		cfg, err := mine.LoadConfig(d)
		return err == nil && cfg != nil && len(cfg.Rooms) > 0 && mine.WingOf(d, cfg) == wing
	}
	found := slices.IndexFunc(folders, undoes)
	dir := ""
	if found >= 0 {
		dir = folders[found]
	} else if src, err := st.SourceSample(ctx, wing, store.KindFile); err == nil && src != "" {
		for d := filepath.Dir(src); ; d = filepath.Dir(d) {
			if undoes(d) {
				dir = d
				break
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	if dir == "" {
		return ""
	}
	return fmt.Sprintf("%s lists the rooms of wing %s and replaces them at the next mine; make the same change there too (palace taxonomy set or rm with --dir %s changes both)",
		filepath.Join(dir, mine.ConfigName), wing, dir)
}
