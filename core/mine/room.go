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
	// byKeyword maps a keyword to every room that lists it.
	byKeyword map[string][]string
}

func newRouter(rooms []store.Room) *router {
	r := &router{rooms: rooms, byName: map[string]string{}, byKeyword: map[string][]string{}}
	for _, rm := range rooms {
		r.byName[strings.ToLower(rm.Room)] = rm.Room
	}
	for _, rm := range rooms {
		for _, k := range rm.Keywords {
			if _, taken := r.byName[k]; !taken {
				r.byName[k] = rm.Room
			}
			r.byKeyword[k] = append(r.byKeyword[k], rm.Room)
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
	if room := r.byKeywords(content); room != "" {
		return room
	}
	if len(parts) > 1 && !strings.HasPrefix(parts[0], ".") {
		return Slug(parts[0])
	}
	return DefaultRoom
}

// RoomRepeatsPath reports whether room only repeats the first folder of
// rel (a path relative to the mined folder, '/'-separated), as rule 3 of
// route names it: a list showing both would say "core · core/relevant/x.go".
// A file at the top has no folder to repeat.
func RoomRepeatsPath(room, rel string) bool {
	first, _, ok := strings.Cut(rel, "/")
	if !ok || first == "" {
		return false
	}
	return room == Slug(first) || strings.EqualFold(room, first)
}

// topicRooms place conversations no taxonomy keyword claims, by the kind of
// talk they hold: the topic with the most hits (at least two) wins, ties
// going to the earlier one.
var topicRooms = []struct {
	room  string
	words []string
}{
	{"decisions", []string{"decided", "decide", "decision", "chose", "choose", "agreed", "settled", "决定", "选择"}},
	{"problems", []string{"bug", "error", "fails", "failing", "broken", "crash", "panic", "fix", "issue", "问题", "错误", "修复"}},
	{"planning", []string{"plan", "roadmap", "todo", "next", "milestone", "schedule", "deadline", "计划", "安排"}},
	{"architecture", []string{"architecture", "design", "module", "interface", "layer", "schema", "架构", "设计"}},
}

// byKeywords returns the room whose taxonomy keywords occur most often in
// the first contentWindow characters of text, or "".
func (r *router) byKeywords(text string) string {
	if len(r.rooms) == 0 {
		return ""
	}
	if len(text) > contentWindow {
		text = text[:contentWindow]
	}
	counts := map[string]int{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), notWord) {
		for _, room := range r.byKeyword[w] {
			counts[room]++
		}
	}
	best, bestN := "", 0
	for _, rm := range r.rooms { // rooms are sorted, so ties go to the first name
		if counts[rm.Room] > bestN {
			best, bestN = rm.Room, counts[rm.Room]
		}
	}
	return best
}

// routeConversation places a conversation: a taxonomy room by keyword
// count, else a topic room, else conversations.
func (r *router) routeConversation(text string) string {
	if room := r.byKeywords(text); room != "" {
		return room
	}
	words := strings.FieldsFunc(strings.ToLower(text), notWord)
	best, bestN := "", 1
	for _, t := range topicRooms {
		n := 0
		for _, w := range words {
			for _, k := range t.words {
				if w == k || (k[0] >= 0x80 && strings.Contains(w, k)) {
					n++
				}
			}
		}
		if n > bestN {
			best, bestN = t.room, n
		}
	}
	if best != "" {
		return best
	}
	return "conversations"
}

func notWord(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' }
