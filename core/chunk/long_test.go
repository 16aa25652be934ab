package chunk

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// longLine is one line of about mb megabytes: words, then a run with no
// whitespace, so both ways of cutting a long line are exercised.
func longLine(mb int) string {
	half := mb << 19
	return strings.Repeat("abcdefghi ", half/10) + strings.Repeat("x", half)
}

func BenchmarkSplitLongLine(b *testing.B) {
	for _, mb := range []int{1, 4, 16, 64} {
		text := longLine(mb)
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				Split(text, Default)
			}
		})
	}
}

// TestLongLineLinearTime guards against cutting a long line in time
// quadratic in its length (each piece once recounted the rest of the line:
// 33 s for 8 MB). Sixteen times the input must take well under forty times
// as long; the best of a few runs keeps a loaded machine from flaking it.
func TestLongLineLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("times 17 MB of chunking")
	}
	best := func(text string) time.Duration {
		d := time.Duration(1<<63 - 1)
		for range 3 {
			start := time.Now()
			Split(text, Default)
			d = min(d, time.Since(start))
		}
		return d
	}
	small, large := best(longLine(1)), best(longLine(16))
	if ratio := float64(large) / float64(small); ratio > 40 {
		t.Errorf("16 MB took %v, 1 MB %v: %.0f times as long, want under 40", large, small, ratio)
	}
}
