package store

import (
	"context"
	"fmt"
	"reflect"
	"testing"
)

func TestDocFrequenciesCountWhatTheIndexMatches(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	var ds []Drawer
	for i := range 30 {
		content := fmt.Sprintf("common words in drawer %d", i)
		if i < 3 {
			content += " verifies checksums"
		}
		ds = append(ds, drawer("w", fmt.Sprintf("/w/f%d.go", i), 0, content))
	}
	if _, err := s.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	// A deleted drawer leaves the index, and so the counts.
	if err := s.DeleteDrawer(ctx, ds[0].ID); err != nil {
		t.Fatal(err)
	}
	n, err := s.IndexedDrawers(ctx)
	if err != nil || n != 29 {
		t.Fatalf("indexed drawers = %d, %v; want 29", n, err)
	}
	// "checksum" meets "checksums" through the index's stemmer; "common"
	// stops at the cap; an absent word counts 0.
	got, err := s.DocFrequencies(ctx, []string{`("checksum")`, `("verify")`, `("common")`, `("absentword")`}, Filter{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{2, 2, 10, 0}; !reflect.DeepEqual(got, want) {
		t.Errorf("document frequencies = %v, want %v", got, want)
	}
	got, err = s.DocFrequencies(ctx, []string{`("common")`}, Filter{}, 100)
	if err != nil || !reflect.DeepEqual(got, []int{29}) {
		t.Errorf("uncapped count = %v, %v; want [29]", got, err)
	}
	if _, err := s.DocFrequencies(ctx, []string{`("common")`}, Filter{}, 0); err == nil {
		t.Error("upto 0 was accepted")
	}
	if got, err := s.DocFrequencies(ctx, nil, Filter{}, 10); err != nil || len(got) != 0 {
		t.Errorf("no expressions = %v, %v", got, err)
	}
}
