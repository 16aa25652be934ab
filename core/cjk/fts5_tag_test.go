//go:build !sqlite_fts5

// The FTS5 tests here open SQLite directly, so core/store's guard
// (core/store/fts5_tag.go) does not stop them: without the tag go test would
// compile SQLite for two minutes only to skip them. This pattern, which
// matches no file on purpose, fails the package at once and names the fix.

package cjk

import _ "embed"

//go:embed "Palace needs the build tag sqlite_fts5: export GOFLAGS=-tags=sqlite_fts5 (as the Makefile does)"
var missingFTS5Tag string
