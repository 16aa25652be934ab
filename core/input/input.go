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
