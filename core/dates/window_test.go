package dates

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

// windowTokens build texts where the windows around anchors meet every
// edge: anchors inside longer words and digit runs, forms at the start and
// end of the text, case, non-ASCII neighbours, the long s.
var windowTokens = []string{
	"last", "LAST", "Last", "next", "this", "past", "this past", "ago", "yesterday", "Tomorrow", "last night",
	"week", "weeks", "weekend", "month", "year", "summer", "saturday", "Monday", "days", "day",
	"a", "an", "two", "a few", "a couple of", "several", "3", "12", "123456789", "007",
	"lastly", "pasta", "agog", "thistle", "nextdoor", "yesterdays", "_last", "x9",
	" ", " ", " ", "  ", "\n", ", ", ".", "-", "é", "日本", "laſt", "wee\u212As", strings.Repeat("z", 40),
}

func windowText(r *rand.Rand) string {
	var b strings.Builder
	for n := r.IntN(40); n >= 0; n-- {
		b.WriteString(windowTokens[r.IntN(len(windowTokens))])
		if r.IntN(3) > 0 {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// Scanning only the windows around the anchors finds exactly what
// scanning the whole text finds.
func TestRelativeMatchesAsWholeScan(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 30000; i++ {
		text := windowText(r)
		got, want := relativeMatches(text), relative.FindAllStringSubmatch(text, -1)
		if len(got) == 0 && len(want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %q\nwant %q", text, got, want)
		}
	}
}

func FuzzRelativeMatches(f *testing.F) {
	for _, s := range []string{"two weeks ago", "123 days ago last week", "lastlast week", "this past saturday", "laſt week"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, want := relativeMatches(text), relative.FindAllStringSubmatch(text, -1)
		if (len(got) > 0 || len(want) > 0) && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %q\nwant %q", text, got, want)
		}
	})
}

// BenchmarkReferred resolves the relative times of a tool output of 1 and
// 10 MB (log lines, one in fifty saying "since yesterday") and of as
// long a text with no anchor word; s/MB stays flat when Referred is linear.
//
//	go test -run '^$' -bench Referred ./core/dates
func BenchmarkReferred(b *testing.B) {
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	for _, mb := range []int{1, 10} {
		var log strings.Builder
		for i := 0; log.Len() < mb<<20; i++ {
			fmt.Fprintf(&log, "%06d deploy index vector schema query router budget commit", i)
			if i%50 == 7 {
				log.WriteString(" since yesterday")
			}
			log.WriteByte('\n')
		}
		for name, text := range map[string]string{"log": log.String(), "word": strings.Repeat("x", mb<<20)} {
			b.Run(fmt.Sprintf("%s/%dMB", name, mb), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					Referred(text, at)
				}
				b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/float64(mb), "s/MB")
			})
		}
	}
}
