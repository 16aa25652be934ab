package store

import (
	"context"
	"encoding/json"
	"testing"
)

// RoomStats joins the taxonomy and the drawers: a taxonomy room without
// drawers counts 0, a room only drawers name has no keywords, and a
// forgotten drawer is not counted.
func TestRoomStats(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if err := s.ReplaceTaxonomy(ctx, "api", []Room{
		{Room: "auth", Keywords: []string{"login", "token"}},
		{Room: "empty", Keywords: []string{"nothing"}},
	}); err != nil {
		t.Fatal(err)
	}
	var ds []Drawer
	for i, wr := range [][2]string{{"api", "auth"}, {"api", "auth"}, {"web", "auth"}, {"web", "misc"}} {
		text := "drawer " + string(rune('a'+i))
		h := ContentHash(text)
		ds = append(ds, Drawer{ID: DrawerID(wr[0], "n.md", i, h), Wing: wr[0], Room: wr[1], Kind: KindNote,
			Source: "n.md", Content: text, ContentHash: h})
	}
	if _, err := s.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteDrawer(ctx, ds[3].ID); err != nil {
		t.Fatal(err)
	}
	got, err := s.RoomStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	const want = `[{"wing":"api","room":"auth","keywords":["login","token"],"drawers":2},` +
		`{"wing":"api","room":"empty","keywords":["nothing"],"drawers":0},` +
		`{"wing":"web","room":"auth","keywords":[],"drawers":1}]`
	if string(b) != want {
		t.Errorf("RoomStats:\n got %s\nwant %s", b, want)
	}
}
