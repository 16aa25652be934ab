package aaak

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// Checking a line must cost in proportion to its length however many errors
// it holds: each error's column used to be counted from the start of the
// line, so a line of n bad codes cost n²: 8 times the errors cost 65 to
// 120 times as much (9.5 s for 8,000), now about 8 to 35 times (allocation
// and cache effects on a loaded machine), hence the bound of 48.
func TestCheckLinearInErrorsPerLine(t *testing.T) {
	if testing.Short() {
		t.Skip("timing")
	}
	// Long bad codes make the line long for its number of errors, so
	// counting columns from the start of the line dominates the cost of
	// recording each error.
	bad := strings.Repeat("É", 50)
	docs := map[string]func(n int) string{
		"entities": func(n int) string {
			return "V1|w|r|2026-01-01|s\n1:" + strings.Repeat(bad+"+", n) + "ABC|t|\"q\"|★|joy|CORE\n"
		},
		"emotions": func(n int) string {
			return "V1|w|r|2026-01-01|s\n1:ABC|t|\"q\"|★|" + strings.Repeat(bad+"+", n) + "joy|CORE\n"
		},
		"flags": func(n int) string {
			return "V1|w|r|2026-01-01|s\n1:ABC|t|\"q\"|★|joy|" + strings.Repeat(bad+"+", n) + "CORE\n"
		},
		"arc": func(n int) string {
			return "V1|w|r|2026-01-01|s\n1:ABC|t|\"q\"|★|joy|CORE\nARC:" + strings.Repeat(bad+"->", n) + "joy\n"
		},
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			cost := func(n int) time.Duration {
				src := doc(n)
				best := time.Duration(1 << 62)
				for range 7 {
					start := time.Now()
					_, err := Parse(src)
					best = min(best, time.Since(start))
					if es, ok := err.(Errors); !ok || len(es) < n {
						t.Fatalf("%d bad codes gave %v", n, err)
					}
				}
				return best
			}
			// 16 times the errors: linear is 16x, quadratic 256x; the bound
			// sits 5x above the one and 3x below the other, so a loaded
			// machine's noise does not fail it and a quadratic scan does.
			small, large := cost(1000), cost(16000)
			t.Logf("1k errors %v, 16k errors %v (%.1fx for 16x)", small, large, float64(large)/float64(small))
			if large > 80*small {
				t.Errorf("16 times the errors on one line cost %.0f times as much", float64(large)/float64(small))
			}
		})
	}
	t.Run("validate topics", func(t *testing.T) {
		bad := strings.Repeat("É", 50)
		cost := func(n int) time.Duration {
			// The entities put the topics far from the start of the line.
			z := Zettel{ID: 1, Entities: slices.Repeat([]string{"ABC"}, 10*n), Quote: "q", Stars: 1}
			for range n {
				z.Topics = append(z.Topics, "a_"+bad)
			}
			doc := &Document{Header: Header{Version: 1, Wing: "w", Room: "r", Date: "2026-01-01", Source: "s"}, Zettels: []Zettel{z}}
			best := time.Duration(1 << 62)
			for range 7 {
				start := time.Now()
				if err := Validate(doc); err == nil {
					t.Fatal("bad topics validated")
				}
				best = min(best, time.Since(start))
			}
			return best
		}
		small, large := cost(1000), cost(16000) // the bounds as above
		t.Logf("1k errors %v, 16k errors %v (%.1fx for 16x)", small, large, float64(large)/float64(small))
		if large > 80*small {
			t.Errorf("16 times the errors on one zettel cost %.0f times as much", float64(large)/float64(small))
		}
	})
}
