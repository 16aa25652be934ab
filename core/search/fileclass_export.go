package search

import "github.com/palace-dev/palace/core/store"

// Secondary reports whether a drawer is of a class ranked below source
// (a test, a generated file, a lock file or a changelog) and of a class
// other than that of the file at path, so core/relevant orders a place's
// hits by the same file rules as search: from a source file, tests come
// below source; from a test, other tests do not. path may be empty.
// Prose documents are not secondary here: search ranks them below source
// because a typed question shares more words with prose than with the
// code that answers it, but at a place in the code a design note naming
// what is there is as much to the point as the code that calls it, and
// so is a build rule that names it.
func Secondary(d store.Drawer, path string) bool {
	c := classOf(store.Hit{Drawer: d})
	return c != classSource && c != classDocs && c != classBuild && (path == "" || c != classOfPath(path))
}
