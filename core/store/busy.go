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
