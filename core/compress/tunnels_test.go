package compress

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/palace-dev/palace/aaak"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

var update = flag.Bool("update", false, "rewrite the .want files of testdata (tunnels and kgtimeline)")

// tunnelPalace holds three wings sharing the room auth, api/sessions and
// web/login sharing two of their three keywords, and api/billing, which
// joins nothing.
func tunnelPalace(t *testing.T) *palace.Palace {
	t.Helper()
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	for wing, rooms := range map[string][]store.Room{
		"api": {{Room: "auth", Keywords: []string{"login", "token"}}, {Room: "sessions", Keywords: []string{"cookie", "session", "expiry"}},
			{Room: "billing", Keywords: []string{"invoice"}}},
		"web":    {{Room: "auth"}, {Room: "login", Keywords: []string{"session", "cookie", "form"}}},
		"mobile": {{Room: "auth"}},
	} {
		if err := p.Store.ReplaceTaxonomy(ctx, wing, rooms); err != nil {
			t.Fatal(err)
		}
	}
	notes := []struct{ wing, room, text string }{
		{"api", "auth", "The api signs a token at login and checks it on every request."},
		{"api", "auth", "Tokens expire after one hour; the refresh endpoint issues a new one."},
		{"api", "sessions", "Session cookies are kept in Redis until their expiry."},
		{"api", "billing", "Invoices are sent on the first day of the month."},
		{"web", "auth", "The web app keeps the token in memory, never in local storage."},
		{"web", "login", "The login form posts to the api and sets the session cookie."},
		{"mobile", "auth", "The mobile app stores the token in the keychain."},
	}
	var ds []store.Drawer
	for i, n := range notes {
		h := store.ContentHash(n.text)
		ds = append(ds, store.Drawer{ID: store.DrawerID(n.wing, n.room, i, h), Wing: n.wing, Room: n.room,
			Kind: store.KindNote, Source: n.room + ".md", Content: n.text, ContentHash: h, Importance: 3,
			OccurredAt: time.Date(2026, 3, 1, 9, i, 0, 0, time.UTC)})
	}
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	return p
}

// A room's document ends in a T: line per room a tunnel leads to
// (testdata/tunnels.want.aaak states them); a room without tunnels has
// none; the stream still reads back as it was printed.
func TestTunnelLines(t *testing.T) {
	p := tunnelPalace(t)
	docs, err := Run(context.Background(), p, Request{Filter: store.Filter{Wing: "api"}})
	if err != nil {
		t.Fatal(err)
	}
	got := Stream(docs)
	path := filepath.Join("testdata", "tunnels.want.aaak")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("palace compress --wing api:\n--- got\n%s\n--- want (%s)\n%s", got, path, want)
	}
	parsed, err := aaak.ParseStream(got)
	if err != nil {
		t.Fatalf("the stream does not parse: %v", err)
	}
	if again := aaak.PrintStream(parsed); again != got {
		t.Errorf("the stream does not print back as it was:\n%s", again)
	}
	for i, d := range parsed {
		if err := aaak.Validate(d); err != nil {
			t.Errorf("document %d: %v", i, err)
		}
		if docs[i].Tokens != aaak.CountTokens(docs[i].AAAK) {
			t.Errorf("%s/%s: %d tokens reported, the document has %d", docs[i].Wing, docs[i].Room, docs[i].Tokens, aaak.CountTokens(docs[i].AAAK))
		}
	}
}
