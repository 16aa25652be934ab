package mine

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/palace/palacetest"
)

// toolOutput is about size bytes of what a tool prints: numbered log lines
// of words, some naming days relative to when they were said.
func toolOutput(size int) string {
	words := strings.Fields("parser cache token deploy index vector schema query router budget commit branch merge rollback latency shard")
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "%06d", i)
		for j := 0; j < 10; j++ {
			b.WriteByte(' ')
			b.WriteString(words[(i*7+j*3+j*j)%len(words)])
		}
		if i%50 == 7 {
			b.WriteString(" since yesterday")
		}
		b.WriteByte('\n')
	}
	return b.String()[:size]
}

// sessionWithOutput is a Claude Code session log whose one tool result is
// out, followed by after more prompts and replies.
func sessionWithOutput(tb testing.TB, out string, after int) []byte {
	var b []byte
	line := func(typ string, msg map[string]any, i int) {
		l := map[string]any{"type": typ, "sessionId": "s-big", "cwd": "/work/shop",
			"timestamp": time.Date(2026, 3, 2, 10, 0, i, 0, time.UTC).Format(time.RFC3339), "message": msg}
		j, err := json.Marshal(l)
		if err != nil {
			tb.Fatal(err)
		}
		b = append(append(b, j...), '\n')
	}
	line("user", map[string]any{"role": "user", "content": "dump the deploy log"}, 0)
	line("assistant", map[string]any{"id": "a0", "role": "assistant", "content": []any{
		map[string]any{"type": "tool_use", "name": "Bash", "input": map[string]any{"command": "cat deploy.log"}}}}, 1)
	line("user", map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "tool_result", "content": out}}}, 2)
	for i := 0; i < after; i++ {
		line("user", map[string]any{"role": "user", "content": fmt.Sprintf("after the log, question %d about the zebrafish%d rollout", i, i)}, 3+2*i)
		line("assistant", map[string]any{"id": fmt.Sprintf("b%d", i), "role": "assistant", "content": []any{
			map[string]any{"type": "text", "text": fmt.Sprintf("answer %d: the zebrafish%d rollout waits for the cache", i, i)}}}, 4+2*i)
	}
	return b
}

// BenchmarkLongMessage mines a session whose one tool output is 10 KB to
// 10 MB into a new palace, and reports the seconds each megabyte took
// (s/MB): a mine linear in the text keeps it flat from size to size. The
// 10 MB run also reports the slope of time over size on a log-log scale
// from the 100 KB run (time grows as size^slope: 1 is linear, 2 quadratic).
//
//	go test -run '^$' -bench LongMessage -benchtime 1x ./core/mine
func BenchmarkLongMessage(b *testing.B) {
	type run struct{ seconds, mb float64 }
	runs := map[int]run{}
	for _, kb := range []int{10, 100, 1 << 10, 10 << 10} {
		data := sessionWithOutput(b, toolOutput(kb<<10), 2)
		b.Run(fmt.Sprintf("%dKB", kb), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			var took time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				dir := b.TempDir()
				path := filepath.Join(dir, "s-big.jsonl")
				if err := os.WriteFile(path, data, 0o600); err != nil {
					b.Fatal(err)
				}
				p := palacetest.OpenPalace(b)
				b.StartTimer()
				start := time.Now()
				if _, err := Run(context.Background(), p, path, Options{Wing: "shop", Mode: ModeConvos}); err != nil {
					b.Fatal(err)
				}
				took += time.Since(start)
			}
			r := run{took.Seconds() / float64(b.N), float64(len(data)) / (1 << 20)}
			runs[kb] = r
			b.ReportMetric(r.seconds/r.mb, "s/MB")
			// Only reported metrics are printed: a parent benchmark's log is not.
			if from, ok := runs[100]; ok && kb == 10<<10 {
				b.ReportMetric(math.Log(r.seconds/from.seconds)/math.Log(r.mb/from.mb), "slope")
			}
		})
	}
}

// A line longer than a piece is read whole, with about a piece of the
// lines after it, and the piece ends at a line end.
func TestReadPieceLongLine(t *testing.T) {
	var data []byte
	for i := 0; i < 10; i++ {
		data = append(data, fmt.Sprintf("short line %d\n", i)...)
	}
	longStart := len(data)
	longEnd := longStart + 3<<20
	data = append(data, strings.Repeat("x", 3<<20-1)+"\n"...)
	for len(data) < longEnd+4*pieceBytes {
		data = append(data, strings.Repeat("y", 999)+"\n"...)
	}
	path := filepath.Join(t.TempDir(), "log.jsonl")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Going on from a mine that stopped reading where the long line starts.
	got, final, err := readPiece(f, 0, int64(longStart), int64(len(data)))
	if err != nil || final {
		t.Fatalf("final %v, err %v", final, err)
	}
	if len(got) <= longEnd || len(got) > longEnd+pieceBytes || got[len(got)-1] != '\n' {
		t.Fatalf("piece of %d bytes, the long line ends at %d: want whole lines to at most %d past it", len(got), longEnd, pieceBytes)
	}
	if string(got) != string(data[:len(got)]) {
		t.Fatal("the piece is not the log's bytes")
	}
	// Near the end, the piece is the rest.
	got, final, err = readPiece(f, int64(longEnd), int64(len(data))-pieceBytes/2, int64(len(data)))
	if err != nil || !final || len(got) != len(data)-longEnd {
		t.Fatalf("last piece: %d bytes, final %v, err %v", len(got), final, err)
	}
}
