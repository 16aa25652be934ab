// Package memory is what an agent writes and reads at the edges of a
// session: notes it decides to remember (with a duplicate check before the
// write), a diary per agent, and the wake-up text that opens a session
// (identity, then the project's handoff, within a token budget).
//
// Package ops wraps these functions as operations (busy retries, the
// choice of near-duplicate finders), which the CLI, MCP and LSP fronts
// call and only format. Bad input returns an error matching ErrInvalid,
// and nothing is written.
package memory

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/route"
)

// Limits on input. A note is a memory, not a file: anything above MaxText
// belongs in 'palace mine'. Checking sizes first means a huge input is
// never scanned or echoed back.
const (
	MaxTextBytes   = 1 << 20            // note and diary text
	MaxNameBytes   = route.MaxNameBytes // wing, room, topic
	MaxAgentBytes  = 100                // keeps "diary-<agent>" within MaxNameBytes
	MaxSourceBytes = 1024               // a note's source (a path, a URL, a title)
)

// ErrInvalid is matched (errors.Is) by every error about bad input.
var ErrInvalid = input.ErrInvalid

// InputError is bad input in one field; nothing is written when one is
// returned.
type InputError = input.Error

func invalid(field, format string, a ...any) error { return input.Invalid(field, format, a...) }

func quote(s string) string { return input.Quote(s) }

// checkText validates a note's or diary entry's text and returns it with
// surrounding white space removed (it carries no meaning, and keeping it
// would make "x" and "x\n" different notes). Tabs and line breaks are text;
// other control characters are not.
func checkText(field, s string) (string, error) {
	if len(s) > MaxTextBytes {
		return "", invalid(field, "is %d bytes; the limit is %d (1 MiB): mine a file instead ('palace mine')", len(s), MaxTextBytes)
	}
	if !utf8.ValidString(s) {
		return "", invalid(field, "is not valid UTF-8")
	}
	for _, r := range s {
		if unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r' {
			return "", invalid(field, "contains the control character %U", r)
		}
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return "", invalid(field, "is empty")
	}
	return s, nil
}

// checkName validates a wing, room or topic name and returns it without
// the spaces around it. The rules are route.CheckName's, so that a room the
// taxonomy accepts can be remembered into, and the other way round ('/'
// matters here too: a wing names a file, the per-wing identity
// $PALACE_HOME/identity/<wing>.md). Only spaces are trimmed: a tab or line
// break at either end is a control character, refused with the rest. An
// empty name is allowed only when optional.
func checkName(field, s string, optional bool) (string, error) {
	s = strings.Trim(s, " ")
	if s == "" {
		if optional {
			return "", nil
		}
		return "", invalid(field, "is empty")
	}
	if err := route.CheckName(field, s); err != nil {
		// route's message starts with what it checked, the field's name;
		// as an InputError, fronts can name the field as their caller
		// knows it (--wing).
		return "", invalid(field, "%s", strings.TrimPrefix(err.Error(), field+" "))
	}
	return s, nil
}

// checkLabel refuses invalid UTF-8 and control characters in a one-line
// value.
func checkLabel(field, s string) error {
	if !utf8.ValidString(s) {
		return invalid(field, "is not valid UTF-8")
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return invalid(field, "contains the control character %U", r)
		}
	}
	return nil
}

// stamp is when a note or diary entry is recorded: at (now when zero), in
// UTC. The stored time is kept to the second, like every time Palace
// parses, so stored values compare as text; the nanoseconds still go into
// the drawer id.
func stamp(at time.Time) (full, stored time.Time) {
	if at.IsZero() {
		at = time.Now()
	}
	at = at.UTC()
	return at, at.Truncate(time.Second)
}

// ReadText reads a note's or diary entry's text from r (a front's standard
// input). It stops after MaxTextBytes+1 bytes, so an endless or huge input
// is refused without being read whole.
func ReadText(r io.Reader) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxTextBytes+1))
	if err != nil {
		return "", fmt.Errorf("read text: %w", err)
	}
	if len(b) > MaxTextBytes {
		return "", invalid("text", "is over the %d-byte (1 MiB) limit: mine a file instead ('palace mine')", MaxTextBytes)
	}
	return string(b), nil
}
