// Package input holds the error type every core feature returns for bad
// input, so a front can tell "you asked wrongly" (exit 2, JSON-RPC invalid
// params) from "it failed", whatever feature refused.
package input

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// ErrInvalid is matched (errors.Is) by every error about bad input.
var ErrInvalid = errors.New("invalid input")

// Error is bad input in one field. Nothing is written when one is returned.
type Error struct {
	Field string
	Msg   string
}

func (e *Error) Error() string { return e.Field + " " + e.Msg }

// Is makes errors.Is(err, ErrInvalid) true.
func (e *Error) Is(target error) bool { return target == ErrInvalid }

// Invalid builds an *Error for field.
func Invalid(field, format string, a ...any) error {
	return &Error{Field: field, Msg: fmt.Sprintf(format, a...)}
}

// Quote shows a user value in an error message, shortened so a long value
// never floods the terminal.
func Quote(s string) string {
	const max = 40
	if utf8.RuneCountInString(s) > max {
		return fmt.Sprintf("%q...", string([]rune(s)[:max]))
	}
	return fmt.Sprintf("%q", s)
}

// Rename gives a core field the name a front's caller used for it (MCP's
// "content" is the core's "text"), so the error names what the caller can
// fix. Other errors pass through unchanged.
func Rename(err error, names map[string]string) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	to, ok := names[e.Field]
	if !ok {
		return err
	}
	return &Error{Field: to, Msg: e.Msg}
}
