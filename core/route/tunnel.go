package route

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/palace-dev/palace/core/store"
)

// What joins the rooms of a tunnel (Tunnel.Kind).
const (
	TunnelName     = "name"
	TunnelKeywords = "keywords"
)

// The keyword rule: two rooms in different wings that their name does not
// join already (see linking) are a tunnel when they share at least
// MinSharedKeywords taxonomy keywords and those are at least
// MinKeywordOverlap of the keywords either lists (the Jaccard index
// |A∩B| / |A∪B|). Two rooms that share one keyword, or
// share two among twenty each, are about different things that happen to
// use a word alike.
const (
	MinSharedKeywords = 2
	MinKeywordOverlap = 0.5
)

// Side is one room of a tunnel and the live drawers it holds.
type Side struct {
	Wing    string `json:"wing"`
	Room    string `json:"room"`
	Drawers int    `json:"drawers"`
}

// Tunnel joins rooms of different wings that are about the same thing:
// the rooms of one name (Kind TunnelName, Room that name, two or more
// sides), or two rooms whose keywords overlap (Kind TunnelKeywords,
// Keywords the shared ones, Overlap their Jaccard index, two sides).
// Sides are sorted by wing, then room.
type Tunnel struct {
	Kind     string   `json:"kind"`
	Room     string   `json:"room,omitempty"`
	Keywords []string `json:"keywords,omitempty"`
	Overlap  float64  `json:"overlap,omitempty"`
	Sides    []Side   `json:"sides"`
}

// Touches reports whether wing holds a side of t.
func (t Tunnel) Touches(wing string) bool {
	return slices.ContainsFunc(t.Sides, func(s Side) bool { return s.Wing == wing })
}

// Others returns the sides of t other than wing's room, or nil when that
// room is not a side of t.
func (t Tunnel) Others(wing, room string) []Side {
	i := slices.IndexFunc(t.Sides, func(s Side) bool { return s.Wing == wing && s.Room == room })
	if i < 0 {
		return nil
	}
	return slices.Delete(slices.Clone(t.Sides), i, i+1)
}

// catchAll are the rooms the miner files what no rule places (core/mine:
// DefaultRoom, and the room of conversations no keyword or topic claims).
// Every wing may have them, so their name joins nothing.
var catchAll = []string{"general", "conversations"}

// linking reports whether rooms of this name in different wings are a
// tunnel: not a catch-all room, and not a generic programming word
// (Generic), which names where code sits or what kind of file it is
// (docs, tests, src), not what it is about, so every project has one.
func linking(name string) bool {
	return !slices.Contains(catchAll, strings.ToLower(name)) && !Generic(name)
}

// Tunnels finds the tunnels among rooms (every room of every wing, as
// store.RoomStats gives them): the names two or more wings share (see
// linking), sorted by name, then the pairs of rooms in different wings,
// not joined by their name already, whose keywords overlap (see
// MinKeywordOverlap), sorted by their sides. Keywords compare in lower case; a room's name is not
// one of its keywords here.
func Tunnels(rooms []store.RoomStat) []Tunnel {
	sorted := slices.Clone(rooms)
	slices.SortFunc(sorted, func(a, b store.RoomStat) int {
		return cmp.Or(cmp.Compare(a.Wing, b.Wing), cmp.Compare(a.Room, b.Room))
	})
	return append(nameTunnels(sorted), keywordTunnels(sorted)...)
}

// nameTunnels groups rooms, sorted by wing, by name.
func nameTunnels(rooms []store.RoomStat) []Tunnel {
	byName := map[string]*Tunnel{}
	var names []string
	for _, r := range rooms {
		if !linking(r.Room) {
			continue
		}
		t, ok := byName[r.Room]
		if !ok {
			t = &Tunnel{Kind: TunnelName, Room: r.Room}
			byName[r.Room] = t
			names = append(names, r.Room)
		}
		t.Sides = append(t.Sides, Side{Wing: r.Wing, Room: r.Room, Drawers: r.Drawers})
	}
	slices.Sort(names)
	var out []Tunnel
	for _, n := range names {
		if t := byName[n]; len(t.Sides) > 1 {
			out = append(out, *t)
		}
	}
	return out
}

// keywordTunnels pairs rooms, sorted by wing and room, by shared
// keywords. Only pairs sharing a keyword are compared, found through an
// index from keyword to rooms, so a palace of many rooms costs what its
// overlaps cost.
func keywordTunnels(rooms []store.RoomStat) []Tunnel {
	sets := make([][]string, len(rooms))
	index := map[string][]int{}
	for i, r := range rooms {
		for _, k := range r.Keywords {
			k = strings.ToLower(strings.TrimSpace(k))
			if k != "" && !slices.Contains(sets[i], k) {
				sets[i] = append(sets[i], k)
				index[k] = append(index[k], i)
			}
		}
	}
	shared := map[[2]int]int{}
	for _, is := range index {
		for x, i := range is {
			for _, j := range is[x+1:] {
				if rooms[i].Wing != rooms[j].Wing && (rooms[i].Room != rooms[j].Room || !linking(rooms[i].Room)) {
					shared[[2]int{i, j}]++
				}
			}
		}
	}
	var out []Tunnel
	for pair, n := range shared {
		overlap := float64(n) / float64(len(sets[pair[0]])+len(sets[pair[1]])-n)
		if n < MinSharedKeywords || overlap < MinKeywordOverlap {
			continue
		}
		var ks []string
		for _, k := range sets[pair[0]] {
			if slices.Contains(sets[pair[1]], k) {
				ks = append(ks, k)
			}
		}
		slices.Sort(ks)
		t := Tunnel{Kind: TunnelKeywords, Keywords: ks, Overlap: math.Round(overlap*100) / 100}
		for _, i := range pair {
			t.Sides = append(t.Sides, Side{Wing: rooms[i].Wing, Room: rooms[i].Room, Drawers: rooms[i].Drawers})
		}
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b Tunnel) int {
		return cmp.Or(compareSide(a.Sides[0], b.Sides[0]), compareSide(a.Sides[1], b.Sides[1]))
	})
	return out
}

func compareSide(a, b Side) int {
	return cmp.Or(cmp.Compare(a.Wing, b.Wing), cmp.Compare(a.Room, b.Room))
}
