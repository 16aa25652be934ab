package search

import (
	"context"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

// routedPalace is issue #16's example: wing proxy has a room http keyed by
// "http" (as 'palace init' used to write it) whose files hold some of the
// query's words; the only file holding the whole sentence is in wing
// client, room net.
func routedPalace(t *testing.T) *palace.Palace {
	t.Helper()
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	if err := p.Store.ReplaceTaxonomy(ctx, "proxy", []store.Room{{Room: "http", Keywords: []string{"http"}}}); err != nil {
		t.Fatal(err)
	}
	if err := p.Store.ReplaceTaxonomy(ctx, "client", []store.Room{{Room: "net", Keywords: []string{"dial"}}}); err != nil {
		t.Fatal(err)
	}
	var ds []store.Drawer
	add := func(wing, room, src, text string) {
		h := store.ContentHash(text)
		ds = append(ds, store.Drawer{ID: store.DrawerID(wing, src, 0, h), Wing: wing, Room: room, Kind: store.KindFile,
			Source: src, LineStart: 1, LineEnd: 1, Content: text, ContentHash: h})
	}
	add("proxy", "http", "/proxy/http/server.go", "http server: serve HTTP on the listener, the server closes idle conns")
	add("proxy", "http", "/proxy/http/client.go", "http client: retries the request when the HTTP response is a 503")
	add("proxy", "http", "/proxy/http/header.go", "http header names are canonical in HTTP/1 and lower case in HTTP/2")
	add("client", "net", "/client/net/transport.go", `return errors.New("http: server gave HTTP response to HTTPS client")`)
	add("client", "net", "/client/net/dial.go", "dial the address with a timeout")
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	return p
}

const exactQuery = "http: server gave HTTP response to HTTPS client"

// A routed search that finds only partial matches in its room also
// searches everywhere: the one file holding the sentence, in another wing,
// comes first, and the route says it was widened (issue #16 item 4).
func TestRouteNeverHidesAnExactMatch(t *testing.T) {
	p := routedPalace(t)
	ctx := context.Background()
	res, err := Run(ctx, p, Request{Query: exactQuery})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].Source != "/client/net/transport.go" || res.Hits[0].Match != "all" {
		t.Fatalf("first hit %+v, want /client/net/transport.go holding every word", res.Hits)
	}
	if res.Route.Applied || res.Route.Room != "http" || !strings.Contains(res.Route.Reason, "no hit there holds every query word") {
		t.Errorf("route %+v, want the http route proposed, widened and said so", res.Route)
	}
	// The union: the room's partial matches are still there, below.
	var fromRoom int
	for _, h := range res.Hits {
		if h.Room == "http" {
			fromRoom++
		}
	}
	if fromRoom != 3 {
		t.Errorf("%d hits from proxy/http, want its 3 partial matches too: %+v", fromRoom, res.Hits)
	}
}

// Without a wing a route narrows to the room's name in every wing, never
// to the one wing whose keyword matched; a room holding every word keeps
// its route.
func TestRouteDoesNotConfineToOneWing(t *testing.T) {
	p := routedPalace(t)
	ctx := context.Background()
	text := "http client retries with backoff"
	h := store.ContentHash(text)
	if _, err := p.Store.InsertDrawers(ctx, []store.Drawer{{ID: store.DrawerID("client", "/c/http/r.go", 0, h), Wing: "client", Room: "http",
		Kind: store.KindFile, Source: "/c/http/r.go", LineStart: 1, LineEnd: 1, Content: text, ContentHash: h}}); err != nil {
		t.Fatal(err)
	}
	res, err := Run(ctx, p, Request{Query: "http client retries"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Route.Applied || res.Route.Wing != "proxy" || res.Route.Room != "http" {
		t.Fatalf("route %+v, want proxy/http applied", res.Route)
	}
	wings := map[string]bool{}
	for _, h := range res.Hits {
		if h.Room != "http" {
			t.Errorf("hit outside room http: %+v", h)
		}
		wings[h.Wing] = true
	}
	if !wings["client"] || !wings["proxy"] {
		t.Errorf("hits from wings %v, want room http of both proxy and client", wings)
	}
	if !strings.Contains(res.Route.Reason, "searching room http of every wing") {
		t.Errorf("route %q does not say it covered every wing", res.Route.Reason)
	}
	// Named, the wing is kept.
	res, err = Run(ctx, p, Request{Query: "http client retries", Filter: store.Filter{Wing: "proxy"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		if h.Wing != "proxy" {
			t.Errorf("--wing proxy gave a hit of wing %s", h.Wing)
		}
	}
}

// NoRoute searches exactly the filter and says routing was off.
func TestRouteOff(t *testing.T) {
	p := routedPalace(t)
	res, err := Run(context.Background(), p, Request{Query: "http header", NoRoute: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Route.Applied || res.Route.Room != "" || res.Route.Reason != "routing is off; searched everywhere" {
		t.Errorf("route %+v, want off", res.Route)
	}
	on, err := Run(context.Background(), p, Request{Query: "http header"})
	if err != nil {
		t.Fatal(err)
	}
	if !on.Route.Applied {
		t.Errorf("the same search routed: %+v, want applied (the room holds every word)", on.Route)
	}
}
