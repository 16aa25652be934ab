package route

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/store"
)

// tunnelRooms is three wings: auth and deploy shared by name, sessions
// and login sharing two of their three keywords each (overlap 0.5),
// billing and checkout sharing two of seven (too little), push sharing one
// keyword with auth, and docs and general in two wings, which join
// nothing by their name; the scripts of two wings are joined by their
// keywords instead.
var tunnelRooms = []store.RoomStat{
	{Wing: "web", Room: "auth", Keywords: []string{"oauth"}, Drawers: 2},
	{Wing: "api", Room: "auth", Keywords: []string{"login", "token", "jwt"}, Drawers: 3},
	{Wing: "mobile", Room: "auth", Drawers: 1},
	{Wing: "api", Room: "deploy", Drawers: 2},
	{Wing: "web", Room: "deploy", Drawers: 0},
	{Wing: "api", Room: "sessions", Keywords: []string{"cookie", "Session", "expiry"}, Drawers: 2},
	{Wing: "web", Room: "login", Keywords: []string{"session", "cookie", "form"}, Drawers: 1},
	{Wing: "api", Room: "billing", Keywords: []string{"invoice", "payment", "stripe", "refund"}, Drawers: 1},
	{Wing: "web", Room: "checkout", Keywords: []string{"invoice", "payment", "cart", "tax", "shipping"}, Drawers: 1},
	{Wing: "mobile", Room: "push", Keywords: []string{"notify", "token"}, Drawers: 1},
	{Wing: "api", Room: "docs", Drawers: 4},
	{Wing: "web", Room: "docs", Drawers: 4},
	{Wing: "api", Room: "general", Drawers: 5},
	{Wing: "web", Room: "general", Drawers: 5},
	{Wing: "api", Room: "scripts", Keywords: []string{"backup", "restore"}, Drawers: 1},
	{Wing: "web", Room: "scripts", Keywords: []string{"backup", "restore", "lint"}, Drawers: 1},
}

func TestTunnels(t *testing.T) {
	got, err := json.Marshal(Tunnels(tunnelRooms))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		`{"kind":"name","room":"auth","sides":[{"wing":"api","room":"auth","drawers":3},{"wing":"mobile","room":"auth","drawers":1},{"wing":"web","room":"auth","drawers":2}]}`,
		`{"kind":"name","room":"deploy","sides":[{"wing":"api","room":"deploy","drawers":2},{"wing":"web","room":"deploy","drawers":0}]}`,
		`{"kind":"keywords","keywords":["backup","restore"],"overlap":0.67,"sides":[{"wing":"api","room":"scripts","drawers":1},{"wing":"web","room":"scripts","drawers":1}]}`,
		`{"kind":"keywords","keywords":["cookie","session"],"overlap":0.5,"sides":[{"wing":"api","room":"sessions","drawers":2},{"wing":"web","room":"login","drawers":1}]}`,
	}, ",")
	if string(got) != "["+want+"]" {
		t.Errorf("Tunnels:\n got %s\nwant [%s]", got, want)
	}
	if ts := Tunnels(nil); ts != nil {
		t.Errorf("no rooms, want no tunnels: %+v", ts)
	}
}

func TestTunnelSides(t *testing.T) {
	auth := Tunnels(tunnelRooms)[0]
	if !auth.Touches("mobile") || auth.Touches("desktop") {
		t.Errorf("Touches: %+v", auth)
	}
	others, _ := json.Marshal(auth.Others("web", "auth"))
	if string(others) != `[{"wing":"api","room":"auth","drawers":3},{"wing":"mobile","room":"auth","drawers":1}]` {
		t.Errorf("Others(web, auth) = %s", others)
	}
	if o := auth.Others("web", "login"); o != nil {
		t.Errorf("Others of a room not in the tunnel = %+v, want nil", o)
	}
	if len(auth.Sides) != 3 {
		t.Errorf("Others changed the tunnel's sides: %+v", auth.Sides)
	}
}

// A route across tunnels pools the keywords of a name's rooms, so a query
// the rooms of one name tie on (Propose: ambiguous) routes to the name.
func TestAcross(t *testing.T) {
	st := openStore(t)
	seed(t, st) // auth in shop (login, password, token, session) and blog (oauth)
	ctx := context.Background()
	tests := []struct {
		name, query, wing, room string
		want                    Route
		reason                  string
	}{
		{name: "a given room is not routed", query: "anything", room: "auth",
			want: Route{}, reason: "the search names room auth; searching it in every wing (across)"},
		{name: "rooms of one name pool their keywords", query: "oauth login redirect",
			want:   Route{Wing: AnyWing, Room: "auth", Confidence: 0.8, Applied: true},
			reason: "query matches login, oauth of */auth; searching room auth of every wing"},
		{name: "the name itself, tied in two wings for Propose", query: "auth redirect",
			want: Route{Wing: AnyWing, Room: "auth", Confidence: 0.6, Applied: true}},
		{name: "a wing keeps its names, pooled keywords included", query: "oauth", wing: "shop",
			want: Route{Wing: AnyWing, Room: "auth", Confidence: 0.6, Applied: true}},
		{name: "a wing hides other wings' names", query: "publish a draft", wing: "shop",
			want: Route{}, reason: ReasonNoMatch},
		{name: "names still tie", query: "css colours",
			want: Route{}, reason: "ambiguous: */frontend, */theme each match 1 query word"},
		{name: "no match", query: "goroutine leak",
			want: Route{}, reason: ReasonNoMatch},
		{name: "too long", query: strings.Repeat("a", MaxQueryBytes+1),
			want: Route{}, reason: "not routed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Across(ctx, st, tc.query, tc.wing, tc.room)
			if err != nil {
				t.Fatal(err)
			}
			if got.Wing != tc.want.Wing || got.Room != tc.want.Room || got.Confidence != tc.want.Confidence || got.Applied != tc.want.Applied {
				t.Errorf("Across(%q, wing %q, room %q) = %+v, want %+v", tc.query, tc.wing, tc.room, got, tc.want)
			}
			if !strings.Contains(got.Reason, tc.reason) {
				t.Errorf("reason %q, want it to contain %q", got.Reason, tc.reason)
			}
		})
	}
}

// BenchmarkTunnels finds the tunnels of 50 wings of 40 rooms, each room
// with 8 keywords drawn from 2,000 words, and every room name in 5 wings:
// the rule's cost on a palace far larger than a person's.
func BenchmarkTunnels(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var rooms []store.RoomStat
	for w := range 50 {
		for r := range 40 {
			rs := store.RoomStat{Wing: fmt.Sprintf("wing%02d", w), Room: fmt.Sprintf("room%03d", (w/5)*40+r), Drawers: r}
			for range 8 {
				rs.Keywords = append(rs.Keywords, fmt.Sprintf("kw%04d", rng.IntN(2000)))
			}
			rooms = append(rooms, rs)
		}
	}
	b.ResetTimer()
	n := 0
	for range b.N {
		n = len(Tunnels(rooms))
	}
	b.ReportMetric(float64(n), "tunnels")
}
