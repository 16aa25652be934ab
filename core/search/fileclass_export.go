package search

import "github.com/palace-dev/palace/core/store"

// Secondary reports whether a drawer is of a class ranked below source
// (a test, a generated file, a lock file or a changelog) and of a class
// other than that of the file at path, so core/relevant orders a place's
// hits by the same file rules as search: from a source file, tests come
// below source; from a test, other tests do not. path may be empty.
func Secondary(d store.Drawer, path string) bool {
	c := classOf(store.Hit{Drawer: d})
	return c != classSource && (path == "" || c != classOfPath(path))
}
