// Package ops is the contract every front speaks. Each operation a user can
// ask for (search, get, remember, forget, purge, mine, taxonomy, knowledge
// graph, diary, agents, wake-up, status, export, import) is one request
// type with a Validate method that names the bad field, one result type,
// one set of defaults and limits, and one function that does the whole
// job, busy retries and follow-up work such as embedding after a mine
// included.
//
// The CLI (cmd/palace), the MCP server (server/mcp) and the LSP server
// (server/lsp) only translate their callers' names into a request and
// encode the result, so the same input has the same outcome on every
// front. The allowed values of every enumerated field are published here
// once, and the fronts build their schemas, flag help and docs from them.
package ops

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/store"
)

// The kinds of drawer: a project file's chunk, a conversation's exchange,
// a note an agent or person remembered, a diary entry.
const (
	KindFile         = store.KindFile
	KindConversation = store.KindConversation
	KindNote         = store.KindNote
	KindDiary        = store.KindDiary
)

// Kinds are the kinds of drawer, in the order help text lists them.
var Kinds = store.DrawerKinds()

// Errors every front maps to its own codes (see Classify).
var (
	// ErrNotFound: an id or name that names nothing.
	ErrNotFound = store.ErrNotFound
	// ErrConflict: a knowledge-graph fact contradicts one already held;
	// nothing was written.
	ErrConflict = kg.ErrConflict
	// ErrBusy: another process held the palace's write lock for longer
	// than the operation was willing to wait; nothing was written.
	ErrBusy = errors.New("the palace is busy")
)

// Outcome classes, as Classify names them. Fronts map them to exit codes
// and protocol errors; the cross-front test compares them.
const (
	OK        = "ok"
	Invalid   = "invalid"
	NotFound  = "not_found"
	Conflict  = "conflict"
	Busy      = "busy"
	Cancelled = "cancelled"
	Failed    = "error"
)

// Classify names the outcome class of an operation's error.
func Classify(err error) string {
	switch {
	case err == nil:
		return OK
	case errors.Is(err, input.ErrInvalid):
		return Invalid
	case errors.Is(err, ErrNotFound):
		return NotFound
	case errors.Is(err, ErrConflict):
		return Conflict
	case errors.Is(err, ErrBusy):
		return Busy
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return Cancelled
	}
	return Failed
}

// OneOf lists allowed values for help text and errors: "a, b or c".
func OneOf(vals []string) string {
	switch len(vals) {
	case 0:
		return ""
	case 1:
		return vals[0]
	}
	return strings.Join(vals[:len(vals)-1], ", ") + " or " + vals[len(vals)-1]
}

// checkEnum accepts "" (the default) or one of allowed.
func checkEnum(field, v string, allowed []string) error {
	if v == "" {
		return nil
	}
	for _, a := range allowed {
		if v == a {
			return nil
		}
	}
	return input.Invalid(field, "%s: want %s", input.Quote(v), OneOf(allowed))
}

// checkLimit accepts 0 (the default) or 1..max.
func checkLimit(field string, n, max int) error {
	if n < 0 || n > max {
		return input.Invalid(field, "%d: want 1 to %d", n, max)
	}
	return nil
}

// checkText refuses a blank required text field.
func checkText(field, v string) error {
	if strings.TrimSpace(v) == "" {
		return input.Invalid(field, "is empty")
	}
	return nil
}

// BusyWait is how long a write waits in all for a palace another process
// is writing, on top of each attempt's own SQLite busy timeout.
const BusyWait = 2 * time.Minute

// retryBusy runs a write until it succeeds, fails for another reason, ctx
// ends or BusyWait has passed. The core's writes are single transactions,
// so running one again is safe; a busy palace is a wait, never a lost
// write.
func retryBusy[T any](ctx context.Context, what string, fn func() (T, error)) (T, error) {
	deadline := time.Now().Add(BusyWait)
	delay := 50 * time.Millisecond
	for {
		v, err := fn()
		if err == nil || !store.IsBusy(err) {
			return v, err
		}
		if ctx.Err() != nil || time.Now().After(deadline) {
			return v, fmt.Errorf("%s: %w (another process has been writing for over %s; nothing was written): %v", what, ErrBusy, BusyWait, err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(delay):
		}
		delay = min(delay*2, 2*time.Second)
	}
}
