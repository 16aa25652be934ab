package mcp

import (
	"context"
	"errors"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/ops"
)

// toolError turns a core error into a tool execution error (isError: true)
// that the agent reads and can act on. The prefix says what kind of
// failure it was: the spec (SEP-1303) asks for values the tool refuses to
// come back this way, so the model sees them and corrects the call, while
// arguments that break the schema itself get -32602 from the transport.
func toolError(err error) *mcp.CallToolResult {
	prefix := "error: "
	switch ops.Classify(err) {
	case ops.Invalid:
		prefix = "invalid input: "
	case ops.NotFound:
		prefix = "not found: "
	case ops.Conflict:
		prefix = "" // the message begins with "conflict: ", as the CLI prints it
	case ops.Busy:
		prefix = "busy: "
	case ops.Cancelled:
		prefix = "cancelled: "
		if errors.Is(err, context.DeadlineExceeded) {
			prefix = "timed out: "
		}
	}
	return errorResult(prefix + err.Error())
}

// invalidf is bad input found by the adapter itself (a path outside the
// roots, a missing wing): the same kind as the core's input errors.
func invalidf(field, format string, a ...any) error { return input.Invalid(field, format, a...) }
