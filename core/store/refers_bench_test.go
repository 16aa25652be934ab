package store

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkFilterRefers: a period with Refers over 100k conversation
// drawers that all hold the searched word (a speaker's name in every
// exchange, the case search meets for "what did Melanie do in June
// 2023?"), against the same period without Refers. One drawer in ten
// refers to a day. go test -run '^$' -bench FilterRefers ./core/store
func BenchmarkFilterRefers(b *testing.B) {
	s, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	start := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	const n = 100_000
	for lo := 0; lo < n; lo += 5000 {
		var ds []Drawer
		for i := lo; i < lo+5000; i++ {
			d := drawer("w", fmt.Sprintf("chat%d", i/50), i%50, fmt.Sprintf("Melanie: exchange %d about the week, word%d", i, i%997))
			d.Kind, d.OccurredAt = KindConversation, start.Add(time.Duration(i)*5*time.Minute)
			d.Metadata = `{"speakers":["Caroline","Melanie"],"first_msg":0,"last_msg":1}`
			if i%10 == 0 {
				day := d.OccurredAt.AddDate(0, 0, -7)
				d.Metadata = `{"speakers":["Caroline","Melanie"],"refers":[["` + day.Format("2006-01-02") + `","` +
					day.AddDate(0, 0, 1).Format("2006-01-02") + `"]]}`
			}
			ds = append(ds, d)
		}
		if _, err := s.InsertDrawers(ctx, ds); err != nil {
			b.Fatal(err)
		}
	}
	period := Filter{Since: time.Date(2023, 6, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(2023, 7, 1, 0, 0, 0, 0, time.UTC)}
	for _, refers := range []bool{false, true} {
		f := period
		f.Refers = refers
		b.Run(fmt.Sprintf("refers=%v", refers), func(b *testing.B) {
			for b.Loop() {
				if _, err := s.SearchFTS(ctx, `"melanie"`, f, 10, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
