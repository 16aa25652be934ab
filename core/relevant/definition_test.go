package relevant

import (
	"slices"
	"testing"
)

func TestImportsOf(t *testing.T) {
	for _, c := range []struct {
		name, path, text string
		want             []string
	}{
		{"go block and single", "/r/cmd/main.go", "package main\n\nimport \"fmt\"\n\nimport (\n\t\"example.com/m/core/store\"\n\tq \"example.com/m/core/query\"\n)\n\nfunc main() {}\n",
			[]string{"fmt", "example.com/m/core/store", "example.com/m/core/query"}},
		{"typescript", "/r/src/app/cart.ts", "import { a } from \"./pricing\";\nimport type { B } from '../model/b.js';\nimport React from \"react\";\nconst x = require(\"./util\");\nexport { c } from \"./c\";\n",
			[]string{"/r/src/app/pricing", "/r/src/model/b", "react", "/r/src/app/util", "/r/src/app/c"}},
		{"python", "/r/pkg/sub/mod.py", "import os, json as j\nfrom pkg.store import open_db\nfrom . import helpers\nfrom ..core.search import find\n",
			[]string{"os", "json", "pkg/store", "/r/pkg/sub", "/r/pkg/core/search"}},
		{"rust", "/r/src/lib.rs", "use crate::store::Drawer;\npub use super::query::parse;\nuse std::fmt;\n",
			[]string{"store/Drawer", "query/parse", "std/fmt"}},
		{"no imports in code", "/r/a.go", "package a\n\nvar s = \"import x\"\n", nil},
	} {
		if got := importsOf(c.text, c.path); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestUseOfAndQualifier(t *testing.T) {
	for _, c := range []struct{ content, name, want string }{
		{"x := Apply (p, d)", "Apply", "calls"},
		{"var f = Apply", "Apply", "mentions"},
		{"ApplyAll(p); reApply(q)", "Apply", ""},
		{"see Apply; then Apply(x)", "Apply", "calls"},
	} {
		if got := useOf(c.content, c.name); got != c.want {
			t.Errorf("useOf(%q, %q) = %q, want %q", c.content, c.name, got, c.want)
		}
	}
	for _, c := range []struct {
		line, want string
		col        int
	}{
		{"\treturn store.Open(home)", "store", 15},
		{"\tself.flush()", "self", 8},
		{"let r = io::Read::read(x);", "Read", 19},
		{"\tOpen(home)", "", 2},
		{"\t.Open(home)", "", 3},
	} {
		if got := qualifierAt(c.line, c.col); got != c.want {
			t.Errorf("qualifierAt(%q, %d) = %q, want %q", c.line, c.col, got, c.want)
		}
	}
}
