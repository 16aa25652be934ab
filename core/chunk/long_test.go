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
// 33 s for 8 MB, so 16 MB took some 250 times what 1 MB did). Sixteen times
// the input must take under 80 times as long: linear with room for cache
// misses a 1 MB line does not have and for a loaded machine. The two sizes are timed in turns and the best of five of each
// compared, so a burst of load on a shared machine slows both or neither.
func TestLongLineLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("times 85 MB of chunking")
	}
	texts := []string{longLine(1), longLine(16)}
	best := []time.Duration{1<<63 - 1, 1<<63 - 1}
	for range 5 {
		for i, text := range texts {
			start := time.Now()
			Split(text, Default)
			best[i] = min(best[i], time.Since(start))
		}
	}
	ratio := float64(best[1]) / float64(best[0])
	t.Logf("1 MB: %v, 16 MB: %v (%.1f times)", best[0], best[1], ratio)
	if ratio > 80 {
		t.Errorf("16 MB took %v, 1 MB %v: %.0f times as long, want under 80", best[1], best[0], ratio)
	}
}
