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

var weekdays = map[string]time.Weekday{
	"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday,
	"thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday,
}

// walkTo steps from d by step days (1 or -1) until it is a wd; d itself
// when it is one.
func walkTo(d time.Time, wd time.Weekday, step int) time.Time {
	for d.Weekday() != wd {
		d = d.AddDate(0, 0, step)
	}
	return d
}

var (
	isoDay   = regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})\b`)
	dayMonth = regexp.MustCompile(`(?i)\b(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]+)\.?(?:,\s*|\s+)(\d{4})\b`)
	monthDay = regexp.MustCompile(`(?i)\b([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:,\s*|\s+)(\d{4})\b`)
	monthYr  = regexp.MustCompile(`(?i)\b([a-z]+)\.?,?\s+(\d{4})\b`)
	// A day without its year, completed from the date after it in a range.
	dayNoYear = regexp.MustCompile(`(?i)^(?:\d{1,2}(?:st|nd|rd|th)?\s+[a-z]+|[a-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?)$`)
	between   = regexp.MustCompile(`(?i)\b(?:between|from)\s+(.+?)\s+(?:and|to|until|till)\s+(.+)`)
	around    = regexp.MustCompile(`(?i)\b(day|week|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\s+(before|after)\s+(.+)`)
	partOf    = regexp.MustCompile(`(?i)\b(` + parts + `)(?:\s+of\s+|-|\s+)([a-z]+\.?,?\s+\d{4})\b`)
	season    = regexp.MustCompile(`(?i)\b(spring|summer|autumn|fall|winter)\s+(?:of\s+)?(\d{4})\b`)
	year      = regexp.MustCompile(`(?i)\b(?:in|during|throughout|since|of|year)\s+((?:19|20)\d{2})\b`)
)

// Mentioned finds the first period a sentence names and returns it:
//   - a day ("on 1 February, 2023", "March 3rd 2024", "December 1,2023",
//     "2026-05-01"), or a month ("in July 2022");
//   - a range ("between August 11 and August 15 2023", "from 3 May to
//     9 May 2024": the first date takes the second's year when it has
//     none);
//   - a span beside a date ("the week before 16 November 2023", "the day
//     after 2 May 2024", "the Sunday before October 25, 2022");
//   - part of a month ("the beginning of November 2022": days 1-10;
//     middle: 11-20; end, late: 21 on; first and second half; "the
//     second week of November 2023": days 8-14, the last week its last
//     7 days);
//   - a season of the northern hemisphere ("summer 2021": June to
//     August) or a year ("in 2023").
//
// until is exclusive. ok is false when there is none.
func Mentioned(text string) (from, until time.Time, ok bool) {
	if m := between.FindStringSubmatch(text); m != nil {
		if from2, until2, ok2 := day(m[2]); ok2 {
			if from1, _, ok1 := day(m[1]); ok1 && from1.Before(until2) {
				return from1, until2, true
			}
			if dayNoYear.MatchString(strings.TrimSpace(m[1])) {
				if from1, _, ok1 := day(m[1] + " " + strconv.Itoa(from2.Year())); ok1 && from1.Before(until2) {
					return from1, until2, true
				}
			}
		}
	}
	if m := around.FindStringSubmatch(text); m != nil {
		if f, u, ok := day(m[3]); ok {
			before := strings.EqualFold(m[2], "before")
			unit := strings.ToLower(m[1])
			if wd, ok := weekdays[unit]; ok {
				// The nearest such weekday on that side of the date.
				d := walkTo(f.AddDate(0, 0, -1), wd, -1)
				if !before {
					d = walkTo(u, wd, 1)
				}
				return d, d.AddDate(0, 0, 1), true
			}
			step := map[string][2]int{"day": {0, 1}, "week": {0, 7}, "month": {1, 0}}[unit]
			if before {
				return f.AddDate(0, -step[0], -step[1]), f, true
			}
			return u, u.AddDate(0, step[0], step[1]), true
		}
	}
	if m := partOf.FindStringSubmatch(text); m != nil {
		if f, u, ok := month(m[2]); ok {
			f, u = within(m[1], f, u)
			return f, u, true
		}
	}
	if m := season.FindStringSubmatch(text); m != nil {
		y, _ := strconv.Atoi(m[2])
		first := map[string]time.Month{"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}[strings.ToLower(m[1])]
		f := time.Date(y, first, 1, 0, 0, 0, 0, time.UTC)
		return f, f.AddDate(0, 3, 0), true
	}
	if f, u, ok := day(text); ok {
		return f, u, true
	}
	if f, u, ok := month(text); ok {
		return f, u, true
	}
	if m := year.FindStringSubmatch(text); m != nil {
		y, _ := strconv.Atoi(m[1])
		f := time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
		return f, f.AddDate(1, 0, 0), true
	}
	return time.Time{}, time.Time{}, false
}

// parts are the parts of a month a period can name (see within).
const parts = `beginning|start|early|first half|middle|mid|second half|end|late|(?:first|second|third|fourth|last)\s+week`

// within narrows the month [f, u) to the part of it named by part (one of
// parts, any case); the whole month for "".
func within(part string, f, u time.Time) (time.Time, time.Time) {
	switch strings.Join(strings.Fields(strings.ToLower(part)), " ") {
	case "":
		return f, u
	case "beginning", "start", "early":
		return f, f.AddDate(0, 0, 10)
	case "first half":
		return f, f.AddDate(0, 0, 15)
	case "middle", "mid":
		return f.AddDate(0, 0, 10), f.AddDate(0, 0, 20)
	case "second half":
		return f.AddDate(0, 0, 15), u
	case "first week":
		return f, f.AddDate(0, 0, 7)
	case "second week":
		return f.AddDate(0, 0, 7), f.AddDate(0, 0, 14)
	case "third week":
		return f.AddDate(0, 0, 14), f.AddDate(0, 0, 21)
	case "fourth week":
		return f.AddDate(0, 0, 21), f.AddDate(0, 0, 28)
	case "last week":
		return u.AddDate(0, 0, -7), u
	default: // end, late
		return f.AddDate(0, 0, 20), u
	}
}

// day finds the first day text names, as the period of that day.
func day(text string) (from, until time.Time, ok bool) {
	if m := isoDay.FindStringSubmatch(text); m != nil {
		if t, err := time.Parse(DateLayout, m[0]); err == nil {
			return t, t.AddDate(0, 0, 1), true
		}
	}
	at := func(d, mon, y string) (time.Time, bool) {
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
		if t, ok := at(m[1], m[2], m[3]); ok {
			return t, t.AddDate(0, 0, 1), true
		}
	}
	if m := monthDay.FindStringSubmatch(text); m != nil {
		if t, ok := at(m[2], m[1], m[3]); ok {
			return t, t.AddDate(0, 0, 1), true
		}
	}
	return time.Time{}, time.Time{}, false
}

// month finds the first month text names with its year ("July 2022"), as
// the period of that month.
func month(text string) (from, until time.Time, ok bool) {
	for _, m := range monthYr.FindAllStringSubmatch(text, -1) {
		if month, ok := months[strings.ToLower(m[1])]; ok {
			y, _ := strconv.Atoi(m[2])
			t := time.Date(y, month, 1, 0, 0, 0, 0, time.UTC)
			return t, t.AddDate(0, 1, 0), true
		}
	}
	return time.Time{}, time.Time{}, false
}

// bareMonth is a month named without a year after a word that places
// something in it ("camping in June", "early March"). Only capitalised:
// "may" is mostly a verb.
var bareMonth = regexp.MustCompile(`\b(?:[Ii]n|[Dd]uring|[Oo]f|[Ss]ince|[Ee]arly|[Ll]ate|[Mm]id|[Ll]ast|[Tt]his)\s+(January|February|March|April|May|June|July|August|September|October|November|December)\b`)

// barePart is the part of a month named right before bareMonth's month
// ("early June", "the second week of November").
var barePart = regexp.MustCompile(`(?i:\b(` + parts + `))(?:\s+of\s+|-|\s+)(?:January|February|March|April|May|June|July|August|September|October|November|December)\b`)

// MonthNamed returns the month text names without its year ("when did
// we go camping in June?"), and the part of it named ("early", "second
// week"; "" for the whole month), for a caller that knows when the text
// speaks from (see LastMonth). ok is false when text names no such month,
// or names a period Mentioned reads ("in June 2023").
func MonthNamed(text string) (m time.Month, part string, ok bool) {
	if _, _, dated := Mentioned(text); dated {
		return 0, "", false
	}
	sm := bareMonth.FindStringSubmatchIndex(text)
	if sm == nil {
		return 0, "", false
	}
	m, ok = months[strings.ToLower(text[sm[2]:sm[3]])]
	// The part counts only when it names this month: the match ends where
	// bareMonth's does.
	for _, pm := range barePart.FindAllStringSubmatchIndex(text, -1) {
		if pm[1] == sm[1] {
			part = text[pm[2]:pm[3]]
		}
	}
	return m, part, ok
}

// LastMonth is the period of part (see MonthNamed) of the last month m to
// start at or before now, until exclusive: June said on 20 October 2023 or
// on 3 March 2024 is June 2023.
func LastMonth(m time.Month, part string, now time.Time) (from, until time.Time) {
	y := now.Year()
	if m > now.Month() {
		y--
	}
	from = time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	return within(part, from, from.AddDate(0, 1, 0))
}

// IsDateWord reports whether w, one word, only dates something: a month
// or weekday name, or a number with at most an ordinal's or a decade's
// ending ("15th", "2023", "1990s"); any case. "mp3" names a thing.
func IsDateWord(w string) bool {
	l := strings.ToLower(w)
	_, month := months[l]
	_, day := weekdays[l]
	return month || day || dateNumber.MatchString(l)
}

var dateNumber = regexp.MustCompile(`^\d+(?:st|nd|rd|th|s)?$`)
