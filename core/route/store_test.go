package route

import (
	"context"
	"fmt"
	"testing"

	"github.com/palace-dev/palace/core/store"
)

func TestStoreTaxonomyEdits(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	if rooms, err := s.AllTaxonomy(ctx); err != nil || len(rooms) != 0 {
		t.Fatalf("empty palace: %v, %v", rooms, err)
	}
	if err := s.ReplaceTaxonomy(ctx, "shop", []store.Room{{Room: "billing", Keywords: []string{"invoice"}}}); err != nil {
		t.Fatal(err)
	}
	for _, r := range []store.Room{
		{Wing: "blog", Room: "posts", DisplayName: "Posts", Keywords: []string{"draft"}},
		{Wing: "shop", Room: "auth"}, // nil keywords are stored as []
		{Wing: "shop", Room: "billing", DisplayName: "Billing", Keywords: []string{"invoice", "stripe"}},
	} {
		if err := s.SetRoom(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	rooms, err := s.AllTaxonomy(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := "[{blog posts Posts [draft]} {shop auth  []} {shop billing Billing [invoice stripe]}]"
	if got := fmt.Sprint(rooms); got != want {
		t.Errorf("AllTaxonomy = %s, want %s", got, want)
	}
	if rooms[1].Keywords == nil {
		t.Error("keywords of a room without any should be [], not nil")
	}

	removed, err := s.RemoveRoom(ctx, "shop", "auth")
	if err != nil || !removed {
		t.Fatalf("RemoveRoom(shop, auth) = %v, %v", removed, err)
	}
	if removed, err = s.RemoveRoom(ctx, "shop", "auth"); err != nil || removed {
		t.Fatalf("second RemoveRoom(shop, auth) = %v, %v; want false, nil", removed, err)
	}
	if removed, err = s.RemoveRoom(ctx, "blog", "billing"); err != nil || removed {
		t.Fatalf("RemoveRoom of another wing's room = %v, %v", removed, err)
	}
	shop, err := s.Taxonomy(ctx, "shop")
	if err != nil || fmt.Sprint(shop) != "[{shop billing Billing [invoice stripe]}]" {
		t.Errorf("Taxonomy(shop) = %v, %v", shop, err)
	}
}

func TestStoreSourceSample(t *testing.T) {
	s := openStore(t)
	ctx := context.Background()
	if p, err := s.SourceSample(ctx, "shop", store.KindFile); err != nil || p != "" {
		t.Fatalf("no sources: %q, %v", p, err)
	}
	var batch []store.SourceUpdate
	for _, p := range []string{"/proj/src/b.go", "/proj/README.md", "/proj/src/a.go"} {
		batch = append(batch, store.SourceUpdate{Source: store.Source{Wing: "shop", Path: p, Kind: store.KindFile, ContentHash: "h"}})
	}
	batch = append(batch, store.SourceUpdate{Source: store.Source{Wing: "shop", Path: "/chats/a.jsonl", Kind: store.KindConversation, ContentHash: "h"}})
	if _, err := s.ApplySources(ctx, batch); err != nil {
		t.Fatal(err)
	}
	if p, err := s.SourceSample(ctx, "shop", store.KindFile); err != nil || p != "/proj/README.md" {
		t.Errorf("SourceSample = %q, %v; want /proj/README.md", p, err)
	}
	if p, err := s.SourceSample(ctx, "blog", store.KindFile); err != nil || p != "" {
		t.Errorf("SourceSample of another wing = %q, %v", p, err)
	}
}
