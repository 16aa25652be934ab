package palace

import (
	"testing"

	"github.com/palace-dev/palace/core/store"
)

func TestDerivedIndexText(t *testing.T) {
	for _, c := range []struct {
		name string
		d    store.DrawerText
		want string
	}{
		{"file", store.DrawerText{Kind: store.KindFile, Source: "/r/core/store/search.go", Content: "func SearchFTS()"},
			"func SearchFTS()" + indexWordsSep + "search fts\ncore store search.go"},
		{"words of an earlier version replaced", store.DrawerText{Kind: store.KindFile, Source: "/r/a/b.go", Content: "x",
			Index: "x" + indexWordsSep + "stale words"}, "x" + indexWordsSep + "r a b.go"},
		{"note: no path words", store.DrawerText{Kind: store.KindNote, Source: "/r/a/b.go", Content: "plain note"}, ""},
		{"purged: nothing", store.DrawerText{Kind: store.KindFile, Source: "/r/a/b.go"}, ""},
		{"conversation keeps what mining added", store.DrawerText{Kind: store.KindConversation, Source: "c.jsonl",
			Content: "ask getUserID", Index: "ask getUserID\nbefore"}, "ask getUserID\nbefore" + indexWordsSep + "get user id"},
	} {
		if got := derivedIndexText(c.d); got != c.want {
			t.Errorf("%s: derivedIndexText = %q, want %q", c.name, got, c.want)
		}
	}
}
