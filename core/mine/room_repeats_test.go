package mine

import "testing"

func TestRoomRepeatsPath(t *testing.T) {
	cases := []struct {
		room, rel string
		want      bool
	}{
		{"core", "core/relevant/clues.go", true},
		{"server-lsp", "Server LSP/hover.go", true}, // the room is the folder's slug
		{"Docs", "docs/a.md", true},
		{"relevant", "core/relevant/clues.go", false}, // a room naming a deeper folder says something
		{"general", "main.go", false},                 // no folder to repeat
		{"core", "core", false},
		{"billing", "/abs/billing/x.go", false}, // not relative: nothing before the first '/'
	}
	for _, tc := range cases {
		if got := RoomRepeatsPath(tc.room, tc.rel); got != tc.want {
			t.Errorf("RoomRepeatsPath(%q, %q) = %v, want %v", tc.room, tc.rel, got, tc.want)
		}
	}
}
