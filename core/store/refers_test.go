package store

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestFilterRefers: with Refers, a period keeps the drawers that happened
// in it and those whose metadata refers to a day in it; metadata that is
// not JSON (left by an old import) is neither an error nor a match.
func TestFilterRefers(t *testing.T) {
	s := openTemp(t)
	day := func(d string) time.Time { t, _ := time.Parse("2006-01-02", d); return t }
	in := drawer("w", "a", 0, "marathon in the period")
	in.OccurredAt = day("2023-06-10")
	refers := drawer("w", "b", 0, "marathon said later about June")
	refers.OccurredAt, refers.Metadata = day("2023-07-20"), `{"refers":[["2023-06-01","2023-07-01"]]}`
	edge := drawer("w", "c", 0, "marathon referring to the day the period ends")
	edge.OccurredAt, edge.Metadata = day("2023-07-20"), `{"refers":[["2023-06-20","2023-06-21"]]}`
	broken := drawer("w", "d", 0, "marathon with broken metadata")
	broken.OccurredAt, broken.Metadata = day("2023-08-01"), `{not json`
	if _, err := s.InsertDrawers(context.Background(), []Drawer{in, refers, edge, broken}); err != nil {
		t.Fatal(err)
	}
	find := func(f Filter) []string {
		hits, err := s.SearchFTS(context.Background(), `"marathon"`, f, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, h.Source)
		}
		slices.Sort(got)
		return got
	}
	period := Filter{Since: day("2023-06-01"), Until: day("2023-06-20")}
	if got := find(period); !slices.Equal(got, []string{"a"}) {
		t.Errorf("without Refers: %v", got)
	}
	period.Refers = true
	if got := find(period); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("with Refers: %v, want a and b (c refers to the day after the period)", got)
	}
	period.Until = day("2023-06-20").Add(time.Hour)
	if got := find(period); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("until an hour into 20 June: %v, want c too", got)
	}
}
