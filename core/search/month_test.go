package search

import (
	"context"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace"
)

// TestBareMonthOfTheArchive: "in June" in a question about a conversation
// held in 2023 is June 2023, the last June of the conversation's own time,
// whatever year the clock says: the June exchange comes first, though an
// August one says camping three times.
func TestBareMonthOfTheArchive(t *testing.T) {
	p := conversationPalace(t, `## 2023-06-12
Caroline: How was your weekend?
Melanie: Lovely, we went camping in the mountains with the kids.

## 2023-08-14
Caroline: Do you still like the outdoors?
Melanie: Camping is our thing, we go camping every summer, camping forever.

## 2023-10-02
Caroline: Any plans for the winter?
Melanie: Skiing, if the kids agree.
`)
	res := firstInPeriod(t, p, "When did Melanie go camping in June?", "camping in the mountains")
	if th := res.TimeHint; th == nil || th.From.Year() != 2023 || th.From.Month() != 5 || th.Until.Month() != 7 {
		t.Errorf("time hint = %+v, want June 2023 give or take the slack", th)
	}
}

// TestWeekOfABareMonth: "the second week of November" is days 8-14 of
// the archive's last November (widened by the slack), so the exchange of
// 10 November comes first, though the one of 3 November says visiting
// three times.
func TestWeekOfABareMonth(t *testing.T) {
	p := conversationPalace(t, `## 2023-11-03
John: Where are you these days, Tim?
Tim: In Ireland, visiting Dublin: visiting Ireland means visiting old friends.

## 2023-11-10
John: Still travelling?
Tim: Yes, visiting Spain now.

## 2023-12-01
John: Back home?
Tim: Home and writing again.
`)
	res := firstInPeriod(t, p, "Which country was Tim visiting in the second week of November?", "Spain")
	if th := res.TimeHint; th == nil || th.From.Format("2006-01-02") != "2023-11-05" || th.Until.Format("2006-01-02") != "2023-11-18" {
		t.Errorf("time hint = %+v, want 8-14 November 2023 give or take the slack", th)
	}
}

// firstInPeriod runs query and checks that its first hit holds want and
// was put first for the period the query names.
func firstInPeriod(t *testing.T, p *palace.Palace, query, want string) Result {
	t.Helper()
	res, err := Run(context.Background(), p, Request{Query: query})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) < 2 {
		t.Fatalf("%s: hits = %+v", query, res.Hits)
	}
	if h := res.Hits[0]; !strings.Contains(h.Content, want) || !strings.HasSuffix(h.Why, "happened in the period the query names") {
		t.Errorf("%s: first hit %q (why %q), want the one saying %q, in the period", query, h.Content, h.Why, want)
	}
	return res
}
