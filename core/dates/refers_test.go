package dates

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestReferred(t *testing.T) {
	// Monday 7 November 2022, in the evening.
	at := time.Date(2022, 11, 7, 20, 10, 0, 0, time.UTC)
	cases := []struct{ text, want string }{
		{"I was in the final of a big tournament last Saturday, and I won!", "2022-11-05..2022-11-06"},
		{"went to a support group yesterday", "2022-11-06..2022-11-07"},
		{"see you tomorrow!", "2022-11-08..2022-11-09"},
		{"We camped two weekends ago", "2022-10-29..2022-10-31"},
		{"that roadtrip this past weekend was insane", "2022-11-05..2022-11-07"},
		{"I'm going this weekend", "2022-11-12..2022-11-14"},
		{"Last week I dyed my hair", "2022-10-31..2022-11-07"},
		{"my game is next month", "2022-12-01..2023-01-01"},
		{"I started a book 3 days ago", "2022-11-04..2022-11-05"},
		{"a few weeks ago", "2022-10-14..2022-10-21"},
		{"we moved four years ago", "2018-01-01..2019-01-01"},
		{"last summer at the lake", "2022-06-01..2022-09-01"},
		{"next Friday", "2022-11-11..2022-11-12"},
		{"last year and yesterday, and yesterday again", "2021-01-01..2022-01-01 2022-11-06..2022-11-07"},
		{"this week, this month, this Monday and lately", ""},
		{"the last weekday of the month was busy", ""},
	}
	for _, c := range cases {
		var got []string
		for _, p := range Referred(c.text, at) {
			got = append(got, p.From.Format(DateLayout)+".."+p.Until.Format(DateLayout))
		}
		if g := strings.Join(got, " "); g != c.want {
			t.Errorf("Referred(%q) = %q, want %q", c.text, g, c.want)
		}
	}
	// Said on a Sunday, this weekend is the one under way.
	sunday := time.Date(2022, 11, 6, 9, 0, 0, 0, time.UTC)
	for text, want := range map[string]string{"this weekend": "2022-11-05", "last weekend": "2022-10-29", "next weekend": "2022-11-12"} {
		if ps := Referred(text, sunday); len(ps) != 1 || ps[0].From.Format(DateLayout) != want || ps[0].Until.Sub(ps[0].From) != 48*time.Hour {
			t.Errorf("Referred(%q) on a Sunday = %v, want the weekend from %s", text, ps, want)
		}
	}
	if ps := Referred("yesterday", time.Time{}); ps != nil {
		t.Errorf("an unknown time resolved %v", ps)
	}
	var many string
	for i := 1; i <= 12; i++ {
		many += strconv.Itoa(i) + " days ago, "
	}
	if n := len(Referred(many, at)); n != MaxReferred {
		t.Errorf("%d periods, want the cap %d", n, MaxReferred)
	}
}
