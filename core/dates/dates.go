// Package dates reads the dates people and agents type: YYYY-MM-DD or an
// RFC 3339 time. Every front and feature parses them the same way.
package dates

import (
	"errors"
	"strings"
	"time"
	"unicode/utf8"
)

// Accepted forms. A datetime without a zone is read as UTC; one with a zone
// is converted to UTC. Times are kept to the second so stored values sort as
// text.
const (
	DateLayout      = "2006-01-02"
	localTimeLayout = "2006-01-02T15:04:05"
	maxLen          = 64
)

// ErrFormat says what a date should look like.
var ErrFormat = errors.New("want YYYY-MM-DD or an RFC 3339 time such as 2026-05-01T09:30:00Z")

// Parse reads a date or datetime. A date-only value is that day's start
// (00:00 UTC), or, with endOfDay, the next day's start, so an exclusive
// upper bound of "2026-05-01" still covers all of May 1. "" gives the zero
// time and no error.
func Parse(s string, endOfDay bool) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if len(s) > maxLen || !utf8.ValidString(s) {
		return time.Time{}, ErrFormat
	}
	if t, err := time.Parse(DateLayout, s); err == nil {
		if endOfDay {
			t = t.AddDate(0, 0, 1)
		}
		return t, nil
	}
	for _, layout := range []string{time.RFC3339, localTimeLayout} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC().Truncate(time.Second), nil
		}
	}
	return time.Time{}, ErrFormat
}
