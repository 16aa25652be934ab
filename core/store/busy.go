package store

import (
	"errors"

	"github.com/mattn/go-sqlite3"
)

// IsBusy reports a write that gave up because another process (an agent's
// MCP server, an editor's LSP server, a CLI mine) held the palace's write
// lock for longer than the busy timeout. Only the store knows the driver,
// so callers that retry ask here.
func IsBusy(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) {
		return se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked
	}
	return false
}

// IsCorrupt reports an error of a damaged database file (SQLITE_CORRUPT,
// SQLITE_NOTADB): what no rebuild of the derived indexes can mend.
func IsCorrupt(err error) bool {
	var se sqlite3.Error
	if errors.As(err, &se) {
		return se.Code == sqlite3.ErrCorrupt || se.Code == sqlite3.ErrNotADB
	}
	return false
}
