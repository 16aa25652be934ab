package lang

import (
	"path"
	"slices"
	"strings"
	"testing"
)

// The table is sorted by name, names are unique, and no extension or file
// name is in two rows: a file has one type, found where a reader of the
// table looks for it.
func TestTableSortedAndUnique(t *testing.T) {
	names := map[string]bool{}
	exts := map[string]string{}
	files := map[string]string{}
	for i, ty := range types {
		if i > 0 && types[i-1].Name >= ty.Name {
			t.Errorf("row %d: %q comes after %q: keep the table sorted by name", i, ty.Name, types[i-1].Name)
		}
		if ty.Name == "" || ty.Name != strings.ToLower(ty.Name) {
			t.Errorf("row %d: name %q: want a lower-case name", i, ty.Name)
		}
		names[ty.Name] = true
		if ty.Kind == Unknown {
			t.Errorf("%s: no kind", ty.Name)
		}
		if ty.Fence == "" {
			t.Errorf("%s: no Markdown fence (text, for a type no highlighter knows)", ty.Name)
		}
		if len(ty.Exts) == 0 && len(ty.Names) == 0 {
			t.Errorf("%s: neither extensions nor file names", ty.Name)
		}
		if !slices.IsSorted(ty.Exts) || !slices.IsSorted(ty.Names) {
			t.Errorf("%s: sort its extensions and file names", ty.Name)
		}
		for _, e := range ty.Exts {
			if len(e) < 2 || e[0] != '.' || e != strings.ToLower(e) || strings.ContainsAny(e[1:], "./*") {
				t.Errorf("%s: extension %q: want a lower-case \".ext\"", ty.Name, e)
			}
			if other, ok := exts[e]; ok {
				t.Errorf("%s is in %s and %s", e, other, ty.Name)
			}
			exts[e] = ty.Name
		}
		for _, n := range ty.Names {
			if n != strings.ToLower(n) || strings.Contains(n, "/") {
				t.Errorf("%s: file name %q: want a lower-case base name", ty.Name, n)
			}
			if _, err := path.Match(n, ""); err != nil {
				t.Errorf("%s: file name pattern %q: %v", ty.Name, n, err)
			}
			if other, ok := files[n]; ok {
				t.Errorf("%s is in %s and %s", n, other, ty.Name)
			}
			files[n] = ty.Name
		}
		if ty.Grammar != "" && ty.Kind != Code {
			t.Errorf("%s: a grammar for what is not code", ty.Name)
		}
	}
	for _, ty := range types {
		if ty.Lang != "" && (!names[ty.Lang] || ty.Lang == ty.Name) {
			t.Errorf("%s: Lang %q names no other row", ty.Name, ty.Lang)
		}
	}
}

func TestLookups(t *testing.T) {
	for _, c := range []struct {
		path, name, lang, fence, grammar string
		kind                             Kind
	}{
		{"/src/core/search.go", "go", "go", "go", "go", Code},
		{"/src/app/Main.TSX", "tsx", "typescript", "tsx", "tsx", Code},
		{"/src/app/main.mts", "typescript", "typescript", "typescript", "typescript", Code},
		{"/src/app/List.jsx", "jsx", "javascript", "jsx", "javascript", Code},
		{"/src/install.sh", "shell", "shell", "sh", "", Code},
		{"/src/lib.h", "c", "c", "c", "c", Code},
		{"/src/lib.h++", "cpp", "cpp", "cpp", "cpp", Code},
		{"/src/tasks.rake", "ruby", "ruby", "ruby", "ruby", Code},
		{"/src/init.lua", "lua", "lua", "lua", "", Code},
		{"/src/palace.el", "elisp", "elisp", "elisp", "", Code},
		{"/src/README.md", "markdown", "markdown", "markdown", "", Prose},
		{"/src/page.MDX", "markdown", "markdown", "markdown", "", Prose},
		{"/src/config.yml", "yaml", "yaml", "yaml", "", Data},
		// Build files are found by name, then extension, then pattern,
		// and name no language.
		{"/src/Makefile", "make", "", "makefile", "", Build},
		{"/src/Makefile.in", "make", "", "makefile", "", Build},
		{"/src/Makefile.PL", "perl", "perl", "perl", "", Code},
		{"/src/Makefile.am", "automake", "", "makefile", "", Build},
		{"/src/CMakeLists.txt", "cmake", "", "cmake", "", Build},
		{"/src/notes.txt", "text", "text", "text", "", Prose},
		{"/src/data.xyz", "", "", "text", "", Unknown},
		{"/src/LICENSE", "", "", "text", "", Unknown},
	} {
		ty := ByPath(c.path)
		if ty.Name != c.name || Of(c.path) != c.lang || Fence(c.path) != c.fence || ty.Grammar != c.grammar || ty.Kind != c.kind {
			t.Errorf("%s: type %q, language %q, fence %q, grammar %q, kind %d; want %q, %q, %q, %q, %d",
				c.path, ty.Name, Of(c.path), Fence(c.path), ty.Grammar, ty.Kind, c.name, c.lang, c.fence, c.grammar, c.kind)
		}
	}
	if !IsCodeExt(".GO") || !IsCodeExt(".proto") || IsCodeExt(".md") || IsCodeExt(".json") || IsCodeExt("") {
		t.Error("IsCodeExt: want .GO and .proto code, .md, .json and no extension not")
	}
	if ByName("Makefile.PL").Name != "make" || ByExt(".PL").Name != "perl" {
		t.Error("ByName and ByExt answer each for its own part of a name")
	}
}
