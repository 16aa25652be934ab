// Package dates reads the dates people and agents type: YYYY-MM-DD or an
// RFC 3339 time. Every front and feature parses them the same way.
package dates

import (
	"errors"
	"regexp"
	"strconv"
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

// lastSecond is the latest instant a stored time can hold.
var lastSecond = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)

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
			// The bound after 9999-12-31 would be year 10000, which the
			// fixed-width stored times cannot hold (it sorts before
			// every other year as text); the day's last second is the
			// same bound in practice.
			if t.Year() > 9999 {
				t = lastSecond
			}
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

var months = map[string]time.Month{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
	"august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
	"oct": 10, "nov": 11, "dec": 12,
}

var (
	isoDay   = regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})\b`)
	dayMonth = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]+)\.?,?\s+(\d{4})\b`)
	monthDay = regexp.MustCompile(`(?i)\b([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b`)
	monthYr  = regexp.MustCompile(`(?i)\b([a-z]+)\.?,?\s+(\d{4})\b`)
)

// Mentioned finds the first date a sentence names ("on 1 February, 2023",
// "March 3rd 2024", "in July 2022", "2026-05-01") and returns the period it
// covers: that day, or that month. ok is false when there is none.
func Mentioned(text string) (from, until time.Time, ok bool) {
	if m := isoDay.FindStringSubmatch(text); m != nil {
		if t, err := time.Parse(DateLayout, m[0]); err == nil {
			return t, t.AddDate(0, 0, 1), true
		}
	}
	day := func(d, mon, y string) (time.Time, bool) {
		month, ok := months[strings.ToLower(mon)]
		if !ok {
			return time.Time{}, false
		}
		dn, _ := strconv.Atoi(d)
		yn, _ := strconv.Atoi(y)
		if dn < 1 || dn > 31 {
			return time.Time{}, false
		}
		t := time.Date(yn, month, dn, 0, 0, 0, 0, time.UTC)
		return t, t.Day() == dn
	}
	if m := dayMonth.FindStringSubmatch(text); m != nil {
		if t, ok := day(m[1], m[2], m[3]); ok {
			return t, t.AddDate(0, 0, 1), true
		}
	}
	if m := monthDay.FindStringSubmatch(text); m != nil {
		if t, ok := day(m[2], m[1], m[3]); ok {
			return t, t.AddDate(0, 0, 1), true
		}
	}
	for _, m := range monthYr.FindAllStringSubmatch(text, -1) {
		if month, ok := months[strings.ToLower(m[1])]; ok {
			y, _ := strconv.Atoi(m[2])
			t := time.Date(y, month, 1, 0, 0, 0, 0, time.UTC)
			return t, t.AddDate(0, 1, 0), true
		}
	}
	return time.Time{}, time.Time{}, false
}
