package lsp

import (
	"encoding/json"
	"io"
	"log"

	"github.com/mattn/go-sqlite3"
)

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

func newDiscardLogger() *log.Logger { return log.New(io.Discard, "", 0) }

// busyErr is the error a write gets when another process holds the palace
// longer than the busy timeout.
func busyErr() error { return sqlite3.Error{Code: sqlite3.ErrBusy} }
