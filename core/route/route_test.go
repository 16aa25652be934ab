package route

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/store"
)

func openStore(t testing.TB) *store.Store {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// seed writes a taxonomy of two wings through the store, as mine and
// 'palace taxonomy set' do.
func seed(t testing.TB, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	if err := st.ReplaceTaxonomy(ctx, "shop", []store.Room{
		{Room: "auth", Keywords: []string{"login", "password", "token", "session"}},
		{Room: "billing", Keywords: []string{"invoice", "payment", "stripe"}},
		{Room: "frontend", Keywords: []string{"react", "css", "component"}},
		{Room: "架构", Keywords: []string{"认证"}},
	}); err != nil {
		t.Fatal(err)
	}
	if err := st.ReplaceTaxonomy(ctx, "blog", []store.Room{
		{Room: "posts", Keywords: []string{"draft", "publish", "markdown"}},
		{Room: "theme", Keywords: []string{"css", "layout", "font"}},
		{Room: "auth", Keywords: []string{"oauth"}},
	}); err != nil {
		t.Fatal(err)
	}
}

func TestPropose(t *testing.T) {
	st := openStore(t)
	seed(t, st)
	tests := []struct {
		name, query, wing string
		want              Route
		reason            string // substring of the reason
	}{
		{name: "one keyword", query: "where is the invoice template",
			want: Route{Wing: "shop", Room: "billing", Confidence: 0.6, Applied: true}, reason: "invoice"},
		{name: "two keywords", query: "how do we refresh the session token",
			want: Route{Wing: "shop", Room: "auth", Confidence: 0.8, Applied: true}, reason: "session, token"},
		{name: "three keywords", query: "login fails: password ok but TOKEN expired",
			want: Route{Wing: "shop", Room: "auth", Confidence: 1, Applied: true}, reason: "login, password, token"},
		{name: "four keywords cap at 1.0", query: "login password token session",
			want: Route{Wing: "shop", Room: "auth", Confidence: 1, Applied: true}},
		{name: "room name counts as a keyword", query: "billing and stripe webhooks",
			want: Route{Wing: "shop", Room: "billing", Confidence: 0.8, Applied: true}, reason: "billing, stripe"},
		{name: "repeated word counts once", query: "invoice invoice invoice",
			want: Route{Wing: "shop", Room: "billing", Confidence: 0.6, Applied: true}},
		{name: "most matches wins over a tie below it", query: "css component for the layout of react",
			want: Route{Wing: "shop", Room: "frontend", Confidence: 1, Applied: true}},
		{name: "ambiguous across wings", query: "css colours",
			want: Route{}, reason: "ambiguous: blog/theme, shop/frontend each match 1 query word"},
		{name: "ambiguous same room name in two wings", query: "auth redirect",
			want: Route{}, reason: "blog/auth, shop/auth"},
		{name: "no match", query: "goroutine leak in the scheduler",
			want: Route{}, reason: ReasonNoMatch},
		{name: "stop words only", query: "the and of",
			want: Route{}, reason: ReasonNoMatch},
		{name: "empty query", query: "",
			want: Route{}, reason: ReasonNoMatch},
		{name: "substring of a word is not a match", query: "tokens invoices",
			want: Route{}, reason: ReasonNoMatch},
		{name: "excluded word does not route", query: "refund -invoice",
			want: Route{}, reason: ReasonNoMatch},
		{name: "phrase words count", query: `"publish a draft"`,
			want: Route{Wing: "blog", Room: "posts", Confidence: 0.8, Applied: true}},
		{name: "punctuation around words", query: "(invoice)?",
			want: Route{Wing: "shop", Room: "billing", Confidence: 0.6, Applied: true}},
		{name: "wing restriction resolves a tie", query: "css colours", wing: "blog",
			want: Route{Wing: "blog", Room: "theme", Confidence: 0.6, Applied: true}},
		{name: "wing restriction hides other wings", query: "invoice", wing: "blog",
			want: Route{}, reason: ReasonNoMatch},
		{name: "unknown wing", query: "invoice", wing: "nope",
			want: Route{}, reason: ReasonNoMatch},
		{name: "CJK keyword inside an unsegmented query", query: "认证模块怎么设计",
			want: Route{Wing: "shop", Room: "架构", Confidence: 0.6, Applied: true}},
		{name: "invalid UTF-8", query: "invoice \xff\xfe payment",
			want: Route{Wing: "shop", Room: "billing", Confidence: 0.8, Applied: true}},
		{name: "control characters", query: "invoice\x00\x1bpayment",
			want: Route{Wing: "shop", Room: "billing", Confidence: 0.8, Applied: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Propose(context.Background(), st, tc.query, tc.wing)
			if err != nil {
				t.Fatal(err)
			}
			if got.Wing != tc.want.Wing || got.Room != tc.want.Room || got.Confidence != tc.want.Confidence || got.Applied != tc.want.Applied {
				t.Errorf("Propose(%q, wing %q) = %+v, want %+v", tc.query, tc.wing, got, tc.want)
			}
			if got.Reason == "" || !strings.Contains(got.Reason, tc.reason) {
				t.Errorf("reason %q, want it to contain %q", got.Reason, tc.reason)
			}
		})
	}
}

func TestProposeEmptyTaxonomy(t *testing.T) {
	got, err := Propose(context.Background(), openStore(t), "invoice", "")
	if err != nil {
		t.Fatal(err)
	}
	if got.Applied || got.Room != "" || got.Reason != ReasonNoMatch {
		t.Errorf("empty taxonomy: %+v", got)
	}
}

func TestProposeDeterministic(t *testing.T) {
	st := openStore(t)
	seed(t, st)
	first, err := Propose(context.Background(), st, "css theme layout react component", "")
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		got, _ := Propose(context.Background(), st, "css theme layout react component", "")
		if got != first {
			t.Fatalf("Propose is not deterministic: %+v then %+v", first, got)
		}
	}
	// theme: css, layout, theme = 3; frontend: css, react, component = 3.
	if first.Applied || !strings.Contains(first.Reason, "blog/theme, shop/frontend each match 3 query words") {
		t.Errorf("tie of three matches: %+v", first)
	}
}

func TestDecideAndFallback(t *testing.T) {
	st := openStore(t)
	seed(t, st)
	ctx := context.Background()
	tests := []struct {
		name           string
		filter         store.Filter
		applied        bool
		narrowed       store.Filter
		fallbackReason string
	}{
		{name: "routed everywhere", filter: store.Filter{Kind: "file"}, applied: true,
			narrowed:       store.Filter{Kind: "file", Room: "billing"},
			fallbackReason: "routed to room billing of every wing but it had no hits; searched everywhere"},
		{name: "routed within a wing", filter: store.Filter{Wing: "shop"}, applied: true,
			narrowed:       store.Filter{Wing: "shop", Room: "billing"},
			fallbackReason: "routed to shop/billing but it had no hits; searched all of wing shop"},
		{name: "a named room is never overridden", filter: store.Filter{Wing: "shop", Room: "frontend"},
			narrowed: store.Filter{Wing: "shop", Room: "frontend"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Decide(ctx, st, "invoice payment", tc.filter)
			if err != nil {
				t.Fatal(err)
			}
			if r.Applied != tc.applied {
				t.Fatalf("applied %v, want %v: %+v", r.Applied, tc.applied, r)
			}
			if got := r.Narrow(tc.filter); got != tc.narrowed {
				t.Errorf("Narrow = %+v, want %+v", got, tc.narrowed)
			}
			fb := Fallback(r)
			if fb.Applied {
				t.Errorf("fallback still applied: %+v", fb)
			}
			if got := fb.Narrow(tc.filter); got != tc.filter {
				t.Errorf("fallback narrows the filter: %+v", got)
			}
			if tc.fallbackReason == "" {
				if fb != r {
					t.Errorf("Fallback changed an unapplied route: %+v -> %+v", r, fb)
				}
				return
			}
			if fb.Reason != tc.fallbackReason || fb.Wing != "shop" || fb.Room != "billing" || fb.Confidence != 0.8 {
				t.Errorf("fallback %+v, want reason %q keeping the proposed route", fb, tc.fallbackReason)
			}
		})
	}
}

// Widen keeps the proposal, unapplied, and says why; Off routes nothing.
func TestWidenAndOff(t *testing.T) {
	r := Route{Wing: "shop", Room: "billing", Confidence: 0.6, Applied: true, Reason: "x", within: "shop"}
	w := Widen(r)
	want := "routed to shop/billing but no hit there holds every query word and one elsewhere does; searched all of wing shop"
	if w.Applied || w.Wing != "shop" || w.Room != "billing" || w.Reason != want {
		t.Errorf("Widen = %+v, want reason %q", w, want)
	}
	if Widen(w) != w {
		t.Errorf("Widen changed an unapplied route")
	}
	if off := Off(""); off.Applied || off.Room != "" || off.Narrow(store.Filter{Wing: "x"}) != (store.Filter{Wing: "x"}) {
		t.Errorf("Off = %+v", off)
	}
}

// A room named after a generic programming word (what 'palace init' made
// of a folder http) is not routed to by its name; a keyword the user lists
// still routes.
func TestGenericRoomNameDoesNotRoute(t *testing.T) {
	rooms := []store.Room{
		{Wing: "proxy", Room: "http", Keywords: []string{}},
		{Wing: "proxy", Room: "context"},
		{Wing: "proxy", Room: "billing", Keywords: []string{}},
	}
	for _, q := range []string{"http: server gave HTTP response to HTTPS client", "pass the Context down"} {
		if r := Match(rooms, q, ""); r.Applied || r.Room != "" {
			t.Errorf("%q routed by a generic room name: %+v", q, r)
		}
	}
	if r := Match(rooms, "billing rounding", ""); !r.Applied || r.Room != "billing" {
		t.Errorf("a topical room name no longer routes: %+v", r)
	}
	rooms[0].Keywords = []string{"http"}
	if r := Match(rooms, "http timeout", ""); !r.Applied || r.Room != "http" {
		t.Errorf("a listed keyword must route even when generic: %+v", r)
	}
	for name, want := range map[string]bool{"src": true, "Internal": true, "http": true, "tests": true, "auth": false, "api": false, "billing": false} {
		if Generic(name) != want {
			t.Errorf("Generic(%q) = %v, want %v", name, !want, want)
		}
	}
}

func TestRouteJSON(t *testing.T) {
	b, err := json.Marshal(Route{Wing: "w", Room: "r", Confidence: 0.8, Applied: true, Reason: "x", within: "w"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"wing":"w","room":"r","confidence":0.8,"applied":true,"reason":"x"}`; string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
}

func TestConfidence(t *testing.T) {
	for n, want := range map[int]float64{-1: 0, 0: 0, 1: 0.6, 2: 0.8, 3: 1, 7: 1} {
		if got := Confidence(n); got != want {
			t.Errorf("Confidence(%d) = %v, want %v", n, got, want)
		}
	}
}

// A 10 MB query is refused for its length before routing reads a word of
// it (the reason says so); BenchmarkHugeQueryIsNotRouted gives the time.
func TestHugeQueryIsNotRouted(t *testing.T) {
	st := openStore(t)
	seed(t, st)
	q := strings.Repeat("invoice payment stripe ", 10<<20/23)
	r, err := Propose(context.Background(), st, q, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("query longer than %d bytes; not routed", MaxQueryBytes); r.Applied || r.Reason != want {
		t.Errorf("10 MB query: %+v, want reason %q", r, want)
	}
}

// BenchmarkHugeQueryIsNotRouted: how long a 10 MB query takes to be
// refused (go test -bench HugeQuery ./core/route).
func BenchmarkHugeQueryIsNotRouted(b *testing.B) {
	st := openStore(b)
	seed(b, st)
	q := strings.Repeat("invoice payment stripe ", 10<<20/23)
	for b.Loop() {
		if _, err := Propose(context.Background(), st, q, ""); err != nil {
			b.Fatal(err)
		}
	}
}

func TestCheckName(t *testing.T) {
	ok := []string{"shop", "my-wing_2", "café", "项目", "a b", "it's", strings.Repeat("x", MaxNameBytes)}
	for _, n := range ok {
		if err := CheckName("wing", n); err != nil {
			t.Errorf("CheckName(%q): %v", n, err)
		}
	}
	bad := map[string]string{
		"":                                     "empty",
		"   ":                                  "empty",
		"a/b":                                  "'/'",
		`say "hi"`:                             "'/'",
		"\xff\xfe":                             "UTF-8",
		"tab\there":                            "control",
		"nl\n":                                 "control",
		" padded":                              "space",
		strings.Repeat("x", MaxNameBytes+1):    "limit is 200",
		strings.Repeat("é", 10<<20):            "limit is 200",
		strings.Repeat("\xff", MaxNameBytes+1): "limit is 200",
	}
	for n, want := range bad {
		err := CheckName("wing", n)
		var ie *input.Error
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), want) || !strings.HasPrefix(err.Error(), "wing name") ||
			!errors.As(err, &ie) || ie.Field != "wing" {
			t.Errorf("CheckName(%s) = %v, want ErrInvalid on field wing mentioning %q", Show(n), err, want)
			continue
		}
		if len(err.Error()) > 300 {
			t.Errorf("error for a %d-byte name is %d bytes long", len(n), len(err.Error()))
		}
	}
}

func TestNormalizeKeywords(t *testing.T) {
	// The CLI's --keywords is a comma-separated list; MCP sends an array.
	parse := func(list string) ([]string, error) { return NormalizeKeywords(strings.Split(list, ",")) }
	got, err := parse(" Auth, LOGIN ,,auth,token-refresh,认证,")
	if err != nil {
		t.Fatal(err)
	}
	if want := "auth,login,token-refresh,认证"; strings.Join(got, ",") != want {
		t.Errorf("keywords %q, want %q", got, want)
	}
	if got, err := parse(""); err != nil || len(got) != 0 || got == nil {
		t.Errorf(`keywords "" = %#v, %v; want an empty, non-nil list`, got, err)
	}
	if got, err := parse(strings.Repeat("abc,", 10<<20/4)); err != nil || strings.Join(got, ",") != "abc" {
		t.Errorf("10 MB of one repeated keyword = %.40q, %v; want abc", got, err)
	}
	many := make([]string, MaxKeywords+1)
	for i := range many {
		many[i] = "k" + strconv.Itoa(i)
	}
	bad := map[string]string{
		"auth service":                         "not one word",
		"node.js":                              "not one word",
		`a"b`:                                  "not one word",
		"ok,\xff":                              "UTF-8",
		strings.Repeat("k", MaxKeywordBytes+1): "limit is 64",
		strings.Join(many, ","):                "more than 100",
		strings.Repeat("k", 10<<20):            "limit is 64",
		"fine," + strings.Repeat("k", 300):     "limit is 64",
		"x," + strings.Repeat("ключ", 20) + ",": "limit is 64",
	}
	for in, want := range bad {
		_, err := parse(in)
		var ie *input.Error
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), want) || !errors.As(err, &ie) || ie.Field != "keywords" {
			t.Errorf("keywords %s = %v, want ErrInvalid on field keywords mentioning %q", Show(in), err, want)
		}
		if err != nil && len(err.Error()) > 300 {
			t.Errorf("error for %d bytes of keywords is %d bytes long", len(in), len(err.Error()))
		}
	}
}

func TestCheckRoom(t *testing.T) {
	r, err := CheckRoom(store.Room{Wing: "shop", Room: "auth", DisplayName: `Auth & "Sessions"`, Keywords: []string{"Login", "login"}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(r.Keywords, ",") != "login" {
		t.Errorf("keywords %q", r.Keywords)
	}
	for _, bad := range []store.Room{
		{Wing: "a/b", Room: "r"},
		{Wing: "w", Room: `r"`},
		{Wing: "w", Room: "r", DisplayName: "two\nlines"},
		{Wing: "w", Room: "r", DisplayName: strings.Repeat("d", MaxNameBytes+1)},
		{Wing: "w", Room: "r", Keywords: []string{"two words"}},
	} {
		if _, err := CheckRoom(bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("CheckRoom(%+v) = %v, want ErrInvalid", bad, err)
		}
	}
}
