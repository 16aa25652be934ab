package relevant

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

// A place whose clues are one rare identifier, one rare enclosing name and
// many words most of the palace holds: the search is sent the rare ones only
// (the common ones would make it score every drawer), still finds the drawer
// holding the identifier first, and the common words still rank.
func TestFindSearchesRareCluesAndDropsCommonWords(t *testing.T) {
	p := palacetest.OpenPalace(t)
	ctx := context.Background()
	doc := `// Copyright The Authors. Use of this source code is governed by a license.

package internal

func lookupFexecve(cmd string, arch string) int {
	compiled := compile(cmd, arch)
	return zsysFexecveTable[compiled] + internal.offset(cmd)
}
`
	const path, root = "/proj/cmd/internal/compile.go", "/proj"
	pos := at(t, doc, "zsysFexecveTable")
	clues := Extract(doc, pos, pos, path, root)
	if clues.Identifier != "zsysFexecveTable" || len(clues.Enclosing) == 0 || clues.Enclosing[0] != "lookupFexecve" {
		t.Fatalf("clues = %+v, want the identifier and lookupFexecve enclosing", clues)
	}
	var common []string
	for _, w := range clues.terms() {
		if w.term != clues.Identifier && w.term != clues.Enclosing[0] {
			common = append(common, w.term)
		}
	}
	if len(common) < 3 {
		t.Fatalf("only %d other clues (%v): the test needs common words to drop", len(common), common)
	}

	// 300 older drawers hold every other clue; 1,200 newer ones hold none,
	// so the words are common in the index (20% of drawers) though not
	// among the newest drawers.
	old, now := time.Now().Add(-time.Hour), time.Now()
	var ds []store.Drawer
	add := func(source, kind string, at time.Time, content string) string {
		d := store.Drawer{Wing: "proj", Room: "general", Kind: kind, Source: source, Content: content,
			ContentHash: store.ContentHash(content), CreatedAt: at, LineStart: 1, LineEnd: 1}
		d.ID = store.DrawerID("proj", source, 1, d.ContentHash)
		ds = append(ds, d)
		return d.ID
	}
	for i := range 300 {
		add(fmt.Sprintf("/proj/old/f%03d.go", i), store.KindFile, old, fmt.Sprintf("%s oldword%03d", strings.Join(common, " "), i))
	}
	for i := range 1200 {
		add(fmt.Sprintf("/proj/new/f%04d.go", i), store.KindFile, now, fmt.Sprintf("unrelated text number%04d", i))
	}
	target := add("/proj/syscalls.md", store.KindNote, old, "zsysFexecveTable maps syscall numbers; "+strings.Join(common, " "))
	encl := add("/proj/exec.go", store.KindFile, old, "func lookupFexecve(name string) int")
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}

	res, err := Find(ctx, p, Request{Path: path, Root: root, Text: doc, Start: pos, End: pos, Wing: "proj"})
	if err != nil {
		t.Fatal(err)
	}
	searched := strings.Fields(res.Searched)
	slices.Sort(searched)
	if want := []string{"lookupFexecve", "zsysFexecveTable"}; !slices.Equal(searched, want) {
		t.Errorf("searched = %q, want only %q (query %q)", res.Searched, want, res.Query)
	}
	for _, w := range common {
		if !strings.Contains(" "+res.Query+" ", " "+w+" ") {
			t.Errorf("common word %q left the query %q: it should still rank hits", w, res.Query)
		}
	}
	if len(res.Hits) < 2 || res.Hits[0].ID != target || res.Hits[1].ID != encl {
		t.Fatalf("hits = %+v, want the drawer holding the identifier, then the one holding the enclosing name", res.Hits)
	}
	// The target's common words still count in its rank.
	if m := res.Hits[0].Matched; len(m) != 1+len(common) || m[0] != "zsysFexecveTable" {
		t.Errorf("target matched %q, want the identifier then the %d common words", m, len(common))
	}
}

// choose keeps within the posting budget past the strongest clue, searches
// path words only when nothing stronger is left, and searches the strongest
// clue found in some drawer when all are common. Counts are as
// DocFrequencies returns them: a common clue's stops at cut+1.
func TestChooseByDocumentFrequency(t *testing.T) {
	w := func(term string, weight float64) weighted { return weighted{term: term, weight: weight} }
	terms := []weighted{w("ident", weightIdentifier), w("encl", weightEnclosing), w("near1", weightNearby),
		w("near2", weightNearby), w("near3", weightNearby), w("pathword", weightPath)}
	n := 1_000_000
	f := frequencies{n: n}
	if f.cut() != 20_000 {
		t.Fatalf("cut of %d drawers = %d, want 2%%", n, f.cut())
	}
	c := f.cut() + 1 // a common clue's count
	cases := []struct {
		df      []int
		want    []string
		dropped bool
	}{
		// Rare enough and within budget: all but the path word.
		{[]int{5, 10, 20, 30, 40, 50}, []string{"ident", "encl", "near1", "near2", "near3"}, true},
		// The strongest clue is searched past the budget; near1 would
		// overflow it, near2 and near3 fit, rarer first.
		{[]int{15000, 10, 2500, 400, 100, 1}, []string{"ident", "encl", "near3", "near2"}, true},
		// Common clues and clues in no drawer are left out.
		{[]int{c, 0, c, 7, c, 3}, []string{"near2"}, true},
		// Only path words are rare: they are searched.
		{[]int{c, c, c, c, c, 3}, []string{"pathword"}, true},
		// Everything is common: the counts cannot tell which is rarest, so
		// the strongest is searched.
		{[]int{c, c, c, c, c, c}, []string{"ident"}, true},
		// ... the strongest found in some drawer.
		{[]int{0, 0, c, c, c, c}, []string{"near1"}, true},
		// Nothing is in any drawer: the strongest, which finds nothing.
		{[]int{0, 0, 0, 0, 0, 0}, []string{"ident"}, true},
	}
	for _, tc := range cases {
		got, dropped := frequencies{n: n, df: tc.df}.choose(terms)
		if !slices.Equal(names(got), tc.want) || dropped != tc.dropped {
			t.Errorf("df %v: chose %v (dropped %v), want %v (%v)", tc.df, names(got), dropped, tc.want, tc.dropped)
		}
	}
	// Strongest by weight, not by place in the list.
	mixed := []weighted{w("pathword", weightPath), w("near1", weightNearby), w("ident", weightIdentifier)}
	if got, _ := (frequencies{n: n, df: []int{c, c, c}}).choose(mixed); !slices.Equal(names(got), []string{"ident"}) {
		t.Errorf("all common, weakest listed first: chose %v, want [ident]", names(got))
	}
	// A small palace searches its strongest clues whatever their counts.
	if got, _ := (frequencies{n: minIndexed - 1, df: make([]int, len(terms))}).choose(terms); !slices.Equal(names(got), []string{"ident", "encl", "near1", "near2", "near3"}) {
		t.Errorf("small palace chose %v", names(got))
	}
}

func names(ts []weighted) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.term)
	}
	return out
}

// The common cut never falls below minCut drawers: 2% of a palace of a few
// hundred drawers is 1 to 9, which would drop clues held by a handful.
func TestCutHasAFloor(t *testing.T) {
	for _, tc := range []struct{ n, cut int }{
		{minIndexed, minCut}, {80, minCut}, {149, minCut}, {2_000, minCut}, {2_500, 50}, {10_000, 200}, {122_000, 2_440},
	} {
		if got := (frequencies{n: tc.n}).cut(); got != tc.cut {
			t.Errorf("cut of %d drawers = %d, want %d", tc.n, got, tc.cut)
		}
	}
	w := func(term string, weight float64) weighted { return weighted{term: term, weight: weight} }
	terms := []weighted{w("ident", weightIdentifier), w("encl", weightEnclosing), w("near1", weightNearby)}
	for _, n := range []int{80, 120, 400} {
		if got, dropped := (frequencies{n: n, df: []int{2, 3, 3}}).choose(terms); !slices.Equal(names(got), []string{"ident", "encl", "near1"}) || dropped {
			t.Errorf("%d drawers, clues in 2-3 of them: chose %v (dropped %v), want all", n, names(got), dropped)
		}
	}
}

// Through Find on a real index: in a palace of 120 drawers, an identifier
// held by 3 of them is searched and its drawers found (2% of 120 is 2, so
// without the floor it was dropped as common and only the enclosing name,
// in 1 drawer, was searched).
func TestFindInASmallPalaceKeepsAClueHeldByAFew(t *testing.T) {
	p := palacetest.OpenPalace(t)
	ctx := context.Background()
	doc := "package sched\n\nfunc plan() {\n\treturn qzWidgetPlanner.next()\n}\n"
	const path, root = "/proj/sched/plan.go", "/proj"
	pos := at(t, doc, "qzWidgetPlanner")
	var ds []store.Drawer
	add := func(source, content string) string {
		d := store.Drawer{Wing: "proj", Room: "general", Kind: store.KindFile, Source: source, Content: content,
			ContentHash: store.ContentHash(content), CreatedAt: time.Now(), LineStart: 1, LineEnd: 1}
		d.ID = store.DrawerID("proj", source, 1, d.ContentHash)
		ds = append(ds, d)
		return d.ID
	}
	var holders []string
	for i := range 3 {
		holders = append(holders, add(fmt.Sprintf("/proj/notes/n%d.md", i), fmt.Sprintf("qzWidgetPlanner note %d", i)))
	}
	// The enclosing name is in one drawer: rarer, so without the floor it
	// alone was searched.
	add("/proj/sched/old.go", "func plan() was renamed")
	for i := range 116 {
		add(fmt.Sprintf("/proj/other/f%03d.go", i), fmt.Sprintf("unrelated filler%03d", i))
	}
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	res, err := Find(ctx, p, Request{Path: path, Root: root, Text: doc, Start: pos, End: pos, Wing: "proj"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Clues.Identifier != "qzWidgetPlanner" {
		t.Fatalf("clues = %+v, want the identifier qzWidgetPlanner", res.Clues)
	}
	if res.Searched != "" && !slices.Contains(strings.Fields(res.Searched), "qzWidgetPlanner") {
		t.Errorf("searched %q left out the identifier held by 3 of 120 drawers (query %q)", res.Searched, res.Query)
	}
	var got []string
	for _, h := range res.Hits {
		got = append(got, h.ID)
	}
	for _, id := range holders {
		if !slices.Contains(got, id) {
			t.Errorf("drawer %s holding the identifier is missing from the hits %v", id, got)
		}
	}
}
