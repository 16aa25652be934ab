package ops

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

// A map lists up to Top drawers per room, most important first, their
// first non-blank line cut to mapLineRunes; with more rooms than
// MapTopBudget allows Top each, every room lists fewer, and at least one.
func TestMapTopBudget(t *testing.T) {
	p := palacetest.OpenPalace(t)
	ctx := context.Background()
	rooms := MapTopBudget/MapPageTop + 1 // one room too many for MapPageTop each
	var ds []store.Drawer
	when := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for r := range rooms {
		for i := range MapPageTop {
			content := fmt.Sprintf("\n\n  room %d drawer %d %s\nsecond line", r, i, strings.Repeat("x", 200))
			src := fmt.Sprintf("/src/r%03d/f%d.go", r, i)
			ds = append(ds, store.Drawer{ID: store.DrawerID("w", src, 0, store.ContentHash(content)), Wing: "w", Room: fmt.Sprintf("r%03d", r),
				Kind: store.KindFile, Source: src, LineStart: 1, LineEnd: 4, Content: content, ContentHash: store.ContentHash(content),
				CreatedAt: when, Importance: float64(i)})
		}
	}
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	m, err := Map(ctx, p, MapRequest{Top: MapPageTop})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Wings) != 1 || len(m.Wings[0].Rooms) != rooms {
		t.Fatalf("%d wings, want one of %d rooms", len(m.Wings), rooms)
	}
	listed := 0
	for _, r := range m.Wings[0].Rooms {
		listed += len(r.Top)
		if len(r.Top) != MapTopBudget/rooms {
			t.Fatalf("room %s lists %d drawers, want %d (the budget shared)", r.Name, len(r.Top), MapTopBudget/rooms)
		}
	}
	if listed > MapTopBudget {
		t.Errorf("%d drawers listed, over the budget of %d", listed, MapTopBudget)
	}
	first := m.Wings[0].Rooms[0].Top[0]
	if !strings.HasPrefix(first.Line, "room 0 drawer 4 xxx") || !strings.HasSuffix(first.Line, "…") || len([]rune(first.Line)) != mapLineRunes ||
		first.Citation != "r000/f4.go:1-4" {
		t.Errorf("first drawer of r000: %+v; want the important one, its first line cut to %d runes", first, mapLineRunes)
	}
	none, err := Map(ctx, p, MapRequest{})
	if err != nil || none.Wings[0].Rooms[0].Top != nil {
		t.Errorf("Top 0 lists drawers: %v %v", none.Wings[0].Rooms[0].Top, err)
	}
	if _, err := Map(ctx, p, MapRequest{Top: MaxMapTop + 1}); err == nil || !strings.Contains(err.Error(), "top") {
		t.Errorf("top over the limit: %v", err)
	}
}
