package mine

import (
	"strings"
	"unicode"

	"github.com/palace-dev/palace/core/store"
)

// DefaultRoom holds what no rule places elsewhere.
const DefaultRoom = "general"

// contentWindow is how much of a file keyword counting reads: the top of a
// file says what it is about, and counting further costs time on big trees.
const contentWindow = 2000

// router places a file in a room of its wing.
type router struct {
	rooms []store.Room
	// byName maps a room name or keyword to its room, for path matches.
	byName map[string]string
}

func newRouter(rooms []store.Room) *router {
	r := &router{rooms: rooms, byName: map[string]string{}}
	for _, rm := range rooms {
		r.byName[strings.ToLower(rm.Room)] = rm.Room
	}
	for _, rm := range rooms {
		for _, k := range rm.Keywords {
			if _, taken := r.byName[k]; !taken {
				r.byName[k] = rm.Room
			}
		}
	}
	return r
}

// route picks a room, first rule that applies:
//  1. a folder in the path, or the file's stem, names a room or a keyword;
//  2. the taxonomy keyword counted most often in the file's first 2000
//     characters;
//  3. the top-level folder the file is in;
//  4. general.
func (r *router) route(rel, content string) string {
	parts := strings.Split(rel, "/")
	stem := parts[len(parts)-1]
	if i := strings.IndexByte(stem, '.'); i > 0 {
		stem = stem[:i]
	}
	for _, p := range append(parts[:len(parts)-1:len(parts)-1], stem) {
		if room, ok := r.byName[strings.ToLower(p)]; ok {
			return room
		}
	}
	if len(r.rooms) > 0 {
		head := content
		if len(head) > contentWindow {
			head = head[:contentWindow]
		}
		counts := map[string]int{}
		for _, w := range strings.FieldsFunc(strings.ToLower(head), notWord) {
			for _, rm := range r.rooms {
				for _, k := range rm.Keywords {
					if w == k {
						counts[rm.Room]++
					}
				}
			}
		}
		best, bestN := "", 0
		for _, rm := range r.rooms { // rooms are sorted, so ties go to the first name
			if counts[rm.Room] > bestN {
				best, bestN = rm.Room, counts[rm.Room]
			}
		}
		if best != "" {
			return best
		}
	}
	if len(parts) > 1 && !strings.HasPrefix(parts[0], ".") {
		return Slug(parts[0])
	}
	return DefaultRoom
}

func notWord(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' }
