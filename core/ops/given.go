package ops

import "github.com/palace-dev/palace/core/input"

// CheckGiven refuses a count the caller wrote explicitly as 0, or out of
// 1..max. In a request, 0 means "not given: use the default"; a front
// whose callers can write 0 (a flag, a JSON field) calls CheckGiven for
// the values they gave, so an explicit 0 is out of range on every front,
// as the MCP schemas' minimum of 1 makes it there.
func CheckGiven(field string, n, max int) error {
	if n < 1 || n > max {
		return input.Invalid(field, "%d: want 1 to %d", n, max)
	}
	return nil
}
