package search

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestNewerFirst(t *testing.T) {
	hit := func(id, meta string) Hit { return Hit{ID: id, Metadata: json.RawMessage(meta)} }
	ids := func(hs []Hit) []string {
		var out []string
		for _, h := range hs {
			out = append(out, h.ID)
		}
		return out
	}
	for _, c := range []struct {
		name string
		in   []Hit
		want []string
	}{
		{"already first", []Hit{hit("new", `{"updates":["old"]}`), hit("x", ""), hit("old", "")}, []string{"new", "x", "old"}},
		{"moved before", []Hit{hit("old", ""), hit("x", ""), hit("new", `{"updates":["old"]}`)}, []string{"new", "old", "x"}},
		{"older not hit", []Hit{hit("x", ""), hit("new", `{"updates":["gone"]}`)}, []string{"x", "new"}},
		{"chain", []Hit{hit("a", ""), hit("b", `{"updates":["a"]}`), hit("c", `{"updates":["b"]}`)}, []string{"c", "b", "a"}},
		{"first of several", []Hit{hit("x", ""), hit("o2", ""), hit("o1", ""), hit("n", `{"updates":["o1","o2"]}`)}, []string{"x", "n", "o2", "o1"}},
		{"cycle from an import", []Hit{hit("a", `{"updates":["b"]}`), hit("b", `{"updates":["a"]}`)}, nil},
		{"not json", []Hit{hit("a", ""), hit("b", `{"updates":`)}, []string{"a", "b"}},
	} {
		got := ids(newerFirst(slices.Clone(c.in)))
		if c.want == nil {
			if len(got) != len(c.in) {
				t.Errorf("%s: %v lost hits", c.name, got)
			}
			continue
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
