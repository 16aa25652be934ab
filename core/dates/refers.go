package dates

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Period is a span of whole days, Until exclusive.
type Period struct{ From, Until time.Time }

// MaxReferred caps the periods Referred returns for one text: a long
// message naming dozens of days is not about any one of them.
const MaxReferred = 8

var (
	// "yesterday", "last week", "two weeks ago", "last Saturday", "next month".
	relative = regexp.MustCompile(`(?i)\b(?:(yesterday|last night|tomorrow)|(this past|past|last|next|this) (weekend|week|month|year|summer|spring|autumn|fall|winter|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|a few|a couple of|couple of|several) (days?|weeks?|weekends?|months?|years?) ago)\b`)
	counts   = map[string]int{"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
		"seven": 7, "eight": 8, "nine": 9, "ten": 10, "a few": 3, "a couple of": 2, "couple of": 2, "several": 3}
	seasonStart = map[string]time.Month{"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}
)

// Referred resolves the relative time expressions of a text said at a time
// ("yesterday", "last Saturday", "two weeks ago", "last month", "next
// weekend") into the periods they point to, in the order they appear,
// each once, at most MaxReferred. A week is Monday to Sunday; "two weeks
// ago" is the week around that day; "last Saturday" is the latest
// Saturday before the day said; a season is of the northern hemisphere.
// A zero time resolves nothing.
func Referred(text string, at time.Time) []Period {
	if at.IsZero() {
		return nil
	}
	today := time.Date(at.Year(), at.Month(), at.Day(), 0, 0, 0, 0, time.UTC)
	var out []Period
	for _, m := range relativeMatches(text) {
		p, ok := resolve(strings.ToLower(m[1]), strings.ToLower(m[2]), strings.ToLower(m[3]),
			strings.ToLower(m[4]), strings.ToLower(m[5]), today)
		if ok && !slices.Contains(out, p) {
			out = append(out, p)
			if len(out) == MaxReferred {
				break
			}
		}
	}
	return out
}

// anchors are the words every match of relative holds: a text is run
// through the regexp only around them. Go's regexp costs some 160 ms a
// megabyte here, most of a long tool output's mine, and a tool output
// rarely says "last", "this" or "ago".
var anchors = []string{"yesterday", "tomorrow", "last", "next", "this", "past", "ago"}

// anchorReach is how far a match of relative reaches from the anchor it
// holds, digits aside ("a couple of weekends ago", "this past wednesday"):
// a window this wide around each anchor, widened to whole words, holds
// every match the anchor is part of.
const anchorReach = 32

// relativeMatches is relative.FindAllStringSubmatch(text, -1), run only on
// the windows around the anchors. Windows that touch are merged and each
// starts and ends between a word and a non-word character, so \b reads as
// it would in the whole text, and no match of the whole text crosses a
// window's edge: each holds an anchor, inside a window. Case folding makes
// "ſ" (long s) match "s", which the ASCII anchor search would miss: such
// a text is scanned whole.
func relativeMatches(text string) [][]string {
	if strings.Contains(text, "ſ") {
		return relative.FindAllStringSubmatch(text, -1)
	}
	lower := []byte(text)
	for i, c := range lower {
		if 'A' <= c && c <= 'Z' {
			lower[i] = c + 'a' - 'A'
		}
	}
	var spans [][2]int
	for _, a := range anchors {
		for from := 0; ; {
			k := bytes.Index(lower[from:], []byte(a))
			if k < 0 {
				break
			}
			at := from + k
			spans = append(spans, [2]int{max(at-anchorReach, 0), min(at+len(a)+anchorReach, len(text))})
			from = at + len(a)
		}
	}
	if len(spans) == 0 {
		return nil
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	// Windows are widened to whole words, each byte looked at once
	// however long a word: the end only ever moves on, and a start moves
	// back at most to the end of the window before it.
	var out [][]string
	lo, hi := -1, -1
	extend := func(to int) {
		if to <= hi {
			return
		}
		for hi = to; hi < len(text) && isWordByte(text[hi-1]) && isWordByte(text[hi]); hi++ {
		}
	}
	for _, s := range spans {
		start := s[0]
		for start > max(hi, 0) && isWordByte(text[start-1]) && isWordByte(text[start]) {
			start--
		}
		if lo < 0 || start > hi {
			if lo >= 0 {
				out = append(out, relative.FindAllStringSubmatch(text[lo:hi], -1)...)
			}
			lo = start
		}
		extend(s[1])
	}
	out = append(out, relative.FindAllStringSubmatch(text[lo:hi], -1)...)
	return out
}

// isWordByte reports whether c is a word character to \b (ASCII only).
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// resolve turns one match of relative into its period: word is a lone
// word (yesterday), which and unit a "last week" form, n and ago a "two
// weeks ago" form.
func resolve(word, which, unit, n, ago string, today time.Time) (Period, bool) {
	days := func(from time.Time, d int) Period { return Period{from, from.AddDate(0, 0, d)} }
	switch word {
	case "yesterday", "last night":
		return days(today.AddDate(0, 0, -1), 1), true
	case "tomorrow":
		return days(today.AddDate(0, 0, 1), 1), true
	}
	if ago != "" {
		k, ok := counts[n]
		if !ok {
			k, _ = strconv.Atoi(n)
		}
		if k < 1 || k > 100 {
			return Period{}, false
		}
		switch strings.TrimSuffix(ago, "s") {
		case "day":
			return days(today.AddDate(0, 0, -k), 1), true
		case "week":
			return days(today.AddDate(0, 0, -7*k-3), 7), true
		case "weekend":
			return weekend(today.AddDate(0, 0, -7*(k-1)), -1), true
		case "month":
			return days(today.AddDate(0, -k, -15), 30), true
		default: // year
			y := time.Date(today.Year()-k, 1, 1, 0, 0, 0, 0, time.UTC)
			return Period{y, y.AddDate(1, 0, 0)}, true
		}
	}
	dir := 1
	if which == "last" || which == "past" || which == "this past" {
		dir = -1
	}
	if wd, ok := weekdays[unit]; ok {
		if which == "this" {
			return Period{}, false // "this Monday" may lie on either side
		}
		return days(walkTo(today.AddDate(0, 0, dir), wd, dir), 1), true
	}
	if first, ok := seasonStart[unit]; ok {
		if which == "this" {
			return Period{}, false
		}
		// The nearest such season wholly before (or after) today.
		s := time.Date(today.Year(), first, 1, 0, 0, 0, 0, time.UTC)
		for dir < 0 && !s.AddDate(0, 3, 0).Before(today.AddDate(0, 0, 1)) {
			s = s.AddDate(-1, 0, 0)
		}
		for dir > 0 && !s.After(today) {
			s = s.AddDate(1, 0, 0)
		}
		return Period{s, s.AddDate(0, 3, 0)}, true
	}
	if which == "this" && unit != "weekend" {
		return Period{}, false // this week, month, year: when it was said
	}
	switch unit {
	case "weekend":
		if which == "this" {
			return weekend(today, 0), true
		}
		return weekend(today, dir), true
	case "week":
		monday := today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7))
		return days(monday.AddDate(0, 0, 7*dir), 7), true
	case "month":
		m := time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC).AddDate(0, dir, 0)
		return Period{m, m.AddDate(0, 1, 0)}, true
	default: // year
		y := time.Date(today.Year()+dir, 1, 1, 0, 0, 0, 0, time.UTC)
		return Period{y, y.AddDate(1, 0, 0)}, true
	}
}

// weekend is a Saturday and Sunday: dir -1, the last one wholly before
// today; 0, the one under way or coming ("this weekend"); 1, the first
// that starts after today ("next weekend": on a Saturday or a Sunday, the
// following one).
func weekend(today time.Time, dir int) Period {
	var sat time.Time
	switch {
	case dir < 0:
		sat = walkTo(today.AddDate(0, 0, -1), time.Sunday, -1).AddDate(0, 0, -1)
	case dir == 0 && today.Weekday() == time.Sunday:
		sat = today.AddDate(0, 0, -1)
	case dir == 0:
		sat = walkTo(today, time.Saturday, 1)
	default:
		sat = walkTo(today.AddDate(0, 0, 1), time.Saturday, 1)
	}
	return Period{sat, sat.AddDate(0, 0, 2)}
}
