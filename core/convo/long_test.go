package convo

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/chunk"
)

// ccSessionWithOutput is a Claude Code session whose one tool output is a
// single line of about kb kilobytes: words, then a run with no whitespace.
func ccSessionWithOutput(t testing.TB, kb int) []byte {
	half := kb << 9
	out := strings.Repeat("abcdefghi ", half/10) + strings.Repeat("x", half)
	line := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b) + "\n"
	}
	msg := func(typ, id string, content any) map[string]any {
		return map[string]any{"type": typ, "sessionId": "s1", "timestamp": "2026-03-01T10:00:00Z",
			"message": map[string]any{"id": id, "role": typ, "content": content}}
	}
	return []byte(line(msg("user", "", "dump the log")) +
		line(msg("assistant", "a1", []any{map[string]any{"type": "tool_use", "name": "Bash", "input": map[string]any{"command": "cat log"}}})) +
		line(msg("user", "", []any{map[string]any{"type": "tool_result", "content": out}})) +
		line(msg("assistant", "a2", []any{map[string]any{"type": "text", "text": "the log is one long line"}})))
}

// TestLongToolOutputLinearTime guards the cost of a session holding one
// huge tool output (8 MB once took 31 s to mine, some 220 times what 512 KB
// took): parsing and cutting it into exchanges must grow linearly, so 8 MB
// takes under 80 times what 512 KB takes (16 times the input, with room for
// cache misses and a loaded machine).
func TestLongToolOutputLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("times 34 MB of conversation")
	}
	run := func(data []byte) []Exchange {
		c, err := ParseClaudeCode("s1.jsonl", data)
		if err != nil {
			t.Fatal(err)
		}
		return Exchanges(c, chunk.Default)
	}
	small, large := ccSessionWithOutput(t, 512), ccSessionWithOutput(t, 8<<10)
	// The output is cut into pieces of the tool message alone.
	es := run(large)
	var pieces int
	for _, e := range es {
		if e.FirstMsg == 2 && e.LastMsg == 2 {
			pieces++
		}
	}
	if pieces < (8<<20)/chunk.Default.Size {
		t.Fatalf("%d exchanges, %d pieces of the tool output", len(es), pieces)
	}
	// The sizes are timed in turns, so a burst of load slows both.
	best := []time.Duration{1<<63 - 1, 1<<63 - 1}
	for range 3 {
		for i, data := range [][]byte{small, large} {
			start := time.Now()
			run(data)
			best[i] = min(best[i], time.Since(start))
		}
	}
	ratio := float64(best[1]) / float64(best[0])
	t.Logf("512 KB: %v, 8 MB: %v (%.1f times)", best[0], best[1], ratio)
	if ratio > 80 {
		t.Errorf("8 MB took %v, 512 KB %v: %.0f times as long, want under 80", best[1], best[0], ratio)
	}
}

func BenchmarkLongToolOutput(b *testing.B) {
	for _, mb := range []int{1, 8} {
		data := ccSessionWithOutput(b, mb<<10)
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				c, err := ParseClaudeCode("s1.jsonl", data)
				if err != nil {
					b.Fatal(err)
				}
				Exchanges(c, chunk.Default)
			}
		})
	}
}
