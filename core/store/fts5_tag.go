//go:build !sqlite_fts5

// Palace's search needs SQLite's FTS5, which github.com/mattn/go-sqlite3
// compiles in only under the build tag sqlite_fts5 (its sqlite3_opt_fts5.go).
// Without the tag SQLite takes two minutes to compile and every search then
// fails with "no such module: fts5". This file stops the build at once
// instead, and names the fix: the go:embed pattern below matches no file on
// purpose, and the go command reports it while loading packages, before it
// compiles anything:
//
//	core/store/fts5_tag.go:NN:12: pattern Palace needs the build tag sqlite_fts5: ...: no matching files found
//
// Build and test with GOFLAGS=-tags=sqlite_fts5 (the Makefile sets it; for
// gopls, "buildFlags": ["-tags=sqlite_fts5"]).

package store

import _ "embed"

//go:embed "Palace needs the build tag sqlite_fts5: export GOFLAGS=-tags=sqlite_fts5 (as the Makefile does)"
var missingFTS5Tag string
