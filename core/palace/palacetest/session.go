package palacetest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// ClaudeSession is n lines of a Claude Code session log (session id, cwd
// /work/shop) from line first on (first > 0 continues one): prompts,
// replies streamed over two lines of one message id, tool calls and their
// results, and lines that carry no message. Line i says "step i" and is
// stamped i seconds after 2026-03-01 00:00 UTC.
func ClaudeSession(tb testing.TB, session string, first, n int) []byte {
	tb.Helper()
	words := strings.Fields("parser cache token deploy index vector schema query router budget commit branch merge rollback latency shard")
	text := func(i, k int) string {
		var b strings.Builder
		for j := 0; j < k; j++ {
			b.WriteString(words[(i*7+j*3+j*j)%len(words)])
			b.WriteByte(' ')
		}
		return fmt.Sprintf("%sstep %d", b.String(), i)
	}
	var out []byte
	for i := first; i < first+n; i++ {
		l := map[string]any{"sessionId": session, "cwd": "/work/shop", "gitBranch": "main", "version": "2.0.1",
			"timestamp": time.Date(2026, 3, 1, 0, 0, i, 0, time.UTC).Format(time.RFC3339)}
		turn := i / 6
		switch i % 6 {
		case 0:
			l["type"], l["message"] = "user", map[string]any{"role": "user", "content": text(i, 12)}
		case 1:
			l["type"], l["message"] = "assistant", map[string]any{"id": fmt.Sprintf("a%d", turn), "role": "assistant", "model": "m1",
				"content": []any{map[string]any{"type": "text", "text": text(i, 30)}}}
		case 2:
			l["type"], l["message"] = "assistant", map[string]any{"id": fmt.Sprintf("a%d", turn), "role": "assistant", "model": "m1",
				"content": []any{map[string]any{"type": "tool_use", "name": "Bash", "input": map[string]any{"command": "grep -rn " + text(i, 2)}}}}
		case 3:
			l["type"], l["message"] = "user", map[string]any{"role": "user",
				"content": []any{map[string]any{"type": "tool_result", "content": text(i, 40)}}}
		case 4:
			l["type"], l["message"] = "assistant", map[string]any{"id": fmt.Sprintf("b%d", turn), "role": "assistant", "model": "m1",
				"content": []any{map[string]any{"type": "text", "text": text(i, 20)}}}
		default:
			l["type"], l["content"] = "system", "hook ran"
		}
		b, err := json.Marshal(l)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(append(out, b...), '\n')
	}
	return out
}
