package mcp

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/route"
	"github.com/palace-dev/palace/core/store"
)

const (
	taxList = "list"
	taxSet  = "set"
	taxRm   = "rm"
)

func toolTaxonomy() *tool {
	edit := []string{taxSet, taxRm}
	return &tool{
		name:  "palace_taxonomy",
		title: "Wings and rooms",
		desc: "The taxonomy: each wing's rooms and the keywords that route new content and search queries to them. " +
			"action list shows rooms (all wings, or one); set adds a room or changes its keywords or display name; rm removes a room " +
			"(drawers already filed there keep it). A project's palace.yaml, when it lists rooms, replaces the wing's rooms at the next mine: " +
			"the answer warns when that will undo an edit.",
		destructive: true, idempotent: true, // rm removes an entry; repeating set or rm changes nothing more
		params: []param{
			{name: "action", kind: kString, required: true, enum: []string{taxList, taxSet, taxRm},
				desc: "list: show rooms; set: add a room or change it; rm: remove a room from the taxonomy."},
			{name: "wing", kind: kString, maxLen: route.MaxNameBytes,
				desc: "The wing. For list, omit it to list every wing's rooms; for set and rm, omit it to use this session's project wing."},
			{name: "room", kind: kString, maxLen: route.MaxNameBytes, actions: edit, requiredFor: edit,
				desc: "The room's name: no '/' or '\"', no surrounding spaces."},
			{name: "keywords", kind: kStrings, actions: []string{taxSet},
				desc: "Single words (letters, digits, '-', '_') that route to the room; they replace its keywords. Omit to keep them, [] to clear them."},
			{name: "display_name", kind: kString, maxLen: route.MaxNameBytes, actions: []string{taxSet},
				desc: "A human-readable name for the room. Omit to keep it."},
		},
		run: runTaxonomy,
	}
}

type taxonomyArgs struct {
	Action      string    `json:"action"`
	Wing        string    `json:"wing"`
	Room        string    `json:"room"`
	Keywords    *[]string `json:"keywords"`
	DisplayName *string   `json:"display_name"`
}

type taxonomyList struct {
	Rooms []store.Room `json:"rooms"`
}

// taxonomyChange is what set and rm report, as `palace taxonomy set --json`.
type taxonomyChange struct {
	Action  string     `json:"action"` // added, updated or removed
	Room    store.Room `json:"room"`
	Warning string     `json:"warning,omitempty"`
}

func runTaxonomy(ctx context.Context, s *Server, a args) (any, error) {
	var in taxonomyArgs
	if err := a.decode(&in); err != nil {
		return nil, err
	}
	st := s.p.Store
	if in.Action == taxList {
		var rooms []store.Room
		var err error
		if in.Wing != "" {
			rooms, err = st.Taxonomy(ctx, in.Wing)
		} else {
			rooms, err = st.AllTaxonomy(ctx)
		}
		if err != nil {
			return nil, err
		}
		if rooms == nil {
			rooms = []store.Room{}
		}
		for i := range rooms {
			if rooms[i].Keywords == nil {
				rooms[i].Keywords = []string{}
			}
		}
		return taxonomyList{Rooms: rooms}, nil
	}
	wing, err := s.wing(ctx, in.Wing)
	if err != nil {
		return nil, err
	}
	if in.Action == taxRm {
		// Only the basic checks, as the CLI: a room stored before names
		// were checked must stay removable.
		ok, err := st.RemoveRoom(ctx, wing, in.Room)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, invalidf("room", "%s: wing %s has no such room in the taxonomy (nothing removed; action list shows the rooms)", route.Show(in.Room), route.Show(wing))
		}
		return taxonomyChange{Action: "removed", Room: store.Room{Wing: wing, Room: in.Room, Keywords: []string{}},
			Warning: s.yamlWarning(ctx, wing)}, nil
	}
	// set: a field not given keeps its value, as `palace taxonomy set`.
	rooms, err := st.Taxonomy(ctx, wing)
	if err != nil {
		return nil, err
	}
	res := taxonomyChange{Action: "added", Room: store.Room{Wing: wing, Room: in.Room, Keywords: []string{}}}
	for _, r := range rooms {
		if r.Room == in.Room {
			res.Action, res.Room = "updated", r
		}
	}
	if in.Keywords != nil {
		res.Room.Keywords = *in.Keywords
	}
	if in.DisplayName != nil {
		res.Room.DisplayName = *in.DisplayName
	}
	if res.Room, err = route.CheckRoom(res.Room); err != nil {
		return nil, err
	}
	if err := st.SetRoom(ctx, res.Room); err != nil {
		return nil, err
	}
	res.Warning = s.yamlWarning(ctx, wing)
	return res, nil
}

// yamlWarning says when a palace.yaml in one of the client's roots lists
// this wing's rooms: the next mine replaces the table with the file's rooms
// and undoes the edit. (The CLI also looks above the wing's mined files;
// that search lives in cmd/palace, not in core.)
func (s *Server) yamlWarning(ctx context.Context, wing string) string {
	rs, err := s.roots(ctx)
	if err != nil {
		return ""
	}
	for _, r := range rs {
		if r.Wing != wing {
			continue
		}
		if cfg, err := mine.LoadConfig(r.Dir); err == nil && cfg != nil && len(cfg.Rooms) > 0 {
			return fmt.Sprintf("%s lists the rooms of wing %s and replaces them at the next mine; edit that file too (or `palace taxonomy set --dir %s`)",
				filepath.Join(r.Dir, mine.ConfigName), wing, r.Dir)
		}
	}
	return ""
}
