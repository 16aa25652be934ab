//go:build unix

package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// tunnelsHome mines testdata/tunnels (wings api, web and mobile: auth and
// deploy in all three, api/sessions and web/login sharing two of their
// three keywords, api/billing and web/checkout sharing too few, docs and
// general in two wings) into a fresh palace and returns its home and the
// copy it mined.
func tunnelsHome(t *testing.T) (home, dir string) {
	t.Helper()
	t.Setenv("PALACE_MODEL_DIR", "") // lexical, whatever the machine has
	home, dir = t.TempDir(), t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "tunnels"))); err != nil {
		t.Fatal(err)
	}
	for _, wing := range []string{"api", "web", "mobile"} {
		mineOK(t, home, filepath.Join(dir, wing))
	}
	return home, dir
}

// wantFile compares got with testdata/tunnels/NAME, which states the
// expected output.
func wantFile(t *testing.T, name, got string) {
	t.Helper()
	want, err := os.ReadFile(filepath.Join("testdata", "tunnels", name))
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("differs from testdata/tunnels/%s:\n--- got\n%s--- want\n%s", name, got, want)
	}
}

// palace tunnels lists the fixture's tunnels as its .want files say, on
// the CLI and through MCP's palace_taxonomy action tunnels alike.
func TestTunnelsList(t *testing.T) {
	home, dir := tunnelsHome(t)
	run := func(args ...string) string {
		t.Helper()
		out, errOut, code := runPalace(t, home, append([]string{"tunnels"}, args...)...)
		if code != 0 {
			t.Fatalf("tunnels %v: exit %d, %s", args, code, errOut)
		}
		return out
	}
	wantFile(t, "tunnels.want.txt", run())
	asJSON := run("--json")
	wantFile(t, "tunnels.want.json", asJSON)
	wantFile(t, "tunnels-mobile.want.txt", run("--wing", "mobile"))

	_, errOut, code := runPalace(t, home, "tunnels", "--wing", "desktop")
	if code != 2 || !strings.Contains(errOut, `--wing "desktop": no such wing (wings: api, mobile, web)`) {
		t.Errorf("unknown wing: exit %d, %q; want 2 naming --wing and the wings", code, errOut)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "palace_taxonomy", map[string]any{"action": "tunnels"}
	res, err := startMCPFront(t, home, dir).cl.CallTool(ctx, req)
	if err != nil || res.IsError {
		t.Fatalf("mcp palace_taxonomy tunnels: %v %+v", err, res)
	}
	// Both as generic JSON values: the MCP client decodes into maps,
	// which marshal with sorted keys.
	viaMCP, _ := json.Marshal(res.StructuredContent)
	var fromMCP, fromCLI any
	clitest.Decode(t, "mcp tunnels", string(viaMCP), &fromMCP)
	clitest.Decode(t, "tunnels --json", asJSON, &fromCLI)
	if !reflect.DeepEqual(fromMCP, fromCLI) {
		t.Errorf("MCP's tunnels differ from the CLI's:\n%s\nwant\n%s", viaMCP, asJSON)
	}
}

// --across searches one room in every wing: the fixture's auth rooms, and
// not the other rooms whose drawers say the same words; the same on the
// CLI, MCP's palace_search and LSP's palace/search.
func TestSearchAcrossFronts(t *testing.T) {
	home, dir := tunnelsHome(t)
	type answer struct {
		Hits []struct {
			Wing string `json:"wing"`
			Room string `json:"room"`
		} `json:"hits"`
		Route routeOut `json:"route"`
	}
	where := func(a answer) string {
		var ps []string
		for _, h := range a.Hits {
			ps = append(ps, h.Wing+"/"+h.Room)
		}
		slices.Sort(ps)
		return strings.Join(ps, " ")
	}
	cli := func(args ...string) answer {
		t.Helper()
		var a answer
		out, errOut, code := runPalace(t, home, append([]string{"search", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("search %v: exit %d, %s", args, code, errOut)
		}
		clitest.Decode(t, "search", out, &a)
		return a
	}
	const everyAuth = "api/auth mobile/auth web/auth" // api/auth's other drawer is about passwords
	// Without --across the wing holds; the query's words are in other
	// rooms too (api/sessions, api/docs, the general notes).
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"token expiry", "--wing", "api", "--room", "auth"}, "api/auth"},
		{[]string{"token expiry", "--wing", "api", "--room", "auth", "--across"}, everyAuth},
		{[]string{"token", "--room", "auth", "--across"}, everyAuth},
		{[]string{"token", "--route", "off"}, "api/auth api/docs api/general api/sessions mobile/auth web/auth web/general"},
		{[]string{"jwt token", "--across"}, everyAuth},
		{[]string{"token oauth", "--wing", "mobile", "--across"}, everyAuth},
	} {
		if got := where(cli(c.args...)); got != c.want {
			t.Errorf("search %q: hits in %s, want %s", c.args, got, c.want)
		}
	}
	routed := cli("jwt token", "--across")
	if r := routed.Route; r.Wing != "*" || r.Room != "auth" || !r.Applied || r.Reason != "query matches jwt of */auth; searching room auth of every wing" {
		t.Errorf("the routed search's route: %+v", r)
	}

	var viaMCP, viaLSP answer
	searchServers(t, home, dir, map[string]any{"query": "jwt token", "across": true}, &viaMCP, &viaLSP)
	for front, a := range map[string]answer{"mcp": viaMCP, "lsp": viaLSP} {
		if where(a) != everyAuth || a.Route != routed.Route {
			t.Errorf("%s across: hits in %s, route %+v; want as the CLI: %s, %+v", front, where(a), a.Route, everyAuth, routed.Route)
		}
	}
}
