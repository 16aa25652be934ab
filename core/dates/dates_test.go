package dates

import (
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]string{
		"2026-05-01":                "2026-05-01T00:00:00Z",
		"2026-05-01T09:30:00+02:00": "2026-05-01T07:30:00Z",
		"2026-05-01T09:30:00":       "2026-05-01T09:30:00Z",
		"":                          "0001-01-01T00:00:00Z",
	} {
		got, err := Parse(in, false)
		if err != nil || got.Format(time.RFC3339) != want {
			t.Errorf("Parse(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	if got, _ := Parse("2026-05-01", true); got.Format(DateLayout) != "2026-05-02" {
		t.Errorf("end of day: %v", got)
	}
	// Year 10000 does not fit the stored four-digit form.
	if got, _ := Parse("9999-12-31", true); got.Format(time.RFC3339) != "9999-12-31T23:59:59Z" {
		t.Errorf("end of 9999-12-31: %v", got)
	}
	for _, bad := range []string{"yesterday", "2026-13-01", "01/05/2026", "\xff"} {
		if _, err := Parse(bad, false); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestMentioned(t *testing.T) {
	cases := []struct{ in, from, until string }{
		{"What did Gina find on 1 February, 2023?", "2023-02-01", "2023-02-02"},
		{"what happened on March 3rd 2024", "2024-03-03", "2024-03-04"},
		{"Where did Joanna travel to in July 2022?", "2022-07-01", "2022-08-01"},
		{"decided 2026-05-01 in the standup", "2026-05-01", "2026-05-02"},
		{"in Sept. 2021 we moved", "2021-09-01", "2021-10-01"},
		{"no date here, may 5 people come", "", ""},
		{"on 31 February, 2023", "2023-02-01", "2023-03-01"}, // no such day: the month
		{"Go 1.26 release", "", ""},
		{"Where was John between August 11 and August 15 2023?", "2023-08-11", "2023-08-16"},
		{"from 3 May 2024 to 9 May 2024", "2024-05-03", "2024-05-10"},
		{"between Jon and Gina in July 2022", "2022-07-01", "2022-08-01"},
		{"between 9 May 2024 and 3 May 2024", "2024-05-09", "2024-05-10"}, // backwards: the first day named
		{"Where was Tim in the week before 16 November 2023?", "2023-11-09", "2023-11-16"},
		{"the day after 2 May 2024", "2024-05-03", "2024-05-04"},
		{"the month before 15 March 2024", "2024-02-15", "2024-03-15"},
		{"shown on the Sunday before October 25, 2022?", "2022-10-23", "2022-10-24"},
		{"the Friday after 2024-05-03", "2024-05-10", "2024-05-11"},
		{"which tournament in the beginning of November 2022?", "2022-11-01", "2022-11-11"},
		{"the first half of September 2022", "2022-09-01", "2022-09-16"},
		{"late July 2022", "2022-07-21", "2022-08-01"},
		{"Which country was Tim visiting in the second week of November 2023?", "2023-11-08", "2023-11-15"},
		{"the first week of March 2024", "2024-03-01", "2024-03-08"},
		{"in the last week of February 2024", "2024-02-23", "2024-03-01"},
		{"mid-March 2021", "2021-03-11", "2021-03-21"},
		{"What state did Joanna visit in summer 2021?", "2021-06-01", "2021-09-01"},
		{"winter 2023", "2023-12-01", "2024-03-01"},
		{"How many times has Melanie gone to the beach in 2023?", "2023-01-01", "2024-01-01"},
		{"the forest picture shared on December 1,2023", "2023-12-01", "2023-12-02"},
		{"book finished on 8th December, 2023", "2023-12-08", "2023-12-09"},
		{"port 2023 is open", "", ""},
	}
	for _, c := range cases {
		from, until, ok := Mentioned(c.in)
		if c.from == "" {
			if ok {
				t.Errorf("Mentioned(%q) = %v..%v, want none", c.in, from, until)
			}
			continue
		}
		if !ok || from.Format(DateLayout) != c.from || until.Format(DateLayout) != c.until {
			t.Errorf("Mentioned(%q) = %v..%v %v, want %s..%s", c.in, from, until, ok, c.from, c.until)
		}
	}
}

func TestMonthNamed(t *testing.T) {
	cases := []struct {
		in   string
		want time.Month // 0: none
		part string
	}{
		{"When did Melanie go camping in June?", time.June, ""},
		{"what happened during March", time.March, ""},
		{"early October we moved", time.October, "early"},
		{"Which country was Tim visiting in the second week of November?", time.November, "second week"},
		{"the Last Week of May", time.May, "Last Week"},
		{"early on, in June", time.June, ""}, // "early" is not June's part
		{"camping in June 2023", 0, ""},      // Mentioned reads it
		{"the second week of November 2023", 0, ""},
		{"on 3 June, 2023", 0, ""},
		{"May I ask what we decided?", 0, ""},
		{"it may rain in may", 0, ""}, // a verb, and a month written small
		{"the June release", 0, ""},   // no word placing anything in it
	}
	for _, c := range cases {
		m, part, ok := MonthNamed(c.in)
		if ok != (c.want != 0) || m != c.want || part != c.part {
			t.Errorf("MonthNamed(%q) = %v %q %v, want %v %q", c.in, m, part, ok, c.want, c.part)
		}
	}
}

func TestLastMonth(t *testing.T) {
	day := func(s string) time.Time {
		d, err := time.Parse(DateLayout, s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	cases := []struct {
		m           time.Month
		part        string
		now         string
		from, until string
	}{
		{time.June, "", "2023-10-20", "2023-06-01", "2023-07-01"},
		{time.June, "", "2024-03-03", "2023-06-01", "2023-07-01"},
		{time.June, "", "2023-06-15", "2023-06-01", "2023-07-01"}, // this month
		{time.December, "", "2024-01-05", "2023-12-01", "2024-01-01"},
		{time.November, "second week", "2023-12-11", "2023-11-08", "2023-11-15"},
		{time.February, "last  week", "2024-05-01", "2024-02-23", "2024-03-01"},
		{time.October, "Early", "2023-12-11", "2023-10-01", "2023-10-11"},
	}
	for _, c := range cases {
		from, until := LastMonth(c.m, c.part, day(c.now))
		if !from.Equal(day(c.from)) || !until.Equal(day(c.until)) {
			t.Errorf("LastMonth(%v, %q, %s) = %v..%v, want %s..%s", c.m, c.part, c.now, from, until, c.from, c.until)
		}
	}
}

func TestIsDateWord(t *testing.T) {
	for w, want := range map[string]bool{
		"December": true, "dec": true, "Sunday": true, "2023": true, "15th": true, "1st": true, "1990s": true,
		"mp3": false, "covid19": false, "Tim": false, "may": true, "": false, "th": false,
	} {
		if got := IsDateWord(w); got != want {
			t.Errorf("IsDateWord(%q) = %v, want %v", w, got, want)
		}
	}
}
