//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mapHome imports testdata/map/palace.jsonl (wings api, web, chats and
// diary, auth in api and web, a few dated facts about Ada) into a fresh
// palace: the drawers' times are fixed, so the map's text is too.
func mapHome(t *testing.T) string {
	t.Helper()
	t.Setenv("PALACE_MODEL_DIR", "")
	home := t.TempDir()
	if _, errOut, code := runPalace(t, home, "import", filepath.Join("testdata", "map", "palace.jsonl")); code != 0 {
		t.Fatalf("import: exit %d, %s", code, errOut)
	}
	return home
}

// wantMap compares got with testdata/map/NAME, which states the expected
// output.
func wantMap(t *testing.T, name, got string) {
	t.Helper()
	want, err := os.ReadFile(filepath.Join("testdata", "map", name))
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("differs from testdata/map/%s:\n--- got\n%s--- want\n%s", name, got, want)
	}
}

// palace map prints the tree of wings and rooms, the JSON and one wing as
// the .want files say; an unknown wing or an unwritable page is named.
func TestMapText(t *testing.T) {
	home := mapHome(t)
	run := func(args ...string) string {
		t.Helper()
		out, errOut, code := runPalace(t, home, append([]string{"map"}, args...)...)
		if code != 0 {
			t.Fatalf("map %v: exit %d, %s", args, code, errOut)
		}
		return out
	}
	wantMap(t, "map.want.txt", run())
	wantMap(t, "map.want.json", run("--json"))
	wantMap(t, "map-web.want.txt", run("--wing", "web"))

	_, errOut, code := runPalace(t, home, "map", "--wing", "desktop")
	if code != 2 || !strings.Contains(errOut, `--wing "desktop": no such wing (wings: api, chats, diary, web)`) {
		t.Errorf("unknown wing: exit %d, %q", code, errOut)
	}
	bad := filepath.Join(t.TempDir(), "missing", "map.html")
	_, errOut, code = runPalace(t, home, "map", "--html", bad)
	if code != 1 || !strings.Contains(errOut, bad) {
		t.Errorf("unwritable page: exit %d, %q; want 1 naming the file", code, errOut)
	}
	_, errOut, code = runPalace(t, home, "kg", "timeline", "Zebulon", "--html", filepath.Join(t.TempDir(), "g.html"))
	if code != 1 || !strings.Contains(errOut, `entity "Zebulon": not found`) {
		t.Errorf("unknown entity: exit %d, %q", code, errOut)
	}
	_, errOut, code = runPalace(t, home, "kg", "timeline", "--html", filepath.Join(t.TempDir(), "g.html"))
	if code != 2 || !strings.Contains(errOut, "name the entity") {
		t.Errorf("no entity: exit %d, %q", code, errOut)
	}
}

// The map and timeline pages, rendered by headless Chromium, request
// nothing, report no error (a script or style their policy refused would
// be one) and show the fixture's wings and facts; a click on a room lists
// its drawers. Screenshots go to the artifacts folder. Two altered pages
// show the check can fail: one asking for an image from the network, one
// whose script no longer matches the hash its policy allows.
func TestMapPagesInChromium(t *testing.T) {
	home := mapHome(t)
	dir := t.TempDir()
	mapFile, graphFile := filepath.Join(dir, "map.html"), filepath.Join(dir, "timeline.html")
	for _, args := range [][]string{{"map", "--html", mapFile}, {"kg", "timeline", "Ada", "--html", graphFile}} {
		if out, errOut, code := runPalace(t, home, args...); code != 0 || !strings.HasPrefix(out, "wrote ") {
			t.Fatalf("%v: exit %d, %s%s", args, code, out, errOut)
		}
	}
	b := startChromium(t)

	b.open("file://" + mapFile)
	if off := b.offPage("file://" + mapFile); len(off) > 0 {
		t.Errorf("map page: %s", strings.Join(off, "\n"))
	}
	text := fmt.Sprint(b.eval("document.body.innerText"))
	for _, want := range []string{"4 wings, 6 rooms, 10 drawers, 1 tunnel", "api · 5", "web · 3", "chats · 1", "diary · 1",
		"auth: api/auth (3) ↔ web/auth (2)", "Ada · 3"} {
		if !strings.Contains(text, want) {
			t.Errorf("map page lacks %q:\n%s", want, text)
		}
	}
	if n := b.eval("document.querySelectorAll('.room').length"); n != 6.0 {
		t.Errorf("%v room tiles, want 6", n)
	}
	// Rooms of two files are tiled by file (api/auth, api/billing,
	// web/auth), coloured by language; every room is named in the list.
	if n := b.eval("[...document.querySelectorAll('.part')].map((p) => p.dataset.part + '=' + p.getAttribute('fill')).sort().join(' ')"); !strings.Contains(fmt.Sprint(n), "auth/login.ts=hsl(215") ||
		!strings.Contains(fmt.Sprint(n), "billing/tax.go=hsl(195") || strings.Count(fmt.Sprint(n), "=") != 6 {
		t.Errorf("part tiles: %v; want the six files of the three rooms of two, Go and TypeScript coloured apart", n)
	}
	for _, want := range []string{"Colour by\nlanguage", "api / auth 3 · go · auth/session.go, auth/token.go", "chats / conversations 1 · conversation", "web / pages 1 · typescript"} {
		if !strings.Contains(text, want) && !strings.Contains(text, strings.ReplaceAll(want, "\n", " ")) {
			t.Errorf("map page lacks %q:\n%s", want, text)
		}
	}
	if n := b.eval("document.querySelectorAll('.tunnel').length"); n != 1.0 {
		t.Errorf("%v tunnel links, want 1", n)
	}
	b.eval(`document.querySelector('.room[data-wing="api"][data-room="auth"]').dispatchEvent(new MouseEvent('click'))`)
	panel := fmt.Sprint(b.eval("document.getElementById('panel').innerText"))
	for _, want := range []string{"api / auth", "3 drawers (file 2, note 1)", "paths below /src/api", "auth/token.go:1-4 // Token expiry is checked on every request.", "note The auth service signs tokens"} {
		if !strings.Contains(panel, want) {
			t.Errorf("after a click on api/auth the panel lacks %q:\n%s", want, panel)
		}
	}
	t.Logf("screenshot: %s", b.screenshot("map.png"))

	b.open("file://" + graphFile)
	if off := b.offPage("file://" + graphFile); len(off) > 0 {
		t.Errorf("timeline page: %s", strings.Join(off, "\n"))
	}
	text = fmt.Sprint(b.eval("document.body.innerText"))
	for _, want := range []string{"4 entities around Ada, 4 facts (2 current, 2 ended, 0 future)",
		"Globex located_in Lisbon since always, current", "Ada works_at Initech 2020-01-01 until 2022-06-30, ended",
		"Ada works_at Globex since 2022-07-01, current", "Ada owns Billing 2023-03-01 until 2024-08-31, ended"} {
		if !strings.Contains(text, want) {
			t.Errorf("timeline page lacks %q:\n%s", want, text)
		}
	}
	if n := b.eval("[document.querySelectorAll('.span.current').length, document.querySelectorAll('.span.ended').length, document.querySelectorAll('.node').length].join()"); n != "2,2,5" {
		t.Errorf("current, ended bars and nodes: %v, want 2,2,5", n)
	}
	t.Logf("screenshot: %s", b.screenshot("timeline.png"))

	page, err := os.ReadFile(mapFile)
	if err != nil {
		t.Fatal(err)
	}
	fetching := filepath.Join(dir, "fetching.html")
	os.WriteFile(fetching, []byte(strings.Replace(string(page), "<body>", `<body><img src="https://example.com/x.png">`, 1)), 0o644)
	b.open("file://" + fetching)
	if off := b.offPage("file://" + fetching); len(off) == 0 {
		t.Error("a page asking for https://example.com/x.png: nothing reported")
	} else {
		t.Logf("a page asking for an image, as reported: %s", strings.Join(off, "; "))
	}
	tampered := filepath.Join(dir, "tampered.html")
	os.WriteFile(tampered, []byte(strings.Replace(string(page), "const PALACE = ", "const PALACE =  ", 1)), 0o644)
	b.open("file://" + tampered)
	if off := b.offPage("file://" + tampered); len(off) == 0 || strings.Contains(fmt.Sprint(b.eval("document.body.innerText")), "api · 5") {
		t.Errorf("a script its policy does not allow ran, or nothing was reported: %v", off)
	} else {
		t.Logf("a tampered script, as reported: %s", strings.Join(off, "; "))
	}
}
