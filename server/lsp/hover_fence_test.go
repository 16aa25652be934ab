package lsp

import (
	"testing"

	"github.com/palace-dev/palace/core/lang"
	"github.com/palace-dev/palace/core/ops"
)

// A hover's fence names the language of the drawer's file as core/lang's
// table does, for every extension of source code (a .pyi, .cxx or .mts
// was text), and keeps the fences of JSX and TSX; notes are text.
func TestHoverFenceAsksTheRegistry(t *testing.T) {
	for _, c := range []struct{ kind, source, want string }{
		{ops.KindFile, "/src/app/List.jsx", "jsx"},
		{ops.KindFile, "/src/app/Main.tsx", "tsx"},
		{ops.KindFile, "/src/app/main.mts", "typescript"},
		{ops.KindFile, "/src/stubs/api.pyi", "python"},
		{ops.KindFile, "/src/core/table.cxx", "cpp"},
		{ops.KindFile, "/src/install.sh", "sh"},
		{ops.KindFile, "/src/palace-eglot.el", "elisp"},
		{ops.KindFile, "/src/data.xyz", "text"},
		{ops.KindNote, "note.go", "text"},
	} {
		if got := fenceLang(c.kind, c.source); got != c.want {
			t.Errorf("fenceLang(%s, %s) = %q, want %q", c.kind, c.source, got, c.want)
		}
	}
	for _, ty := range lang.Types() {
		for _, e := range ty.Exts {
			if ty.Kind == lang.Code && fenceLang(ops.KindFile, "/src/x"+e) == "text" {
				t.Errorf("%s (%s): source code fenced as text", e, ty.Name)
			}
		}
	}
}
