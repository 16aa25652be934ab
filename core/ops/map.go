package ops

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/picture"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

// Map limits. A page embeds a few drawers of every room so a click can
// list them without a server; the total is capped so a palace of many
// rooms still gives a page of a few hundred kilobytes.
const (
	// MapPageTop is how many drawers of each room a map page lists.
	MapPageTop = 5
	// MaxMapTop bounds MapRequest.Top.
	MaxMapTop = 20
	// MapTopBudget bounds the drawers listed in one map: with many rooms
	// each lists fewer (at least one).
	MapTopBudget = 2000
	// MapEntities is how many of the most connected knowledge-graph
	// entities a map names.
	MapEntities = 20
	// mapLineRunes cuts a listed drawer's first line.
	mapLineRunes = 120
	// MapParts is how many parts (folders or files) a room of files names;
	// the rest are counted in MapRoom.Rest.
	MapParts = 16
)

// MapRequest asks for the shape of the palace.
type MapRequest struct {
	// Wing keeps one wing (and the tunnels touching it); "" is every
	// wing. A wing the palace does not hold is invalid.
	Wing string
	// Top lists up to this many drawers of each room (citation and first
	// line), 0 to MaxMapTop; 0 lists none.
	Top int
}

// Validate names the first bad field.
func (r MapRequest) Validate() error {
	if r.Top < 0 || r.Top > MaxMapTop {
		return input.Invalid("top", "%d: want 0 to %d", r.Top, MaxMapTop)
	}
	return nil
}

// MapResult is the palace's shape: wings and their rooms with live drawer
// counts, counts by kind and the time span of what they hold, the tunnels
// between wings, and the most connected knowledge-graph entities. Wings
// and rooms are sorted by name; none is null. Entities are the whole
// graph's, so a map of one wing lists none.
type MapResult struct {
	Wings    []MapWing      `json:"wings"`
	Tunnels  []MapTunnel    `json:"tunnels"`
	Entities []kg.Connected `json:"entities"`
}

// MapWing is one wing: its rooms' totals, the folder holding its mined
// files, and the rooms.
type MapWing struct {
	MapCounts
	// Root is the deepest folder holding every file the wing mined ("" if
	// it mined none); the paths of Parts and the citations of Top are
	// relative to it.
	Root  string    `json:"root,omitempty"`
	Rooms []MapRoom `json:"rooms"`
}

// MapRoom is one room holding live drawers: what its files are (Parts)
// and the drawers Top asked for.
type MapRoom struct {
	MapCounts
	// Parts say what a room of files holds, biggest first: its folders
	// (a Go package, a directory of docs), and, when one folder holds
	// most of the room (a flat repository's "general"), that folder's
	// files in its place. At most MapParts; Rest counts the file drawers
	// of the parts left out.
	Parts []MapPart   `json:"parts,omitempty"`
	Rest  int         `json:"rest,omitempty"`
	Top   []MapDrawer `json:"top,omitempty"`
}

// MapPart is a folder (its path ends in "/") or a file of a room, relative
// to the wing's Root, with its file drawers and the language most of them
// are in ("" when none is known).
type MapPart struct {
	Name     string `json:"name"`
	Drawers  int    `json:"drawers"`
	Files    int    `json:"files"`
	Language string `json:"language,omitempty"`
}

// MapCounts are the live drawers of a wing or room: how many, how many of
// each kind (file, conversation, note, diary) and of each language (file
// drawers whose language is known), and when the oldest and the newest
// happened (else were mined).
type MapCounts struct {
	Name      string         `json:"name"`
	Drawers   int            `json:"drawers"`
	Kinds     map[string]int `json:"kinds"`
	Languages map[string]int `json:"languages,omitempty"`
	Oldest    time.Time      `json:"oldest"`
	Newest    time.Time      `json:"newest"`
}

// MapDrawer is a drawer listed under its room.
type MapDrawer struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	Citation string `json:"citation"`
	Line     string `json:"line"`
}

// MapTunnel is a tunnel (see Tunnels) with the wings it joins, so a
// picture can draw it as a link between wings.
type MapTunnel struct {
	Tunnel
	Wings []string `json:"wings"`
}

// Map reads the palace's shape: wings and rooms with live drawers, the
// tunnels between them (ops.Tunnels) and the most connected entities.
func Map(ctx context.Context, p *palace.Palace, r MapRequest) (MapResult, error) {
	res := MapResult{Wings: []MapWing{}, Tunnels: []MapTunnel{}, Entities: []kg.Connected{}}
	if err := r.Validate(); err != nil {
		return res, err
	}
	tun, err := Tunnels(ctx, p, TunnelsRequest{Wing: r.Wing}) // checks the wing
	if err != nil {
		return res, err
	}
	counts, err := p.Store.MapCounts(ctx, r.Wing)
	if err != nil {
		return res, fmt.Errorf("map: %w", err)
	}
	for _, c := range counts {
		if len(res.Wings) == 0 || res.Wings[len(res.Wings)-1].Name != c.Wing {
			res.Wings = append(res.Wings, MapWing{MapCounts: MapCounts{Name: c.Wing, Kinds: map[string]int{}}, Rooms: []MapRoom{}})
		}
		w := &res.Wings[len(res.Wings)-1]
		if len(w.Rooms) == 0 || w.Rooms[len(w.Rooms)-1].Name != c.Room {
			w.Rooms = append(w.Rooms, MapRoom{MapCounts: MapCounts{Name: c.Room, Kinds: map[string]int{}}})
		}
		w.add(c)
		w.Rooms[len(w.Rooms)-1].add(c)
	}
	if err := res.addFiles(ctx, p, r.Wing); err != nil {
		return res, err
	}
	if err := res.listTop(ctx, p, r); err != nil {
		return res, err
	}
	for _, t := range tun.Tunnels {
		mt := MapTunnel{Tunnel: t, Wings: []string{}}
		for _, s := range t.Sides {
			if !slices.Contains(mt.Wings, s.Wing) {
				mt.Wings = append(mt.Wings, s.Wing)
			}
		}
		res.Tunnels = append(res.Tunnels, mt)
	}
	if r.Wing != "" {
		return res, nil // the graph is not filed by wing
	}
	stats, err := kg.Stats(ctx, p.Store)
	if err != nil {
		return res, fmt.Errorf("map: %w", err)
	}
	for _, e := range stats.MostConnected {
		if len(res.Entities) < MapEntities {
			res.Entities = append(res.Entities, e)
		}
	}
	return res, nil
}

// add counts c into m.
func (m *MapCounts) add(c store.MapCount) {
	if m.Drawers == 0 || c.Oldest.Before(m.Oldest) {
		m.Oldest = c.Oldest
	}
	if m.Drawers == 0 || c.Newest.After(m.Newest) {
		m.Newest = c.Newest
	}
	m.Drawers += c.Drawers
	m.Kinds[c.Kind] += c.Drawers
}

// listTop files up to r.Top drawers under each room, fewer when the
// palace has so many rooms that the total would pass MapTopBudget.
func (res *MapResult) listTop(ctx context.Context, p *palace.Palace, r MapRequest) error {
	if r.Top == 0 {
		return nil
	}
	rooms := 0
	for _, w := range res.Wings {
		rooms += len(w.Rooms)
	}
	top := max(1, min(r.Top, MapTopBudget/max(rooms, 1)))
	ds, err := p.Store.MapTop(ctx, r.Wing, top)
	if err != nil {
		return fmt.Errorf("map: %w", err)
	}
	for _, d := range ds {
		wi := slices.IndexFunc(res.Wings, func(w MapWing) bool { return w.Name == d.Wing })
		if wi < 0 {
			continue // a drawer written between the two reads
		}
		w := &res.Wings[wi]
		ri := slices.IndexFunc(w.Rooms, func(m MapRoom) bool { return m.Name == d.Room })
		if ri < 0 {
			continue
		}
		cite := search.Citation(store.Drawer{Source: relTo(w.Root, d.Source), LineStart: d.LineStart, LineEnd: d.LineEnd})
		w.Rooms[ri].Top = append(w.Rooms[ri].Top, MapDrawer{ID: d.ID, Kind: d.Kind, Citation: cite, Line: cutRunes(telling(d.Head), mapLineRunes)})
	}
	return nil
}

// cutRunes keeps the first n runes of s, marking a cut with an ellipsis.
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// MapPageRequest asks for the map as a page.
type MapPageRequest struct {
	Wing string
	// Nonce, when set, is put on the page's script and style and its
	// content security policy allows only them (an editor's webview
	// sets its own); "" allows them by their hashes.
	Nonce string
}

// Validate names the first bad field.
func (r MapPageRequest) Validate() error { return picture.CheckNonce(r.Nonce) }

// MapPageResult is the map and the self-contained page drawing it.
type MapPageResult struct {
	Map  MapResult `json:"map"`
	HTML string    `json:"html"`
}

// MapPage reads the map, with MapPageTop drawers of each room, and draws
// it as one HTML page that requests nothing.
func MapPage(ctx context.Context, p *palace.Palace, r MapPageRequest) (MapPageResult, error) {
	if err := r.Validate(); err != nil {
		return MapPageResult{}, err
	}
	m, err := Map(ctx, p, MapRequest{Wing: r.Wing, Top: MapPageTop})
	if err != nil {
		return MapPageResult{}, err
	}
	title := "Palace map"
	if r.Wing != "" {
		title += " · " + r.Wing
	}
	html, err := picture.Map(m, picture.Options{Title: title, Nonce: r.Nonce})
	if err != nil {
		return MapPageResult{}, fmt.Errorf("map page: %w", err)
	}
	return MapPageResult{Map: m, HTML: html}, nil
}

// boilerplate are line starts that say nothing about a drawer of code: a
// package clause, imports, build tags, a shebang, licence and copyright
// comments. Every file of a package starts the same way.
var boilerplate = regexp.MustCompile(`^(package\s|import\s|from\s\S+\simport\s|#!|//go:build|// \+build|#include\s|use\s|(//|#|/?\*|--)\s*(SPDX-|Copyright|\(c\)|©|Licensed|Use of this source|Permission is hereby))`)

// telling is the first line of head that tells a drawer apart: not blank,
// not boilerplate; the first non-blank line when all are.
func telling(head string) string {
	first, imports := "", false
	for _, l := range strings.Split(head, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || l == "*/" {
			continue
		}
		if first == "" {
			first = l
		}
		switch {
		case imports: // a block of imports ends at its ")"
			imports = l != ")"
		case l == "import (":
			imports = true
		case !boilerplate.MatchString(l):
			return l
		}
	}
	return first
}
