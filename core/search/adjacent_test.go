package search

import (
	"context"
	"strings"
	"testing"
)

// TestWordsSideBySide: a question's words typed side by side rank the
// drawer saying them so above one holding them apart, even where the
// other says one of them more often (see query.adjacent).
func TestWordsSideBySide(t *testing.T) {
	p := conversationPalace(t, `
## 2023-11-06
Caroline: What do you all do on Friday evenings?
Melanie: We love board games, the kids pick one every Friday.

## 2023-11-20
Caroline: How was the school fair?
Melanie: I love the games there: ring games, ball games, water games; the school board ran it.
`)
	res, err := Run(context.Background(), p, Request{Query: "What board games does Melanie love?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) < 2 {
		t.Fatalf("hits %+v, want both exchanges", res.Hits)
	}
	if !strings.Contains(res.Hits[0].Content, "We love board games") {
		t.Errorf("first hit %q, want the one saying board games", res.Hits[0].Content)
	}
}

// BenchmarkWordsSideBySide times a question two pairs of whose words
// every one of 20,000 drawers holds side by side: the worst case for the
// phrases All adds (see query.adjacent). Run it against a build without
// them to see their cost.
func BenchmarkWordsSideBySide(b *testing.B) {
	p := dailyChats(b)
	for b.Loop() {
		if _, err := Run(context.Background(), p, Request{Query: "Do friends talk about practice, travel and books?"}); err != nil {
			b.Fatal(err)
		}
	}
}
