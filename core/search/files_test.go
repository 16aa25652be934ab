package search

import (
	"reflect"
	"testing"

	"github.com/palace-dev/palace/core/store"
)

// CollapseFiles keeps the rank of each file's best drawer, lists its
// matched drawers in line order with their ranks, merges the wings that
// also hold them, keeps other kinds one row per drawer, and counts the
// limit in rows (issue #17).
func TestCollapseFiles(t *testing.T) {
	hs := []Hit{
		{ID: "a2", Kind: store.KindFile, Wing: "w", Source: "/a.go", LineStart: 40, LineEnd: 60, Score: 9},
		{ID: "n", Kind: store.KindNote, Wing: "w", Source: "note", Score: 8},
		{ID: "b", Kind: store.KindFile, Wing: "w", Source: "/b.go", LineStart: 1, LineEnd: 9, Score: 7},
		{ID: "a1", Kind: store.KindFile, Wing: "w", Source: "/a.go", LineStart: 1, LineEnd: 20, Score: 6, AlsoIn: []string{"x"}},
		{ID: "a-other-wing", Kind: store.KindFile, Wing: "v", Source: "/a.go", LineStart: 1, LineEnd: 20, Score: 5},
		{ID: "c", Kind: store.KindConversation, Wing: "w", Source: "/chat.jsonl", Score: 4},
	}
	got := CollapseFiles(hs, 3)
	var ids []string
	for _, h := range got {
		ids = append(ids, h.ID)
	}
	if want := []string{"a2", "n", "b"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("rows %v, want %v", ids, want)
	}
	want := []Range{{ID: "a1", LineStart: 1, LineEnd: 20, Rank: 4, Score: 6}, {ID: "a2", LineStart: 40, LineEnd: 60, Rank: 1, Score: 9}}
	if a := got[0]; !reflect.DeepEqual(a.Ranges, want) || !reflect.DeepEqual(a.AlsoIn, []string{"x"}) || a.Score != 9 {
		t.Errorf("a.go: ranges %+v also_in %v score %v", a.Ranges, a.AlsoIn, a.Score)
	}
	if got[1].Ranges != nil {
		t.Errorf("a note has no ranges: %+v", got[1].Ranges)
	}
	if all := CollapseFiles(hs, 10); len(all) != 5 || all[3].Wing != "v" || all[4].ID != "c" {
		t.Errorf("a file in another wing is its own row, a conversation drawer too: %+v", all)
	}
	if none := CollapseFiles(nil, 10); none == nil || len(none) != 0 {
		t.Errorf("no hits: %#v, want an empty list", none)
	}
}
