package ops

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/query"
)

func TestTaxonomyValidateNamesTheField(t *testing.T) {
	words := func(w ...string) *[]string { return &w }
	bad := "bad\x07name"
	for _, c := range []struct {
		name  string
		err   error
		field string
	}{
		{"blank wing", TaxonomySetRequest{Wing: " ", Room: "r"}.Validate(), "wing"},
		{"slash in room", TaxonomySetRequest{Wing: "w", Room: "a/b"}.Validate(), "room"},
		{"two-word keyword", TaxonomySetRequest{Wing: "w", Room: "r", Keywords: words("ok", "auth service")}.Validate(), "keywords"},
		{"long keyword", TaxonomySetRequest{Wing: "w", Room: "r", Keywords: words(strings.Repeat("k", MaxKeywordBytes+1))}.Validate(), "keywords"},
		{"display name", TaxonomySetRequest{Wing: "w", Room: "r", DisplayName: &bad}.Validate(), "display_name"},
		{"rm blank room", TaxonomyRmRequest{Wing: "w", Room: "  "}.Validate(), "room"},
		{"rm long wing", TaxonomyRmRequest{Wing: strings.Repeat("w", MaxNameBytes+1), Room: "r"}.Validate(), "wing"},
		{"route blank query", TaxonomyRouteRequest{Query: "\t"}.Validate(), "query"},
		{"route long query", TaxonomyRouteRequest{Query: strings.Repeat("q", MaxQueryRunes+1)}.Validate(), "query"},
		{"route many words", TaxonomyRouteRequest{Query: manyWords(query.MaxTerms + 1)}.Validate(), "query"},
	} {
		wantField(t, c.name, c.err, c.field)
	}
	// rm checks only what any stored room satisfies.
	if err := (TaxonomyRmRequest{Wing: "w", Room: "a/b"}).Validate(); err != nil {
		t.Errorf("rm of a room stored before names were checked: %v", err)
	}
}

func TestTaxonomyOps(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	kw := func(w ...string) *[]string { return &w }
	name := "Billing"
	ch, err := TaxonomySet(ctx, p, TaxonomySetRequest{Wing: "shop", Room: "billing", Keywords: kw("Invoice", "payment", "invoice"), DisplayName: &name})
	if err != nil || ch.Action != RoomAdded || strings.Join(ch.Room.Keywords, ",") != "invoice,payment" || ch.Room.DisplayName != "Billing" {
		t.Fatalf("set: %+v, %v", ch, err)
	}
	// A field not given keeps its value; an empty list clears keywords.
	if ch, err = TaxonomySet(ctx, p, TaxonomySetRequest{Wing: "shop", Room: "billing", Keywords: kw()}); err != nil ||
		ch.Action != RoomUpdated || len(ch.Room.Keywords) != 0 || ch.Room.Keywords == nil || ch.Room.DisplayName != "Billing" {
		t.Errorf("update: %+v, %v", ch, err)
	}
	if _, err := TaxonomySet(ctx, p, TaxonomySetRequest{Wing: "shop", Room: "auth", Keywords: kw("login", "token")}); err != nil {
		t.Fatal(err)
	}

	l, err := TaxonomyList(ctx, p, TaxonomyListRequest{Wing: "shop"})
	if err != nil || len(l.Rooms) != 2 || l.Rooms[0].Room != "auth" {
		t.Errorf("list: %+v, %v", l, err)
	}
	if _, err := TaxonomyList(ctx, p, TaxonomyListRequest{Wing: "shpo"}); Classify(err) != Invalid || !strings.Contains(err.Error(), "(wings: shop)") {
		t.Errorf("list of an unknown wing: %v, want invalid listing the wings", err)
	}

	r, err := TaxonomyRoute(ctx, p, TaxonomyRouteRequest{Query: "refresh the login token"})
	if err != nil || r.Wing != "shop" || r.Room != "auth" || !r.Applied {
		t.Errorf("route: %+v, %v", r, err)
	}
	if _, err := TaxonomyRoute(ctx, p, TaxonomyRouteRequest{Query: "login", Wing: "blog"}); Classify(err) != Invalid {
		t.Errorf("route in an unknown wing: %v, want invalid", err)
	}

	if ch, err = TaxonomyRm(ctx, p, TaxonomyRmRequest{Wing: "shop", Room: "auth"}); err != nil || ch.Action != RoomRemoved {
		t.Errorf("rm: %+v, %v", ch, err)
	}
	_, err = TaxonomyRm(ctx, p, TaxonomyRmRequest{Wing: "shop", Room: "auth"})
	if Classify(err) != NotFound || err.Error() != `room "auth": not found in the taxonomy of wing "shop" (nothing removed)` {
		t.Errorf("second rm: %v (class %s), want not found", err, Classify(err))
	}
}

// With Dir the project's palace.yaml changes too; without it, a
// palace.yaml in one of the caller's folders is named in the warning.
func TestTaxonomyProjectFile(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	proj := t.TempDir()
	if err := os.WriteFile(filepath.Join(proj, mine.ConfigName), []byte("wing: shop\nrooms:\n  - name: billing\n    keywords: [invoice]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	kw := []string{"login"}
	ch, err := TaxonomySet(ctx, p, TaxonomySetRequest{Wing: "shop", Room: "auth", Keywords: &kw, Folders: []string{t.TempDir(), proj}})
	if err != nil || !strings.Contains(ch.Warning, filepath.Join(proj, mine.ConfigName)+" lists the rooms of wing shop") || !strings.Contains(ch.Warning, "--dir "+proj) {
		t.Errorf("set without Dir: %+v, %v; want a warning naming %s", ch, err, proj)
	}
	ch, err = TaxonomySet(ctx, p, TaxonomySetRequest{Wing: "shop", Room: "search", Dir: proj})
	if err != nil || ch.PalaceYAML != filepath.Join(proj, mine.ConfigName) || strings.Join(ch.Dropped, ",") != "auth" || ch.Warning != "" {
		t.Errorf("set with Dir: %+v, %v", ch, err)
	}
	cfg, err := mine.LoadConfig(proj)
	if err != nil || len(cfg.Rooms) != 2 || cfg.Rooms[1].Room != "search" {
		t.Errorf("palace.yaml after set: %+v, %v", cfg, err)
	}
	if ch, err = TaxonomyRm(ctx, p, TaxonomyRmRequest{Wing: "shop", Room: "billing", Dir: proj}); err != nil || ch.Room.Room != "billing" {
		t.Errorf("rm with Dir: %+v, %v", ch, err)
	}
	if l, err := TaxonomyList(ctx, p, TaxonomyListRequest{Wing: "shop"}); err != nil || len(l.Rooms) != 1 || l.Rooms[0].Room != "search" {
		t.Errorf("table after rm with Dir: %+v, %v", l, err)
	}
	if _, err := TaxonomySet(ctx, p, TaxonomySetRequest{Wing: "blog", Room: "x", Dir: proj}); Classify(err) != Invalid || !strings.Contains(err.Error(), "for wing \"shop\"") {
		t.Errorf("Dir of another wing: %v, want invalid", err)
	}
	if _, err := TaxonomyRm(ctx, p, TaxonomyRmRequest{Wing: "shop", Room: "x", Dir: t.TempDir()}); Classify(err) != Invalid {
		t.Errorf("Dir without palace.yaml: %v, want invalid", err)
	}
}
