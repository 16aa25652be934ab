package search

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/convo"
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

// TestDayNamedWithoutWordsSaid: a question naming a day and a person but
// no word the drawers say finds that day's exchanges first, in the order
// they were said, not the shortest drawers around the day (whose BM25 for
// a name every drawer holds is as near nothing as the others').
func TestDayNamedWithoutWordsSaid(t *testing.T) {
	p := conversationPalace(t, `## 2023-12-08
John: Bye Tim!
Tim: Bye John!

## 2023-12-11
John: Hey Tim, we won the regional final yesterday, what a game it was for the whole team!
Tim: Congrats John, you earned that trophy after such a long season of practice.
John: Thanks! Next I want to start a basketball camp for kids in the summer.
Tim: See you John.

## 2023-12-13
John: Later Tim.
Tim: Later John.
`)
	res, err := Run(context.Background(), p, Request{Query: "What happened to John on 11 December, 2023?"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"regional final", "basketball camp", "Later Tim", "Bye Tim"}
	if len(res.Hits) != len(want) {
		t.Fatalf("hits = %+v, want %d", res.Hits, len(want))
	}
	for i, w := range want {
		if h := res.Hits[i]; !strings.Contains(h.Content, w) || !strings.Contains(h.Why, "ordered by nearness") {
			t.Errorf("hit %d = %q (why %q), want the one saying %q, ordered by nearness", i+1, h.Content, h.Why, w)
		}
	}
}

// BenchmarkDayNamed times a question naming a day and people but no word
// the drawers say (the case nearestFirst orders by time), in a palace of
// 400 daily two-person conversations of 50 exchanges each (20,000
// drawers), against the same question naming a word they do say.
func BenchmarkDayNamed(b *testing.B) {
	p := dailyChats(b)
	for _, c := range []struct{ name, query string }{
		{"names-only", "What happened to John on 11 December, 2023?"},
		{"word-said", "What did John practice on 11 December, 2023?"},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Run(context.Background(), p, Request{Query: c.query}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// dailyChats is a palace of 400 daily two-person conversations of 50
// exchanges each (20,000 drawers), every message saying the same words.
func dailyChats(b *testing.B) *palace.Palace {
	b.Helper()
	var convs []convo.Conversation
	day := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	for d := range 400 {
		when := day.AddDate(0, 0, d)
		c := convo.Conversation{ID: when.Format("2006-01-02"), Format: "test"}
		for i := range 100 {
			speaker, role := "John", convo.RoleUser
			if i%2 == 1 {
				speaker, role = "Tim", convo.RoleAssistant
			}
			c.Messages = append(c.Messages, convo.Message{Index: i, Speaker: speaker, Role: role, Time: when,
				Text: fmt.Sprintf("Message %d of day %d: practice, travel and books, as friends talk about them.", i, d)})
		}
		convs = append(convs, c)
	}
	return minedPalace(b, convs)
}
