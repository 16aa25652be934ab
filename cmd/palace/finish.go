package main

import (
	"context"
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

// finish ends a command that ran one operation: res as JSON when asJSON,
// else by text, and err with the operation's field named by the flag that
// sets it (main maps it to the exit code of its class). A conflict's
// result (what the fact conflicts with) is printed before its error; any
// other error prints nothing.
func finish[T any](c *cobra.Command, asJSON bool, res T, err error, text func(io.Writer, T)) error {
	if err != nil {
		err = flagError(c, err)
	}
	return finishAsIs(c, asJSON, res, err, text)
}

// finishAsIs is finish keeping the operation's own names in err: the
// commands whose messages name the core's field ("alias ...", "limit
// ...", as their transcripts in testdata pin) end through it, as do
// readOp and writeOp.
func finishAsIs[T any](c *cobra.Command, asJSON bool, res T, err error, text func(io.Writer, T)) error {
	if err != nil && !errors.Is(err, ops.ErrConflict) {
		return err
	}
	out := c.OutOrStdout()
	if asJSON {
		if perr := termsafe.WriteJSON(out, res); perr != nil {
			return perr
		}
	} else {
		text(out, res)
	}
	return err // "conflict: ...", as on every front
}

// readOp opens the palace for reading (a missing home is an error, never
// created), runs op on it, closes it and finishes the command, its error
// as the operation wrote it (finishAsIs).
func readOp[T any](c *cobra.Command, g *globals, asJSON bool, op func(context.Context, *palace.Palace) (T, error), text func(io.Writer, T)) error {
	res, err := readPalace(g, func(p *palace.Palace) (T, error) { return op(c.Context(), p) })
	return finishAsIs(c, asJSON, res, err, text)
}

// writeOp is readOp for a command that may write (and so create the
// palace).
func writeOp[T any](c *cobra.Command, g *globals, asJSON bool, op func(context.Context, *palace.Palace) (T, error), text func(io.Writer, T)) error {
	res, err := withPalace(g, func(p *palace.Palace) (T, error) { return op(c.Context(), p) })
	return finishAsIs(c, asJSON, res, err, text)
}
