package ops

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

// A flat repository files most drawers in one room; the map names what it
// holds: the dominant folder's files, the other folders whole, paths
// relative to the wing's root, languages counted, the citations listed
// relative too. A room of many folders is parted by folder, at most
// MapParts of them, the rest counted.
func TestMapParts(t *testing.T) {
	p := palacetest.OpenPalace(t)
	ctx := context.Background()
	when := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var ds []store.Drawer
	add := func(wing, room, src string, n int) {
		for i := range n {
			content := fmt.Sprintf("%s part %d", src, i)
			ds = append(ds, store.Drawer{ID: store.DrawerID(wing, src, i, store.ContentHash(content)), Wing: wing, Room: room,
				Kind: store.KindFile, Source: src, LineStart: i + 1, LineEnd: i + 1, Content: content, ContentHash: store.ContentHash(content), CreatedAt: when})
		}
	}
	add("cobra", "general", "/r/cobra/command.go", 40)
	add("cobra", "general", "/r/cobra/args.go", 10)
	add("cobra", "general", "/r/cobra/.github/labeler.yml", 2)
	add("cobra", "general", "/r/cobra/cmd/x/main.go", 3)
	add("cobra", "doc", "/r/cobra/doc/md_docs.md", 4)
	for i := range MapParts + 2 {
		add("big", "core", fmt.Sprintf("/b/core/p%02d/x.py", i), 1+i%3)
	}
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	m, err := Map(ctx, p, MapRequest{Top: 1})
	if err != nil {
		t.Fatal(err)
	}
	big, cobra := m.Wings[0], m.Wings[1]
	if cobra.Root != "/r/cobra" || big.Root != "/b/core" {
		t.Fatalf("roots %q %q, want /r/cobra and /b/core", cobra.Root, big.Root)
	}
	general := cobra.Rooms[1]
	want := []MapPart{
		{Name: "command.go", Drawers: 40, Files: 1, Language: "go"},
		{Name: "args.go", Drawers: 10, Files: 1, Language: "go"},
		{Name: "cmd/x/", Drawers: 3, Files: 1, Language: "go"},
		{Name: ".github/", Drawers: 2, Files: 1, Language: "yaml"},
	}
	if !reflect.DeepEqual(general.Parts, want) || general.Rest != 0 {
		t.Errorf("general's parts:\n%+v rest %d\nwant\n%+v", general.Parts, general.Rest, want)
	}
	if general.Languages["go"] != 53 || general.Languages["yaml"] != 2 || cobra.Languages["markdown"] != 4 {
		t.Errorf("languages: room %v wing %v", general.Languages, cobra.Languages)
	}
	if got := general.Top[0].Citation; strings.HasPrefix(got, "/") || !strings.Contains(got, ".") {
		t.Errorf("listed citation %q, want one relative to the wing's root", got)
	}
	core := big.Rooms[0]
	if len(core.Parts) != MapParts || core.Parts[0].Name[len(core.Parts[0].Name)-1] != '/' || core.Parts[0].Drawers != 3 {
		t.Fatalf("a room of many folders: %+v", core.Parts)
	}
	sum := core.Rest
	for _, pt := range core.Parts {
		sum += pt.Drawers
	}
	if sum != core.Drawers || core.Rest == 0 {
		t.Errorf("parts and rest count %d drawers (rest %d), the room holds %d", sum, core.Rest, core.Drawers)
	}
}

func TestCommonDir(t *testing.T) {
	for _, c := range []struct {
		srcs []string
		want string
	}{
		{nil, ""},
		{[]string{"/a/b/c.go"}, "/a/b"},
		{[]string{"/a/b/c.go", "/a/bc/d.go"}, "/a"},
		{[]string{"/a/b/c.go", "/x/y.go"}, "/"},
		{[]string{"a/x", "b/y"}, ""},
	} {
		if got := commonDir(c.srcs); got != c.want {
			t.Errorf("commonDir(%q) = %q, want %q", c.srcs, got, c.want)
		}
	}
}

// A listed drawer is named by its first line that tells it apart: not the
// package clause, imports or a licence every file of a package starts with.
func TestTellingLine(t *testing.T) {
	for _, c := range []struct{ head, want string }{
		{"package storage\n\nimport (\n\t\"fmt\"\n\tx \"os\"\n)\n\n// Fetch reads a blob.\nfunc Fetch() {}", "// Fetch reads a blob."},
		{"// Copyright 2024 The Authors.\n// SPDX-License-Identifier: MIT\n\npackage a\n\nimport \"fmt\"\n\ntype T struct{}", "type T struct{}"},
		{"#!/usr/bin/env python3\nfrom os import path\nimport sys\n\ndef main():", "def main():"},
		{"# Notes\n\nsome text", "# Notes"},
		{"package only", "package only"},
		{"\n\n", ""},
	} {
		if got := telling(c.head); got != c.want {
			t.Errorf("telling(%q) = %q, want %q", c.head, got, c.want)
		}
	}
}
