package store

import (
	"context"
	"fmt"
	"testing"
)

// Neighbours are the live drawers of the same source and wing, nearest
// first on each side, never the drawer itself, another source's or another
// wing's copy of the same file.
func TestNeighbours(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	var ds []Drawer
	for i := range 8 {
		d := drawer("w", "/src/a.md", i, fmt.Sprintf("part %d", i))
		d.LineStart, d.LineEnd = 10*i+1, 10*i+9
		ds = append(ds, d)
	}
	other := drawer("w", "/src/a.md.bak", 0, "part 3")
	copyWing := drawer("x", "/src/a.md", 3, "part 3 elsewhere")
	copyWing.LineStart = 25
	if _, err := s.InsertDrawers(ctx, append(ds, other, copyWing)); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteDrawer(ctx, ds[5].ID); err != nil {
		t.Fatal(err)
	}
	lines := func(xs []Drawer) []int {
		out := []int{}
		for _, x := range xs {
			out = append(out, x.LineStart)
		}
		return out
	}
	before, after, err := s.Neighbours(ctx, ds[3], 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(lines(before), lines(after)); got != "[11 21] [41 61]" {
		t.Errorf("neighbours of line 31: %s, want [11 21] [41 61] (51 is deleted)", got)
	}
	before, after, err = s.Neighbours(ctx, ds[0], 5)
	if err != nil || len(before) != 0 || fmt.Sprint(lines(after)) != "[11 21 31 41 61]" {
		t.Errorf("neighbours of the first drawer: %v %v %v", lines(before), lines(after), err)
	}
	if before, after, err = s.Neighbours(ctx, ds[3], 0); before != nil || after != nil || err != nil {
		t.Errorf("no neighbours asked: %v %v %v", before, after, err)
	}
}
