package ops

import (
	"context"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace/palacetest"
)

// A search made in a project's session without a wing answers with the
// project's hits first when one holds every query word, then the rest of
// the palace; when the project holds no complete match the palace's order
// stands; a wing named, or an unknown project wing, changes nothing.
func TestSearchPrefersTheSessionWing(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	for _, n := range []RememberRequest{
		{Wing: "batch-jobs", Text: "jobs: the reindex job timeout is 30m and it retries twice at night"},
		{Wing: "batch-jobs", Text: "jobs: the export job timeout is 10m, timeout errors page the on-call"},
		{Wing: "edge-proxy", Text: "proxy timeout: upstream requests give up after 5s"},
		{Wing: "edge-proxy", Text: "the proxy keeps idle connections for 90s"},
	} {
		n.Force, n.Importance = true, 3
		if _, err := Remember(ctx, p, n); err != nil {
			t.Fatal(err)
		}
	}
	first := func(r SearchRequest) (string, string) {
		t.Helper()
		r.Route = RouteOff
		res, err := Search(ctx, p, r)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 {
			t.Fatalf("%+v: no hits", r)
		}
		return res.Hits[0].Wing, res.Hits[0].Why
	}
	all, _ := first(SearchRequest{Query: "timeout"})
	other := "edge-proxy"
	if all == other {
		other = "batch-jobs"
	}
	if w, why := first(SearchRequest{Query: "timeout", DefaultWing: other}); w != other || !strings.Contains(why, "project wing") {
		t.Errorf("session in %s: first hit from %s (why %q), want its own", other, w, why)
	}
	res, err := Search(ctx, p, SearchRequest{Query: "timeout", DefaultWing: other, Route: RouteOff})
	if err != nil {
		t.Fatal(err)
	}
	wings := map[string]bool{}
	for _, h := range res.Hits {
		wings[h.Wing] = true
	}
	if !wings["edge-proxy"] || !wings["batch-jobs"] {
		t.Errorf("the other project's hits are gone: %v", wings)
	}
	if w, _ := first(SearchRequest{Query: "idle connections", DefaultWing: "batch-jobs"}); w != "edge-proxy" {
		t.Errorf("no complete match in the session's wing: first hit from %s, want the palace's order", w)
	}
	if w, _ := first(SearchRequest{Query: "timeout", Wing: all, DefaultWing: other}); w != all {
		t.Errorf("a wing named: first hit from %s, want %s", w, all)
	}
	if w, _ := first(SearchRequest{Query: "timeout", DefaultWing: "no-such-project"}); w != all {
		t.Errorf("an unknown session wing: first hit from %s, want the palace's order (%s)", w, all)
	}
}
