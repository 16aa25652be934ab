package store

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
)

func TestDefining(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	// As mining and import do (palace.CodeIndex), a file drawer's symbols
	// column holds the names its metadata defines.
	mk := func(wing, kind, source string, pos int, content, meta string) Drawer {
		d := drawer(wing, source, pos, content)
		d.Kind, d.Metadata = kind, meta
		var m struct {
			Defines []struct{ Name string } `json:"defines"`
		}
		if kind == KindFile && json.Unmarshal([]byte(meta), &m) == nil {
			for _, def := range m.Defines {
				d.Code.Symbols += def.Name + "\n"
			}
		}
		return d
	}
	ds := []Drawer{
		mk("p", KindFile, "/p/store.go", 0, "func (s *Store) Close() error { return s.db.Close() }",
			`{"lang":"go","defines":[{"name":"Close","kind":"method"}],"refs":["db"]}`),
		mk("p", KindFile, "/p/conn.go", 0, "func (c *Conn) Close() error { return nil }\nfunc closeAll() {}",
			`{"lang":"go","defines":[{"name":"Close","kind":"method"},{"name":"closeAll","kind":"func"}]}`),
		// Calls Close and lists it among its refs, but defines only run.
		mk("p", KindFile, "/p/main.go", 0, "func run() { st.Close() }",
			`{"lang":"go","defines":[{"name":"run","kind":"func"}],"refs":["Close"]}`),
		// A definition of a longer name holding the word.
		mk("p", KindFile, "/p/pool.go", 0, "func ClosePool() {}", `{"lang":"go","defines":[{"name":"ClosePool","kind":"func"}]}`),
		// The same file in another wing, and a note quoting metadata.
		mk("q", KindFile, "/q/store.go", 0, "func Close() {}", `{"lang":"go","defines":[{"name":"Close","kind":"func"}]}`),
		mk("p", KindNote, "note", 0, "Close closes", `{"defines":[{"name":"Close","kind":"func"}]}`),
		// Malformed metadata and a defines that is not a list of objects.
		mk("p", KindFile, "/p/bad.go", 0, "func Close() {}", `{"defines":[{"name":"Close"`),
		mk("p", KindFile, "/p/odd.go", 0, "Close", `{"defines":["Close"]}`),
		// Names the index has no word for, and one a tokenizer splits.
		mk("p", KindFile, "/p/jq.js", 0, "const $ = (s) => document.querySelector(s)", `{"lang":"javascript","defines":[{"name":"$","kind":"func"}]}`),
		mk("p", KindFile, "/p/h2.py", 0, "def parse_http2_frame(b):\n    pass", `{"lang":"python","defines":[{"name":"parse_http2_frame","kind":"func"}]}`),
		mk("p", KindFile, "/p/gone.go", 0, "func Close() {}", `{"defines":[{"name":"Close","kind":"func"}]}`),
	}
	if _, err := s.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteDrawer(ctx, ds[len(ds)-1].ID); err != nil {
		t.Fatal(err)
	}
	sources := func(name string, f Filter, limit int) []string {
		t.Helper()
		got, err := s.Defining(ctx, name, f, limit)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, d := range got {
			out = append(out, d.Wing+":"+d.Source)
		}
		return out
	}
	for _, c := range []struct {
		name  string
		f     Filter
		limit int
		want  []string
	}{
		{"Close", Filter{Wing: "p"}, 10, []string{"p:/p/conn.go", "p:/p/store.go"}},
		{"Close", Filter{}, 10, []string{"p:/p/conn.go", "p:/p/store.go", "q:/q/store.go"}},
		{"Close", Filter{Wing: "p"}, 1, []string{"p:/p/conn.go"}},
		{"Close", Filter{Wing: "p", Kind: KindNote}, 10, nil},
		{"close", Filter{Wing: "p"}, 10, nil},
		{"closeAll", Filter{}, 10, []string{"p:/p/conn.go"}},
		{"run", Filter{}, 10, []string{"p:/p/main.go"}},
		{"ClosePool", Filter{}, 10, []string{"p:/p/pool.go"}},
		{"$", Filter{}, 10, []string{"p:/p/jq.js"}},
		{"parse_http2_frame", Filter{}, 10, []string{"p:/p/h2.py"}},
		{"parse_http2", Filter{}, 10, nil},
		{`Close"`, Filter{}, 10, nil},
		{"", Filter{}, 10, nil},
		{"Close", Filter{SourcePrefix: "/p/"}, 10, []string{"p:/p/conn.go", "p:/p/store.go"}},
		{"Close", Filter{SourcePrefix: "/p/st"}, 10, []string{"p:/p/store.go"}},
		{"Close", Filter{Wing: "q", SourcePrefix: "/q"}, 10, []string{"q:/q/store.go"}},
		{"$", Filter{SourcePrefix: "/p/j"}, 10, []string{"p:/p/jq.js"}},
		{"Close", Filter{SourcePrefix: "/x/"}, 10, nil},
	} {
		if got := sources(c.name, c.f, c.limit); !slices.Equal(got, c.want) {
			t.Errorf("Defining(%q, %+v, %d) = %q, want %q", c.name, c.f, c.limit, got, c.want)
		}
	}
	after := func(name string, words ...string) []string {
		t.Helper()
		got, err := s.DefiningAfter(ctx, name, words, Filter{Wing: "p", SourcePrefix: "/elsewhere/"}, 10)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, d := range got {
			out = append(out, d.Source)
		}
		return out
	}
	// "(c *Conn) Close" has no word right before Close; "func closeAll"
	// is another name; parse_http2_frame follows def as a phrase.
	for _, c := range []struct {
		name  string
		words []string
		want  []string
	}{
		{"Close", []string{"func", "def"}, nil},
		{"closeAll", []string{"func"}, []string{"/p/conn.go"}},
		{"ClosePool", []string{"def", "func"}, []string{"/p/pool.go"}},
		{"parse_http2_frame", []string{"def"}, []string{"/p/h2.py"}},
		{"run", []string{"class"}, nil},
		{"$", []string{"const"}, nil},
	} {
		if got := after(c.name, c.words...); !slices.Equal(got, c.want) {
			t.Errorf("DefiningAfter(%q, %q) = %q, want %q", c.name, c.words, got, c.want)
		}
	}
	if _, err := s.Defining(ctx, "Close", Filter{}, 0); err == nil {
		t.Errorf("limit 0: no error")
	}
}
