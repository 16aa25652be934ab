package clitest

import (
	"fmt"
	"unicode/utf8"
)

// TerminalHazard returns the first thing in s a terminal would act on, or
// that would reorder or forge what it shows: a C0 control but LF and TAB,
// DEL, a C1 control, a line or paragraph separator, a bidi embedding,
// override or isolate, or a byte of invalid UTF-8. It is written apart
// from cmd/internal/termsafe on purpose, so the sanitiser is not its own
// judge.
func TerminalHazard(s string) (string, bool) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		bad := false
		switch {
		case r == utf8.RuneError && n == 1:
			bad = true
		case r == '\n' || r == '\t':
		case r < 0x20, r >= 0x7f && r <= 0x9f, r == 0x2028, r == 0x2029:
			bad = true
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			bad = true
		}
		if bad {
			return fmt.Sprintf("%q at byte %d", s[i:i+n], i), true
		}
		i += n
	}
	return "", false
}
