package code

import (
	"slices"
	"testing"

	"github.com/palace-dev/palace/core/lang"
)

// core/code parses exactly the types core/lang's table gives a grammar,
// each with a grammar it has, and names them as before: a .tsx is parsed
// by the tsx grammar, a .jsx by JavaScript's, .rake and .gemspec files as
// Ruby.
func TestGrammarsAreTheRegistrys(t *testing.T) {
	var named []string
	for _, ty := range lang.Types() {
		if ty.Grammar == "" {
			continue
		}
		named = append(named, ty.Grammar)
		if _, ok := grammars[ty.Grammar]; !ok {
			t.Errorf("%s: core/lang names grammar %q, which core/code lacks", ty.Name, ty.Grammar)
		}
	}
	for g := range grammars {
		if !slices.Contains(named, g) {
			t.Errorf("grammar %q: no type in core/lang's table is parsed by it", g)
		}
	}
	for path, want := range map[string]string{
		"a/main.go": "go", "a/App.TSX": "tsx", "a/list.jsx": "javascript", "a/x.mts": "typescript",
		"a/t.pyi": "python", "a/lib.h": "c", "a/lib.h++": "cpp", "a/tasks.rake": "ruby", "a/x.gemspec": "ruby",
		"a/init.lua": "", "a/Makefile": "", "a/README.md": "",
	} {
		if got := Language(path); got != want {
			t.Errorf("Language(%s) = %q, want %q", path, got, want)
		}
	}
}
