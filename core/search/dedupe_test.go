package search_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
	"github.com/palace-dev/palace/core/vectors"
)

// The same transcript mined into two wings is one hit, at its best rank,
// naming the other wing, in every mode; and the limit counts distinct
// contents, so repeats never leave an answer short (issue #10).
func TestSameContentInTwoWingsIsOneHit(t *testing.T) {
	ctx := context.Background()
	p := openTinyPalace(t)
	// Four transcripts, each in wings one, two and three (twelve drawers),
	// and one only in wing one.
	var ds []store.Drawer
	add := func(wing, text string, pos int) {
		h := store.ContentHash(text)
		src := fmt.Sprintf("/chats/%d.jsonl", pos)
		ds = append(ds, store.Drawer{ID: store.DrawerID(wing, src, pos, h), Wing: wing, Room: "r", Kind: store.KindConversation,
			Source: src, LineStart: 1, LineEnd: 2, Content: text, ContentHash: h})
	}
	for i := range 4 {
		for _, w := range []string{"one", "two", "three"} {
			add(w, fmt.Sprintf("> why retry the upload %d times\nthe upload retries use backoff number %d", i+1, i), i)
		}
	}
	add("one", "> the upload backoff is exponential\nonly here", 9)
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	if _, err := vectors.Fill(ctx, p, vectors.Options{}); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{search.ModeLexical, search.ModeVector, search.ModeHybrid} {
		res, err := search.Run(ctx, p, search.Request{Query: "upload backoff", Mode: mode, Limit: 5})
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if len(res.Hits) != 5 {
			t.Errorf("%s: %d hits, want 5 distinct contents", mode, len(res.Hits))
		}
		seen := map[string]bool{}
		for _, h := range res.Hits {
			if seen[h.Content] {
				t.Errorf("%s: %q comes back twice", mode, h.Content)
			}
			seen[h.Content] = true
			var want []string
			if h.Source != "/chats/9.jsonl" {
				for _, w := range []string{"one", "two", "three"} {
					if w != h.Wing {
						want = append(want, w)
					}
				}
			}
			got := slices.Clone(h.AlsoIn)
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s: hit in %s also_in %v, want %v", mode, h.Wing, h.AlsoIn, want)
			}
		}
	}
	// A wing filter sees only its own copy: nothing to fold.
	res, err := search.Run(ctx, p, search.Request{Query: "upload backoff", Mode: search.ModeLexical, Filter: store.Filter{Wing: "two"}})
	if err != nil || len(res.Hits) != 4 || res.Hits[0].AlsoIn != nil {
		t.Errorf("wing two: %+v %v", res.Hits, err)
	}
}
