package lsp

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

// palace/map answers the palace's wings and rooms with their counts and
// a page that loads nothing: its script and style carry the client's nonce
// and its policy admits only them; an unknown wing is named.
func TestPalaceMap(t *testing.T) {
	c, _ := started(t, nil)
	addConversation(t, c.home, "we chose the checksum over a hash for uploads")
	res := c.mustCall("palace/map", map[string]any{"nonce": "abc123"})
	m := res["map"].(map[string]any)
	var wings []string
	for _, w := range m["wings"].([]any) {
		w := w.(map[string]any)
		wings = append(wings, fmt.Sprintf("%s:%v", w["name"], w["kinds"]))
		for _, r := range w["rooms"].([]any) {
			r := r.(map[string]any)
			if r["name"] == "" || r["drawers"].(float64) < 1 || r["oldest"] == nil || r["newest"] == nil {
				t.Errorf("room %v", r)
			}
		}
	}
	if got := strings.Join(wings, " "); got != "chats:map[conversation:1] proj:map[file:5]" {
		t.Errorf("wings = %s", got)
	}
	if m["tunnels"] == nil {
		t.Error("tunnels missing")
	}
	html := res["html"].(string)
	for _, want := range []string{"<!doctype html>", `<script nonce="abc123">`, `<style nonce="abc123">`,
		"default-src 'none'; img-src data:; style-src 'nonce-abc123'; script-src 'nonce-abc123'", `"name":"chats"`, "openRoom"} {
		if !strings.Contains(html, want) {
			t.Errorf("html lacks %q", want)
		}
	}
	for _, bad := range []string{"http://", "https://", " src=", "<link"} {
		if strings.Contains(strings.ReplaceAll(html, "http://www.w3.org/2000/svg", ""), bad) {
			t.Errorf("html has %q: a page must request nothing", bad)
		}
	}
	one := c.mustCall("palace/map", map[string]any{"wing": "chats"})["map"].(map[string]any)
	if n := len(one["wings"].([]any)); n != 1 {
		t.Errorf("wing chats: %d wings", n)
	}
	if e := c.callErr("palace/map", map[string]any{"wing": "nope"}); e == nil || e.Code != -32602 || !strings.Contains(e.Message, "nope") {
		t.Errorf("unknown wing: %v", e)
	}
	if e := c.callErr("palace/map", map[string]any{"nonce": `x" onload="y`}); e == nil || e.Code != -32602 || !strings.Contains(e.Message, "nonce") {
		t.Errorf("bad nonce: %v", e)
	}
}

// palace/graph answers the facts around an entity with camel-cased
// intervals, current facts told from ended ones, and the timeline page; an
// unknown entity is an error naming it.
func TestPalaceGraph(t *testing.T) {
	c, _ := started(t, nil)
	p, err := palace.Open(c.home)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, f := range []ops.KGAddRequest{
		{Subject: "Ada", Predicate: "works_at", Object: "Initech", ValidFrom: "2020-01-01", ValidTo: "2022-06-30"},
		{Subject: "Ada", Predicate: "works_at", Object: "Globex", ValidFrom: "2022-07-01"},
		{Subject: "Globex", Predicate: "located_in", Object: "Lisbon"},
	} {
		if _, err := ops.KGAdd(ctx, p, f); err != nil {
			t.Fatal(err)
		}
	}
	p.Close()
	res := c.mustCall("palace/graph", map[string]any{"entity": "ada", "nonce": "n0nce"})
	if res["entity"] != "Ada" {
		t.Errorf("entity = %v", res["entity"])
	}
	var got []string
	for _, f := range res["facts"].([]any) {
		f := f.(map[string]any)
		got = append(got, fmt.Sprintf("%s %s %s %v-%v %v", f["subject"], f["predicate"], f["object"], f["validFrom"], f["validTo"], f["current"]))
	}
	want := "Globex located_in Lisbon <nil>-<nil> true|" +
		"Ada works_at Initech 2020-01-01T00:00:00Z-2022-07-01T00:00:00Z false|" +
		"Ada works_at Globex 2022-07-01T00:00:00Z-<nil> true"
	if strings.Join(got, "|") != want {
		t.Errorf("facts:\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	if html := res["html"].(string); !strings.Contains(html, `<script nonce="n0nce">`) || !strings.Contains(html, `"name":"Lisbon"`) {
		t.Errorf("html lacks the nonce or the 2-hop entity Lisbon")
	}
	asOf := c.mustCall("palace/graph", map[string]any{"entity": "Ada", "asOf": "2021-01-01"})
	if n := len(asOf["facts"].([]any)); n != 1 {
		t.Errorf("as of 2021: %d facts, want Initech only", n)
	}
	if e := c.callErr("palace/graph", map[string]any{"entity": "Ada", "asOf": "someday"}); e == nil || e.Code != -32602 || !strings.HasPrefix(e.Message, "asOf") {
		t.Errorf("bad asOf: %v", e)
	}
	if e := c.callErr("palace/graph", map[string]any{"entity": "Zebulon"}); e == nil || e.Code != -32602 || !strings.Contains(e.Message, "Zebulon") {
		t.Errorf("unknown entity: %v", e)
	}
}
