package ops

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

// tunnelPalace: auth in three wings, api/sessions and web/login sharing
// keywords, and the miner's catch-all room in two wings. Every drawer
// mentions a token, so a search for it without a room finds them all.
func tunnelPalace(t *testing.T) *palace.Palace {
	t.Helper()
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	for wing, rooms := range map[string][]store.Room{
		"api": {{Room: "auth", Keywords: []string{"login", "jwt"}}, {Room: "sessions", Keywords: []string{"cookie", "session"}}},
		"web": {{Room: "auth"}, {Room: "login", Keywords: []string{"session", "cookie"}}},
	} {
		if err := p.Store.ReplaceTaxonomy(ctx, wing, rooms); err != nil {
			t.Fatal(err)
		}
	}
	var ds []store.Drawer
	for i, n := range [][3]string{
		{"api", "auth", "the api signs the token"},
		{"web", "auth", "the web app keeps the token in memory"},
		{"mobile", "auth", "the mobile app keeps the token in the keychain"},
		{"api", "sessions", "a session outlives its token"},
		{"web", "login", "the login form sends the token"},
		{"api", mine.DefaultRoom, "a token note nobody filed"},
		{"web", mine.DefaultRoom, "another token note"},
	} {
		h := store.ContentHash(n[2])
		ds = append(ds, store.Drawer{ID: store.DrawerID(n[0], n[1], i, h), Wing: n[0], Room: n[1], Kind: store.KindNote,
			Source: n[1] + ".md", Content: n[2], ContentHash: h})
	}
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTunnelsOp(t *testing.T) {
	ctx := context.Background()
	p := tunnelPalace(t)
	all, err := Tunnels(ctx, p, TunnelsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(all)
	const want = `{"tunnels":[` +
		`{"kind":"name","room":"auth","sides":[{"wing":"api","room":"auth","drawers":1},{"wing":"mobile","room":"auth","drawers":1},{"wing":"web","room":"auth","drawers":1}]},` +
		`{"kind":"keywords","keywords":["cookie","session"],"overlap":1,"sides":[{"wing":"api","room":"sessions","drawers":1},{"wing":"web","room":"login","drawers":1}]}]}`
	if string(b) != want {
		t.Errorf("Tunnels:\n got %s\nwant %s", b, want)
	}
	mobile, err := Tunnels(ctx, p, TunnelsRequest{Wing: "mobile"})
	if err != nil || len(mobile.Tunnels) != 1 || mobile.Tunnels[0].Room != "auth" || len(mobile.Tunnels[0].Sides) != 3 {
		t.Errorf("mobile's tunnels: %+v %v", mobile, err)
	}
	_, err = Tunnels(ctx, p, TunnelsRequest{Wing: "desktop"})
	wantField(t, "unknown wing", err, "wing")
	empty, err := Tunnels(ctx, palacetest.OpenPalace(t), TunnelsRequest{})
	if err != nil || empty.Tunnels == nil || len(empty.Tunnels) != 0 {
		t.Errorf("an empty palace: %+v %v, want an empty list", empty, err)
	}
}

// places lists a result's hits as wing/room, sorted.
func places(res SearchResult) []string {
	var out []string
	for _, h := range res.Hits {
		out = append(out, h.Wing+"/"+h.Room)
	}
	slices.Sort(out)
	return out
}

func TestSearchAcross(t *testing.T) {
	ctx := context.Background()
	p := tunnelPalace(t)
	everyAuth := "api/auth mobile/auth web/auth"
	for _, c := range []struct {
		name   string
		req    SearchRequest
		want   string // places(), space-separated
		reason string // in the route's reason
	}{
		{"the room of one wing", SearchRequest{Query: "token", Wing: "api", Room: "auth"}, "api/auth", ""},
		{"across: that room in every wing", SearchRequest{Query: "token", Wing: "api", Room: "auth", Across: true}, everyAuth,
			"the search names room auth; searching it in every wing (across)"},
		{"across without a wing", SearchRequest{Query: "token", Room: "auth", Across: true}, everyAuth, ""},
		{"across a routed room", SearchRequest{Query: "jwt token", Across: true}, everyAuth,
			"query matches jwt of */auth; searching room auth of every wing"},
		{"across a room routed among a wing's names", SearchRequest{Query: "jwt token", Wing: "web", Across: true}, everyAuth, ""},
		{"across by file", SearchRequest{Query: "token", Room: "auth", Across: true, By: ByFile}, everyAuth, ""},
	} {
		res, err := Search(ctx, p, c.req)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := strings.Join(places(res), " "); got != c.want {
			t.Errorf("%s: hits in %s, want %s", c.name, got, c.want)
		}
		if !strings.Contains(res.Route.Reason, c.reason) {
			t.Errorf("%s: route %q, want it to say %q", c.name, res.Route.Reason, c.reason)
		}
	}
	bad := SearchRequest{Query: "token", Across: true, Route: RouteOff}
	wantField(t, "across, route off, no room", bad.Validate(), "across")
	_, err := Search(ctx, p, bad)
	wantField(t, "across, route off, no room (Search)", err, "across")
	_, err = Search(ctx, p, SearchRequest{Query: "token", Across: true})
	wantField(t, "across, a query routing to no room", err, "across")
	if err == nil || !strings.Contains(err.Error(), "no taxonomy keyword in the query") {
		t.Errorf("the error should say why the query routes nowhere: %v", err)
	}
	_, err = Search(ctx, p, SearchRequest{Query: "token", Room: "auth", Wing: "desktop", Across: true})
	wantField(t, "across from an unknown wing", err, "wing")
}
