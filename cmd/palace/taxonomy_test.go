//go:build unix

package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
	"github.com/palace-dev/palace/core/mine"
)

type taxRoom struct {
	Wing        string   `json:"wing"`
	Room        string   `json:"room"`
	DisplayName string   `json:"display_name"`
	Keywords    []string `json:"keywords"`
}

type taxList struct {
	Rooms []taxRoom `json:"rooms"`
}

type taxChange struct {
	Action     string   `json:"action"`
	Room       taxRoom  `json:"room"`
	PalaceYAML string   `json:"palace_yaml"`
	Dropped    []string `json:"dropped"`
	Warning    string   `json:"warning"`
}

type routeOut struct {
	Wing       string  `json:"wing"`
	Room       string  `json:"room"`
	Confidence float64 `json:"confidence"`
	Applied    bool    `json:"applied"`
	Reason     string  `json:"reason"`
}

// needTaxonomy fails when 'palace taxonomy' is not registered in root.go.
func needTaxonomy(t *testing.T) {
	t.Helper()
	out, _, _ := runPalace(t, t.TempDir(), "taxonomy", "--help")
	if !strings.Contains(out, "palace taxonomy") {
		t.Fatalf("palace taxonomy --help does not describe the command: is it still registered in root.go?\n%s", out)
	}
}

// taxOK runs palace taxonomy ARGS --json, expects exit 0 and decodes stdout.
func taxOK(t *testing.T, home string, v any, args ...string) (stderr string) {
	t.Helper()
	out, errOut, code := runPalace(t, home, append(append([]string{"taxonomy"}, args...), "--json")...)
	if code != 0 {
		t.Fatalf("taxonomy %v: exit %d, stderr %q", args, code, errOut)
	}
	clitest.Decode(t, "taxonomy "+args[0], out, v)
	return errOut
}

func listRooms(t *testing.T, home string, args ...string) []string {
	t.Helper()
	var l taxList
	taxOK(t, home, &l, append([]string{"list"}, args...)...)
	var s []string
	for _, r := range l.Rooms {
		s = append(s, r.Wing+"/"+r.Room+":"+strings.Join(r.Keywords, ","))
	}
	return s
}

func TestTaxonomySetListRm(t *testing.T) {
	needTaxonomy(t)
	home := t.TempDir()
	var ch taxChange
	taxOK(t, home, &ch, "set", "shop", "billing", "--keywords", "Invoice, payment,invoice,,", "--name", `Billing & "Co"`)
	if ch.Action != "added" || ch.Room.Wing != "shop" || ch.Room.Room != "billing" ||
		strings.Join(ch.Room.Keywords, ",") != "invoice,payment" || ch.Room.DisplayName != `Billing & "Co"` {
		t.Errorf("set: %+v", ch)
	}
	taxOK(t, home, &ch, "set", "shop", "auth", "--keywords", "login")
	taxOK(t, home, &ch, "set", "blog", "posts")
	if ch.Room.Keywords == nil {
		t.Error(`a room without keywords should report "keywords": []`)
	}

	want := "[blog/posts: shop/auth:login shop/billing:invoice,payment]"
	if got := strings.Join(listRooms(t, home), " "); "["+got+"]" != want {
		t.Errorf("list: [%s], want %s", got, want)
	}
	if got := listRooms(t, home, "--wing", "shop"); len(got) != 2 {
		t.Errorf("list --wing shop: %v", got)
	}
	out, _, code := runPalace(t, home, "taxonomy", "list", "--json")
	if code != 0 || !strings.Contains(out, `"keywords": []`) {
		t.Errorf("list --json should print empty keywords as []: %s", out)
	}
	out, _, code = runPalace(t, home, "taxonomy", "list")
	if code != 0 || !strings.Contains(out, "shop/billing (Billing & \"Co\")  keywords: invoice, payment") {
		t.Errorf("list text:\n%s", out)
	}

	// A flag not given keeps the stored value.
	taxOK(t, home, &ch, "set", "shop", "billing", "--name", "Billing")
	if ch.Action != "updated" || strings.Join(ch.Room.Keywords, ",") != "invoice,payment" || ch.Room.DisplayName != "Billing" {
		t.Errorf("set --name only: %+v", ch)
	}
	taxOK(t, home, &ch, "set", "shop", "billing", "--keywords", "")
	if len(ch.Room.Keywords) != 0 || ch.Room.DisplayName != "Billing" {
		t.Errorf("set --keywords '': %+v", ch)
	}

	taxOK(t, home, &ch, "rm", "shop", "auth")
	if ch.Action != "removed" || ch.Room.Room != "auth" {
		t.Errorf("rm: %+v", ch)
	}
	_, errOut, code := runPalace(t, home, "taxonomy", "rm", "shop", "auth")
	if code != 1 || !strings.Contains(errOut, "not found in the taxonomy") {
		t.Errorf("rm of a missing room: exit %d, stderr %q; want 1 and 'not found in the taxonomy'", code, errOut)
	}
	oneLine(t, errOut)
	if got := strings.Join(listRooms(t, home), " "); got != "blog/posts: shop/billing:" {
		t.Errorf("after rm: %s", got)
	}

	_, errOut, code = runPalace(t, home, "taxonomy")
	if code != 2 {
		t.Errorf("taxonomy without a subcommand: exit %d, want 2 (%q)", code, errOut)
	}
}

func TestTaxonomyBadInput(t *testing.T) {
	needTaxonomy(t)
	// Linux caps one argument at 128 KiB, so arguments here stay below it;
	// 10 MB names, keywords and queries are covered in core/route.
	big := strings.Repeat("w", 100<<10)
	many := make([]string, 101)
	for i := range many {
		many[i] = "k" + strings.Repeat("x", i%50) + string(rune('a'+i%26)) + string(rune('a'+i/26))
	}
	tests := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"quote in wing", []string{"set", `my"wing`, "r"}, `'/' or '"'`},
		{"slash in wing", []string{"set", "a/b", "r"}, `'/' or '"'`},
		{"slash in room", []string{"set", "w", "../etc"}, `'/' or '"'`},
		{"invalid UTF-8 wing", []string{"set", "\xff\xfe", "r"}, "UTF-8"},
		{"control character", []string{"set", "w", "a\x1bb"}, "control character"},
		{"empty wing", []string{"set", "", "r"}, "empty"},
		{"surrounding space", []string{"set", "w ", "r"}, "space"},
		{"100 KB wing", []string{"set", big, "r"}, "limit is 200"},
		{"100 KB keywords", []string{"set", "w", "r", "--keywords", big}, "limit is 64"},
		{"long keyword", []string{"set", "w", "r", "--keywords", "ok," + strings.Repeat("k", 65)}, "limit is 64"},
		{"keyword of two words", []string{"set", "w", "r", "--keywords", "auth service"}, "not one word"},
		{"invalid UTF-8 keyword", []string{"set", "w", "r", "--keywords", "a,\xff"}, "UTF-8"},
		{"101 keywords", []string{"set", "w", "r", "--keywords", strings.Join(many, ",")}, "more than 100"},
		{"display name with a newline", []string{"set", "w", "r", "--name", "a\nb"}, "control character"},
		{"100 KB display name", []string{"set", "w", "r", "--name", big}, "limit is 200"},
		{"missing room", []string{"set", "w"}, "accepts 2 arg"},
		{"rm 100 KB name", []string{"rm", "w", big}, "limit is 200"},
		{"rm empty wing", []string{"rm", "", "r"}, "empty"},
		{"rm blank room", []string{"rm", "w", "  "}, "room is empty"},
		{"route blank query", []string{"route", " "}, "query is empty"},
		{"unknown flag", []string{"list", "--nope"}, "unknown flag"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			_, errOut, code := runPalace(t, home, append([]string{"taxonomy"}, tc.args...)...)
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr %q", code, errOut)
			}
			oneLine(t, errOut)
			if !strings.Contains(errOut, tc.want) {
				t.Errorf("stderr %q, want it to mention %q", errOut, tc.want)
			}
			if len(errOut) > 400 {
				t.Errorf("error is %d bytes; long input must not be echoed back", len(errOut))
			}
			// Bad input is refused before the palace is opened.
			if _, err := os.Stat(home); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("bad input created the palace home: %v", err)
			}
		})
	}

	// In an existing palace, a refused change leaves the room as it was.
	home := t.TempDir()
	var ch taxChange
	taxOK(t, home, &ch, "set", "shop", "billing", "--keywords", "invoice")
	for _, a := range [][]string{
		{"set", "shop", "billing", "--keywords", "invoice,two words"},
		{"set", "shop", "billing", "--name", "bad\x07name"},
	} {
		if _, errOut, code := runPalace(t, home, append([]string{"taxonomy"}, a...)...); code != 2 {
			t.Errorf("%v: exit %d (%q), want 2", a, code, errOut)
		}
	}
	if got := strings.Join(listRooms(t, home), " "); got != "shop/billing:invoice" {
		t.Errorf("refused changes wrote something: %s", got)
	}

	// A wing the palace does not hold is bad input, not an empty answer,
	// and the error lists the wings there are.
	for _, a := range [][]string{
		{"list", "--wing", "shpo"},
		{"route", "invoice", "--wing", "shpo"},
	} {
		_, errOut, code := runPalace(t, home, append([]string{"taxonomy"}, a...)...)
		if code != 2 || !strings.Contains(errOut, `wing "shpo": no such wing (wings: shop)`) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and the wings", a, code, errOut)
		}
		oneLine(t, errOut)
	}
}

func TestTaxonomyRoute(t *testing.T) {
	needTaxonomy(t)
	home := t.TempDir()
	var ch taxChange
	taxOK(t, home, &ch, "set", "shop", "billing", "--keywords", "invoice,payment,stripe")
	taxOK(t, home, &ch, "set", "shop", "auth", "--keywords", "login,token,session")
	taxOK(t, home, &ch, "set", "blog", "theme", "--keywords", "css,font")
	taxOK(t, home, &ch, "set", "shop", "frontend", "--keywords", "css,react")
	tests := []struct {
		name  string
		args  []string
		want  routeOut
		inWhy string
	}{
		{"confident", []string{"why did the stripe payment fail"},
			routeOut{Wing: "shop", Room: "billing", Confidence: 0.8, Applied: true}, "payment, stripe"},
		{"three matches", []string{"login", "token", "session", "bug"},
			routeOut{Wing: "shop", Room: "auth", Confidence: 1, Applied: true}, ""},
		{"ambiguous", []string{"css grid"},
			routeOut{}, "ambiguous: blog/theme, shop/frontend"},
		{"no match", []string{"goroutine leak"},
			routeOut{}, "no taxonomy keyword in the query"},
		{"wing restricted", []string{"css grid", "--wing", "blog"},
			routeOut{Wing: "blog", Room: "theme", Confidence: 0.6, Applied: true}, ""},
		{"invalid UTF-8", []string{"\xff invoice \xfe"},
			routeOut{Wing: "shop", Room: "billing", Confidence: 0.6, Applied: true}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var r routeOut
			taxOK(t, home, &r, append([]string{"route"}, tc.args...)...)
			got := r
			got.Reason = ""
			if got != tc.want {
				t.Errorf("route %q = %+v, want %+v", tc.args, r, tc.want)
			}
			if !strings.Contains(r.Reason, tc.inWhy) || r.Reason == "" {
				t.Errorf("reason %q, want it to contain %q", r.Reason, tc.inWhy)
			}
		})
	}
	out, _, code := runPalace(t, home, "taxonomy", "route", "stripe invoice")
	if code != 0 || !strings.HasPrefix(out, "shop/billing (confidence 0.8, applied)") {
		t.Errorf("route text: exit %d, %q", code, out)
	}
}

func TestTaxonomyYAMLSync(t *testing.T) {
	needTaxonomy(t)
	home := t.TempDir()
	proj := filepath.Join(t.TempDir(), "shop")
	yamlPath := filepath.Join(proj, mine.ConfigName)
	clitest.WriteTree(t, proj, map[string]string{
		mine.ConfigName:  "# mine me\nwing: shop\nrooms:\n  - name: billing\n    keywords: [invoice]\n",
		"billing/a.md":   "invoice rounding\n",
		"auth/b.md":      "login flow\n",
		"README.md":      "the shop\n",
		"notes/later.md": "memo\n",
	})
	mineOK(t, home, proj)
	if got := strings.Join(listRooms(t, home), " "); got != "shop/billing:invoice" {
		t.Fatalf("after mine: %s", got)
	}

	// --dir edits the file and the table together; the next mine keeps it.
	var ch taxChange
	taxOK(t, home, &ch, "set", "shop", "auth", "--keywords", "login", "--dir", proj)
	if ch.PalaceYAML != yamlPath || ch.Warning != "" {
		t.Errorf("set --dir: %+v", ch)
	}
	cfg, err := mine.LoadConfig(proj)
	if err != nil || cfg.Wing != "shop" || len(cfg.Rooms) != 2 || cfg.Rooms[0].Room != "billing" || cfg.Rooms[1].Room != "auth" ||
		strings.Join(cfg.Rooms[1].Keywords, ",") != "login" {
		t.Fatalf("palace.yaml after set --dir: %+v, %v", cfg, err)
	}
	mineOK(t, home, proj)
	if got := strings.Join(listRooms(t, home), " "); got != "shop/auth:login shop/billing:invoice" {
		t.Errorf("after set --dir and mine: %s", got)
	}

	// Without --dir only the table changes; palace warns that palace.yaml
	// will undo it, and the next mine does (the file wins at mine time).
	stderr := taxOK(t, home, &ch, "set", "shop", "notes", "--keywords", "memo")
	if !strings.Contains(ch.Warning, "--dir "+proj) || !strings.Contains(stderr, "palace: warning: ") {
		t.Errorf("set without --dir: warning %q, stderr %q; want a hint to use --dir %s", ch.Warning, stderr, proj)
	}
	if got := strings.Join(listRooms(t, home), " "); got != "shop/auth:login shop/billing:invoice shop/notes:memo" {
		t.Errorf("after set without --dir: %s", got)
	}
	mineOK(t, home, proj)
	if got := strings.Join(listRooms(t, home), " "); got != "shop/auth:login shop/billing:invoice" {
		t.Errorf("after mine, palace.yaml should have replaced the table: %s", got)
	}

	// A table-only room is dropped when --dir makes the table match the file.
	taxOK(t, home, &ch, "set", "shop", "notes", "--keywords", "memo")
	ch = taxChange{}
	taxOK(t, home, &ch, "rm", "shop", "billing", "--dir", proj)
	if ch.Action != "removed" || strings.Join(ch.Dropped, ",") != "notes" || ch.Warning != "" {
		t.Errorf("rm --dir: %+v", ch)
	}
	if got := strings.Join(listRooms(t, home), " "); got != "shop/auth:login" {
		t.Errorf("after rm --dir: %s", got)
	}
	if cfg, err := mine.LoadConfig(proj); err != nil || len(cfg.Rooms) != 1 || cfg.Rooms[0].Room != "auth" {
		t.Errorf("palace.yaml after rm --dir: %+v, %v", cfg, err)
	}

	// A --dir whose palace.yaml is another wing's, or missing, or broken:
	// exit 2, nothing written anywhere.
	before, err := os.ReadFile(yamlPath)
	if err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	broken := t.TempDir()
	huge := strings.Repeat("rooms: [\n", 10<<20/9) // 10 MB of unbalanced YAML
	clitest.WriteTree(t, broken, map[string]string{mine.ConfigName: huge})
	for _, a := range [][]string{
		{"set", "blog", "x", "--dir", proj},
		{"rm", "blog", "auth", "--dir", proj},
		{"set", "shop", "x", "--dir", other},
		{"set", "shop", "x", "--dir", broken},
	} {
		_, errOut, code := runPalace(t, home, append([]string{"taxonomy"}, a...)...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", a, code, errOut)
			continue
		}
		oneLine(t, errOut)
		if len(errOut) > 600 {
			t.Errorf("%v: error is %d bytes", a, len(errOut))
		}
	}
	after, _ := os.ReadFile(yamlPath)
	if string(after) != string(before) {
		t.Errorf("a refused --dir changed palace.yaml:\n%s", after)
	}
	if b, _ := os.ReadFile(filepath.Join(broken, mine.ConfigName)); string(b) != huge {
		t.Error("the broken palace.yaml was rewritten")
	}
	if got := strings.Join(listRooms(t, home), " "); got != "shop/auth:login" {
		t.Errorf("refused --dir changes wrote to the table: %s", got)
	}
	if _, err := os.Stat(filepath.Join(other, mine.ConfigName)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("--dir without palace.yaml created one: %v", err)
	}
	entries, _ := os.ReadDir(proj)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".palace-yaml-") {
			t.Errorf("temporary %s left in the project", e.Name())
		}
	}
}

// A palace.yaml that names the wing but lists no rooms gets the table's
// rooms plus the change, so the next mine replaces nothing by surprise.
func TestTaxonomyDirWithoutRooms(t *testing.T) {
	needTaxonomy(t)
	home := t.TempDir()
	proj := filepath.Join(t.TempDir(), "Shop Front") // wing from the folder name
	clitest.WriteTree(t, proj, map[string]string{mine.ConfigName: "# no wing line\n", "a.md": "hello\n"})
	var ch taxChange
	taxOK(t, home, &ch, "set", "shop-front", "billing", "--keywords", "invoice")
	taxOK(t, home, &ch, "set", "shop-front", "auth", "--keywords", "login", "--dir", proj)
	cfg, err := mine.LoadConfig(proj)
	if err != nil || len(cfg.Rooms) != 2 || cfg.Rooms[0].Room != "billing" || cfg.Rooms[1].Room != "auth" {
		t.Fatalf("palace.yaml: %+v, %v", cfg, err)
	}
	mineOK(t, home, proj)
	if got := strings.Join(listRooms(t, home), " "); got != "shop-front/auth:login shop-front/billing:invoice" {
		t.Errorf("after mine: %s", got)
	}
}

type routedSearch struct {
	Query  string    `json:"query"`
	Hits   []hit     `json:"hits"`
	Notice string    `json:"notice"`
	Route  *routeOut `json:"route"`
}

// TestSearchReportsRoute: search results carry the route core/search took
// ("route"), and the route decides which rooms are searched.
func TestSearchReportsRoute(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(t.TempDir(), "shop")
	clitest.WriteTree(t, proj, map[string]string{
		mine.ConfigName: "wing: shop\nrooms:\n  - name: billing\n    keywords: [invoice, payment]\n  - name: auth\n    keywords: [login, token]\n",
		"billing/a.md":  "invoice rounding rule: round half even\n",
		"auth/b.md":     "login flow mentions the invoice once\n",
		".palaceignore": mine.ConfigName + "\n", // its keywords would match every query
	})
	mineOK(t, home, proj)
	search := func(args ...string) routedSearch {
		t.Helper()
		out, errOut, code := runPalace(t, home, append(append([]string{"search"}, args...), "--json")...)
		if code != 0 {
			t.Fatalf("search %v: exit %d, stderr %q", args, code, errOut)
		}
		var r routedSearch
		clitest.Decode(t, "search", out, &r)
		return r
	}
	if r := search("invoice"); r.Route == nil {
		t.Fatalf("search invoice --json carries no route: %+v", r)
	}
	rooms := func(r routedSearch) string {
		var s []string
		for _, h := range r.Hits {
			s = append(s, h.Room)
		}
		return strings.Join(s, ",")
	}
	tests := []struct {
		name    string
		args    []string
		route   routeOut
		inWhy   string
		inRooms string // the hits' rooms, in order
	}{
		{"confident route filters", []string{"invoice rounding"},
			routeOut{Wing: "shop", Room: "billing", Confidence: 0.6, Applied: true}, "invoice", "billing"},
		{"ambiguous searches everywhere", []string{"invoice login"},
			routeOut{}, "ambiguous", "auth,billing"},
		{"no keyword searches everywhere", []string{"rounding"},
			routeOut{}, "no taxonomy keyword", "billing"},
		{"routed search with no hits falls back", []string{"payment flow"},
			routeOut{Wing: "shop", Room: "billing", Confidence: 0.6}, "routed to room billing of every wing but it had no hits; searched everywhere", "auth"},
		{"a room of partial matches widens to everywhere", []string{"invoice flow"},
			routeOut{Wing: "shop", Room: "billing", Confidence: 0.6}, "no hit there holds every query word and one elsewhere does", "auth,billing"},
		{"route off", []string{"invoice rounding", "--route", "off"},
			routeOut{}, "routing is off; searched everywhere", "billing,auth"},
		{"a named room is not routed", []string{"invoice", "--room", "auth"},
			routeOut{}, "names a room", "auth"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := search(tc.args...)
			if r.Route == nil {
				t.Fatal("no route in the result")
			}
			got := *r.Route
			got.Reason = ""
			if got != tc.route || !strings.Contains(r.Route.Reason, tc.inWhy) {
				t.Errorf("route %+v, want %+v with a reason containing %q", *r.Route, tc.route, tc.inWhy)
			}
			if rooms(r) != tc.inRooms {
				t.Errorf("hits in rooms %q, want %q", rooms(r), tc.inRooms)
			}
		})
	}
}
