package relevant

import (
	"slices"
	"strings"
	"testing"
)

func TestImportsOf(t *testing.T) {
	for _, c := range []struct {
		name, path, text string
		want             []string // name=path|path...
	}{
		{"go block and single", "/r/cmd/main.go", "package main\n\nimport \"fmt\"\n\nimport (\n\t\"example.com/m/core/store\"\n\tq \"example.com/m/core/query\"\n\t_ \"embed\"\n\t\"github.com/a/go-yaml/v3\"\n)\n\nfunc main() {}\n",
			[]string{"fmt=fmt", "store=example.com/m/core/store", "q=example.com/m/core/query", "=embed", "yaml=github.com/a/go-yaml/v3"}},
		{"typescript", "/r/src/app/cart.ts", "import { a } from \"./pricing\";\nimport type { B } from '../model/b.js';\nimport React from \"react\";\nimport * as fs from \"node:fs\";\nconst util = require(\"./util\");\nexport { c } from \"./c\";\n",
			[]string{"=/r/src/app/pricing", "=/r/src/model/b", "React=react", "fs=node:fs", "util=/r/src/app/util", "=/r/src/app/c"}},
		{"python", "/r/pkg/sub/mod.py", "import os, json as j\nimport os.path\nfrom pkg.store import open_db, Store as S\nfrom . import helpers\nfrom ..core.search import find\n",
			[]string{"os=os", "j=json", "=os/path", "open_db=pkg/store/open_db|pkg/store", "S=pkg/store/Store|pkg/store",
				"helpers=/r/pkg/sub/helpers|/r/pkg/sub", "find=/r/pkg/core/search/find|/r/pkg/core/search"}},
		{"rust", "/r/src/lib.rs", "use crate::store::Drawer;\npub use super::query::parse as p;\nuse std::fmt;\n" +
			"pub(crate) use crate::text::{self, Label, fmt::Pad as P};\nuse std::io::{\n    Read,\n};\nuse crate::{Determinacy, Finalize};\n",
			[]string{"Drawer=store/Drawer|store", "p=query/parse|query", "fmt=std/fmt|std|fmt",
				"text=text", "Label=text/Label|text", "P=text/fmt/Pad|text/fmt"}},
		{"no imports in code", "/r/a.go", "package a\n\nvar s = \"import x\"\n", nil},
	} {
		var got []string
		for _, imp := range importsOf(c.text, c.path) {
			got = append(got, imp.name+"="+strings.Join(imp.paths, "|"))
		}
		if !slices.Equal(got, c.want) {
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
