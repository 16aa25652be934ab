package main

import (
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/palace-dev/palace/cmd/internal/clitest"
	"github.com/palace-dev/palace/core/mine"
)

// Issue #16 item 4: a query naming a folder's room (http) was confined to
// that room of one wing, which held only partial matches, and missed the
// one file, in another wing, holding the sentence. The proxy project's
// palace.yaml is the one 'palace init' wrote before generic folder names
// stopped being keywords; the client project is initialised now.
func TestSearchRouteNeverHidesExactMatch(t *testing.T) {
	home := t.TempDir()
	proxy := filepath.Join(t.TempDir(), "proxy")
	clitest.WriteTree(t, proxy, map[string]string{
		mine.ConfigName:  "wing: proxy\nrooms:\n  - name: http\n    keywords: [http]\n  - name: tls\n    keywords: [tls]\n",
		"http/server.go": "// http server: serve HTTP on the listener; the server closes idle conns\n",
		"http/client.go": "// http client: retries the request when the HTTP response is a 503\n",
		"http/header.go": "// http header names are canonical in HTTP/1 and lower case in HTTP/2\n",
		"tls/conf.go":    "// tls config\n",
		".palaceignore":  mine.ConfigName + "\n",
	})
	client := filepath.Join(t.TempDir(), "client")
	clitest.WriteTree(t, client, map[string]string{
		"net/transport.go": "return errors.New(\"http: server gave HTTP response to HTTPS client\")\n",
		"net/dial.go":      "// dial with a timeout\n",
	})
	if _, errOut, code := runPalace(t, "", "init", client); code != 0 {
		t.Fatalf("init: exit %d, %s", code, errOut)
	}
	mineOK(t, home, proxy)
	mineOK(t, home, client)

	const q = "http: server gave HTTP response to HTTPS client"
	for _, args := range [][]string{{q}, {q, "--route", "auto"}, {q, "--route", "off"}} {
		out, errOut, code := runPalace(t, home, append(append([]string{"search"}, args...), "--json")...)
		if code != 0 {
			t.Fatalf("search %q: exit %d, %s", args, code, errOut)
		}
		var r routedSearch
		clitest.Decode(t, "search", out, &r)
		if len(r.Hits) == 0 || !strings.HasSuffix(r.Hits[0].Source, "transport.go") || r.Hits[0].Match != "all" {
			t.Errorf("search %q: hits %+v, want net/transport.go first", args, r.Hits)
		}
		if r.Route == nil || r.Route.Applied {
			t.Errorf("search %q: route %+v, want one not applied", args, r.Route)
		}
	}
}

// 'palace init' makes no keyword of a generic folder name: its room still
// holds the folder's files (by path), but does not route queries.
func TestInitTaxonomyGenericFolderNames(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "svc")
	clitest.WriteTree(t, proj, map[string]string{
		"http/h.go":        "package http // tokgeneric\n",
		"context/c.go":     "package context\n",
		"internal/i.go":    "package internal\n",
		"src/s.c":          "int main;\n",
		"tests/t.go":       "package tests\n",
		"billing/b.go":     "package billing\n",
		"Auth/a.go":        "package auth\n",
		"utils/u.go":       "package utils\n",
		"docs/readme.md":   "# docs\n",
		"frontend/x.js":    "// x\n",
		"common/common.go": "package common\n",
	})
	out, errOut, code := runPalace(t, "", "init", proj, "--dry-run")
	if code != 0 {
		t.Fatalf("init: exit %d, %s", code, errOut)
	}
	var cfg yamlConfig
	if err := yaml.Unmarshal([]byte(out), &cfg); err != nil {
		t.Fatalf("init --dry-run: %v\n%s", err, out)
	}
	var rooms []string
	for _, r := range cfg.Rooms {
		rooms = append(rooms, r.Name+":"+strings.Join(r.Keywords, ","))
	}
	want := "auth:auth billing:billing common: context: docs: frontend:frontend http: internal: src: tests: utils:"
	if got := strings.Join(rooms, " "); got != want {
		t.Errorf("rooms %q, want %q", got, want)
	}

	if _, errOut, code := runPalace(t, "", "init", proj); code != 0 {
		t.Fatalf("init: exit %d, %s", code, errOut)
	}
	home := t.TempDir()
	mineOK(t, home, proj)
	var r routedSearch
	out, errOut, code = runPalace(t, home, "search", "http tokgeneric", "--json")
	if code != 0 {
		t.Fatalf("search: exit %d, %s", code, errOut)
	}
	clitest.Decode(t, "search", out, &r)
	if len(r.Hits) != 1 || r.Hits[0].Room != "http" {
		t.Errorf("hits %+v, want http/h.go in room http", r.Hits)
	}
	if r.Route == nil || r.Route.Room != "" {
		t.Errorf("route %+v: a generic folder name routed the query", r.Route)
	}
}
