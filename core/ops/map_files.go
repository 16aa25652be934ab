package ops

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/palace-dev/palace/core/lang"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// addFiles tells what the map's rooms of files hold: each wing's Root,
// the languages of its wings and rooms, and each room's Parts. A code
// palace mined from a flat repository files most of its drawers in one
// catch-all room; its parts (the files of the one folder) are what make
// its map say something.
func (res *MapResult) addFiles(ctx context.Context, p *palace.Palace, wing string) error {
	files, err := p.Store.MapFiles(ctx, wing)
	if err != nil {
		return fmt.Errorf("map: %w", err)
	}
	for len(files) > 0 {
		n := 1
		for n < len(files) && files[n].Wing == files[0].Wing {
			n++
		}
		if wi := slices.IndexFunc(res.Wings, func(w MapWing) bool { return w.Name == files[0].Wing }); wi >= 0 {
			res.Wings[wi].addFiles(files[:n])
		}
		files = files[n:]
	}
	return nil
}

// addFiles files one wing's files (sorted by room) under its rooms.
func (w *MapWing) addFiles(files []store.MapFile) {
	srcs := make([]string, len(files))
	for i, f := range files {
		srcs[i] = f.Source
	}
	w.Root = commonDir(srcs)
	for len(files) > 0 {
		n := 1
		for n < len(files) && files[n].Room == files[0].Room {
			n++
		}
		if ri := slices.IndexFunc(w.Rooms, func(r MapRoom) bool { return r.Name == files[0].Room }); ri >= 0 {
			r := &w.Rooms[ri]
			for _, f := range files[:n] {
				if l := lang.Of(f.Source); l != "" {
					w.countLang(l, f.Drawers)
					r.countLang(l, f.Drawers)
				}
			}
			r.Parts, r.Rest = parts(w.Root, files[:n])
		}
		files = files[n:]
	}
}

// countLang counts n drawers in language l.
func (m *MapCounts) countLang(l string, n int) {
	if m.Languages == nil {
		m.Languages = map[string]int{}
	}
	m.Languages[l] += n
}

// parts groups one room's files by folder, relative to root; when one
// folder holds more than half of the room's drawers, its files stand in
// its place. Biggest first (then by name), at most MapParts; rest is the
// drawers of the parts left out.
func parts(root string, files []store.MapFile) (out []MapPart, rest int) {
	type group struct {
		part  MapPart
		langs map[string]int
	}
	byName := map[string]*group{}
	add := func(name string, f store.MapFile) {
		g := byName[name]
		if g == nil {
			g = &group{part: MapPart{Name: name}, langs: map[string]int{}}
			byName[name] = g
		}
		g.part.Drawers += f.Drawers
		g.part.Files++
		if l := lang.Of(f.Source); l != "" {
			g.langs[l] += f.Drawers
		}
	}
	folder := func(f store.MapFile) string {
		if d := path.Dir(relTo(root, f.Source)); d != "." {
			return d + "/"
		}
		return "./"
	}
	total, inFolder := 0, map[string]int{}
	for _, f := range files {
		total += f.Drawers
		inFolder[folder(f)] += f.Drawers
	}
	for _, f := range files {
		if d := folder(f); 2*inFolder[d] > total {
			add(relTo(root, f.Source), f)
		} else {
			add(d, f)
		}
	}
	for _, g := range byName {
		g.part.Language = mostOf(g.langs)
		out = append(out, g.part)
	}
	slices.SortFunc(out, func(a, b MapPart) int {
		return cmp.Or(cmp.Compare(b.Drawers, a.Drawers), cmp.Compare(a.Name, b.Name))
	})
	if len(out) > MapParts {
		for _, p := range out[MapParts:] {
			rest += p.Drawers
		}
		out = out[:MapParts]
	}
	return out, rest
}

// mostOf is the key with the largest count (the first by name on a tie),
// "" for none.
func mostOf(m map[string]int) string {
	best, n := "", 0
	for k, c := range m {
		if c > n || c == n && k < best {
			best, n = k, c
		}
	}
	return best
}

// commonDir is the deepest folder holding every path in srcs ("" when
// they share none, or srcs is empty).
func commonDir(srcs []string) string {
	if len(srcs) == 0 {
		return ""
	}
	dir := path.Dir(srcs[0])
	for _, s := range srcs[1:] {
		for dir != "/" && dir != "." && !strings.HasPrefix(s, strings.TrimSuffix(dir, "/")+"/") {
			dir = path.Dir(dir)
		}
	}
	if dir == "." {
		return ""
	}
	return dir
}

// relTo is src relative to root, or src itself when root is "" or does
// not hold it.
func relTo(root, src string) string {
	if root == "" {
		return src
	}
	if root == "/" {
		return strings.TrimPrefix(src, "/")
	}
	if rel, ok := strings.CutPrefix(src, root+"/"); ok {
		return rel
	}
	return src
}
