package bench

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/palace-dev/palace/core/ops"
)

// A tiny repository whose eligible calls are known: Total and checkout are
// defined once and called from other files; Apply is defined twice (never
// asked about); a call in a comment or a string, the definition's own file
// and errors.New (the standard library's, not the repository's New) are
// left out.
func TestRelevantOnATinyRepository(t *testing.T) {
	files := map[string]string{
		"go.mod": "module example.com/shop\n\ngo 1.22\n",
		"pricing/pricing.go": `package pricing

// Total adds up prices. A call in a comment: Total(nothing).
func Total(prices []int) int {
	s := 0
	for _, p := range prices {
		s += p
	}
	return s
}

// New is a price list.
func New() []int { return nil }

func Apply(p int) int { return Total([]int{p}) }
`,
		"legacy/legacy.go": "package legacy\n\nfunc Apply(p int) int { return p }\n",
		"cart/cart.go": `package cart

import (
	"errors"

	"example.com/shop/pricing"
)

var errEmpty = errors.New("empty cart")

func Sum(items []int) (int, error) {
	if len(items) == 0 {
		return 0, errEmpty
	}
	msg := "pricing.Total(items) in a string"
	_ = msg
	return pricing.Total(items) + pricing.Apply(1), nil
}
`,
		"app/main.py": `from shop.checkout import checkout

# checkout(cart) in a comment
def run(cart):
    return checkout(cart)
`,
		"shop/checkout.py": "def checkout(cart):\n    \"\"\"checkout(x) in a docstring.\"\"\"\n    return sum(cart)\n",
	}
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := Relevant(context.Background(), RelevantOptions{Repo: dir, Max: 10})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range r.ByCall {
		got = append(got, c.File+" "+c.Name+" -> "+c.Definition)
	}
	sort.Strings(got)
	want := []string{
		"app/main.py checkout -> shop/checkout.py:1-3",
		"cart/cart.go Total -> pricing/pricing.go:1-15",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("calls asked about:\n%q\nwant\n%q", got, want)
	}
	if r.Calls != 2 || r.Eligible != 2 || r.OtherPackage != 1 || r.First != 1 || r.Top3 != 1 {
		t.Errorf("report %+v, want 2 calls, 1 of another package, every definition first", *r)
	}
	if r, err = Relevant(context.Background(), RelevantOptions{Repo: dir, Max: 1}); err != nil || r.Calls != 1 {
		t.Errorf("--max 1: %d calls, %v", r.Calls, err)
	}
}

func TestSampleSpreadsAcrossFiles(t *testing.T) {
	var sites []callSite
	for i := range 5 {
		sites = append(sites, callSite{file: "a.go", name: "f", at: relevantPos(i)}, callSite{file: "b.go", name: "g", at: relevantPos(i)})
	}
	sites = append(sites, callSite{file: "c.go", name: "h"})
	got := sample(sites, 3)
	files := map[string]int{}
	for _, s := range got {
		files[s.file]++
	}
	if len(got) != 3 || files["a.go"] != 1 || files["b.go"] != 1 || files["c.go"] != 1 {
		t.Errorf("sample of 3 = %v, want one call of each file", got)
	}
	if again := sample(sites, 3); !reflect.DeepEqual(again, got) {
		t.Errorf("sample is not deterministic: %v then %v", got, again)
	}
	if all := sample(sites, 100); len(all) != len(sites) {
		t.Errorf("sample of 100 took %d of %d", len(all), len(sites))
	}
}

func relevantPos(line int) ops.Position { return ops.Position{Line: line} }
