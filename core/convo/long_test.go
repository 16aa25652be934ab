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
// single line of about mb megabytes: words, then a run with no whitespace.
func ccSessionWithOutput(t testing.TB, mb int) []byte {
	half := mb << 19
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
// huge tool output (8 MB once took 31 s to mine): parsing and cutting it
// into exchanges must grow linearly, so 8 MB takes well under 24 times what
// 1 MB takes (best of three, so a loaded machine does not flake it).
func TestLongToolOutputLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("times 9 MB of conversation")
	}
	run := func(data []byte) []Exchange {
		c, err := ParseClaudeCode("s1.jsonl", data)
		if err != nil {
			t.Fatal(err)
		}
		return Exchanges(c, chunk.Default)
	}
	best := func(data []byte) time.Duration {
		d := time.Duration(1<<63 - 1)
		for range 3 {
			start := time.Now()
			run(data)
			d = min(d, time.Since(start))
		}
		return d
	}
	small, large := ccSessionWithOutput(t, 1), ccSessionWithOutput(t, 8)
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
	ts, tl := best(small), best(large)
	if ratio := float64(tl) / float64(ts); ratio > 24 {
		t.Errorf("8 MB took %v, 1 MB %v: %.0f times as long, want under 24", tl, ts, ratio)
	}
	t.Logf("1 MB: %v, 8 MB: %v", ts, tl)
}

func BenchmarkLongToolOutput(b *testing.B) {
	for _, mb := range []int{1, 8} {
		data := ccSessionWithOutput(b, mb)
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
