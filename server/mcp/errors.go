package mcp

import (
	"context"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/store"
)

// toolError turns a core error into a tool execution error (isError: true)
// that the agent reads and can act on. The prefix says what kind of
// failure it was: the spec (SEP-1303) asks for values the tool refuses to
// come back this way, so the model sees them and corrects the call, while
// arguments that break the schema itself get -32602 from the transport.
func toolError(err error) *mcp.CallToolResult {
	prefix := "error: "
	switch {
	case errors.Is(err, input.ErrInvalid):
		prefix = "invalid input: "
	case errors.Is(err, store.ErrNotFound):
		prefix = "not found: "
	case errors.Is(err, ops.ErrConflict):
		prefix = "" // the message begins with "conflict: ", as the CLI prints it
	case errors.Is(err, context.DeadlineExceeded):
		prefix = "timed out: "
	case errors.Is(err, context.Canceled):
		prefix = "cancelled: "
	}
	return errorResult(prefix + err.Error())
}

// invalidf is bad input found by the adapter itself (a path outside the
// roots, a missing wing): the same kind as the core's input errors.
func invalidf(field, format string, a ...any) error { return input.Invalid(field, format, a...) }
