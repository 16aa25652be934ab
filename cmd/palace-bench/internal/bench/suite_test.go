package bench

import (
	"context"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/search"
)

func TestCheckGroups(t *testing.T) {
	if err := CheckGroups(nil); err != nil {
		t.Errorf("no groups: %v", err)
	}
	if err := CheckGroups(SuiteGroups()); err != nil {
		t.Errorf("every group: %v", err)
	}
	err := CheckGroups([]string{GroupMine, "bogus", "other"})
	if err == nil || !strings.Contains(err.Error(), `"bogus"`) || !strings.Contains(err.Error(), GroupEmbed) {
		t.Errorf("an unknown group: %v, want it named with the valid ones", err)
	}
}

// Searches times every query once (after its untimed pass) with the
// request given, and counts the queries that found something.
func TestSearches(t *testing.T) {
	ctx := context.Background()
	p, err := palace.Open(t.TempDir(), palace.Options{Embed: &embed.Config{Backend: embed.BackendNone}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	g := newSynth(VectorsOptions{Dim: 8, Wings: 2, Seed: 7})
	if err := g.insert(ctx, p.Store, 0, 40); err != nil {
		t.Fatal(err)
	}
	// A word of each of three drawers, and one found nowhere.
	var qs []string
	for i := range 3 {
		qs = append(qs, strings.Fields(g.drawer(i).Content)[0])
	}
	qs = append(qs, "qqqxqqq")
	for _, req := range []search.Request{{}, {Mode: search.ModeLexical, Limit: 2}} {
		l, withHits, err := Searches(ctx, p, qs, req)
		if err != nil {
			t.Fatal(err)
		}
		if l.Queries != 4 || withHits != 3 || l.Hits < 3 || l.P50 <= 0 {
			t.Errorf("request %+v: %+v, %d with hits; want 4 queries, 3 with hits", req, l, withHits)
		}
		if req.Limit > 0 && l.Hits > req.Limit*withHits {
			t.Errorf("request %+v: %d hits, more than the limit allows", req, l.Hits)
		}
	}
}
