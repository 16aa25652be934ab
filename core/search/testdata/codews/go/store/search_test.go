package store

import "testing"

func TestSearchFTS(t *testing.T) {
	s := &Store{docs: []string{"alpha beta"}}
	if len(s.SearchFTS("alpha")) != 1 || len(s.SearchFTS("zeta")) != 0 {
		t.Fatal("SearchFTS")
	}
	_ = s.SearchFTS("beta")
}
