package mine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

// drawerDump is every drawer of a palace as one comparable line each:
// everything a mine decides about a drawer but when it ran; with keys
// only, what the crash tests compare (a whole re-mine keeps a drawer whose
// content did not change as it was, index text and metadata included).
func drawerDump(t testing.TB, p *palace.Palace, keysOnly bool) []string {
	t.Helper()
	ds, err := p.Store.ListDrawers(context.Background(), store.Filter{}, 1<<30)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(ds))
	for i, d := range ds {
		if keysOnly {
			out[i] = fmt.Sprintf("%s %s/%s %s %s:%d-%d %s", d.ID, d.Wing, d.Room, d.Kind, d.Source, d.LineStart, d.LineEnd, d.ContentHash)
			continue
		}
		out[i] = fmt.Sprintf("%s %s/%s %s %s:%d-%d %q %q %s %s %s", d.ID, d.Wing, d.Room, d.Kind, d.Source,
			d.LineStart, d.LineEnd, d.Content, d.IndexText, d.OccurredAt, d.OccurredEnd, d.Metadata)
	}
	sort.Strings(out)
	return out
}

// sameDrawers fails unless two palaces hold the same drawers.
func sameDrawers(t testing.TB, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d drawers, a clean mine has %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: drawers differ from a clean mine's:\n got %.300s\nwant %.300s", what, got[i], want[i])
		}
	}
}

func writeLog(t testing.TB, path string, data []byte, appendIt bool) {
	t.Helper()
	flag := os.O_CREATE | os.O_WRONLY | os.O_TRUNC
	if appendIt {
		flag = os.O_CREATE | os.O_WRONLY | os.O_APPEND
	}
	f, err := os.OpenFile(path, flag, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func mineLog(t testing.TB, ctx context.Context, p *palace.Palace, path string) *Summary {
	t.Helper()
	sum, err := Run(ctx, p, path, Options{Wing: "shop", Mode: ModeConvos})
	if err != nil {
		t.Fatalf("mine %s: %v", path, err)
	}
	return sum
}

// cleanDump is what a first mine of path's current content holds.
func cleanDump(t *testing.T, path string, keysOnly bool) []string {
	t.Helper()
	p := palacetest.OpenPalace(t)
	mineLog(t, context.Background(), p, path)
	return drawerDump(t, p, keysOnly)
}

// Appending two lines to a long session log reads only what was appended
// (and the last exchange it continues), not the whole log again (#16: an
// 80,000-line session cost 7.8 s per hook run), and gives exactly the
// drawers a clean mine of the grown log gives.
func TestAppendedSessionParsesOnlyTheNewPart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s-long.jsonl")
	writeLog(t, path, palacetest.ClaudeSession(t, "s-long", 0, 3000), false)
	p := palacetest.OpenPalace(t)
	first := mineLog(t, ctx, p, path)
	fi, _ := os.Stat(path)
	// Pieces overlap by the exchange each goes on from.
	if first.BytesParsed < fi.Size() || first.BytesParsed > fi.Size()+fi.Size()/20 || first.FilesMined != 1 || first.DrawersAdded == 0 {
		t.Fatalf("first mine: %+v, want the whole %d bytes parsed once", first, fi.Size())
	}
	for round := 0; round < 3; round++ {
		more := palacetest.ClaudeSession(t, "s-long", 3000+2*round, 2)
		writeLog(t, path, more, true)
		sum := mineLog(t, ctx, p, path)
		if sum.FilesMined != 1 || sum.DrawersAdded == 0 {
			t.Fatalf("round %d: the appended exchange was not stored: %+v", round, sum)
		}
		// The new lines plus the exchange they continue: a few KB, not
		// the log's megabytes.
		if limit := int64(len(more)) + 16<<10; sum.BytesParsed > limit {
			t.Fatalf("round %d: %d bytes parsed for %d appended to a %d-byte log (want at most %d)",
				round, sum.BytesParsed, len(more), fi.Size(), limit)
		}
		sameDrawers(t, fmt.Sprintf("round %d", round), drawerDump(t, p, false), cleanDump(t, path, false))
	}
	// Unchanged: nothing parsed at all.
	if sum := mineLog(t, ctx, p, path); sum.BytesParsed != 0 || sum.FilesUnchanged != 1 {
		t.Errorf("unchanged log: %+v", sum)
	}
}

// A log that was rewritten rather than appended to (its start changed, it
// was cut short, its last exchange was edited) is mined whole again and
// ends exactly as a clean mine of its new content.
func TestRewrittenSessionIsMinedWhole(t *testing.T) {
	ctx := context.Background()
	base := palacetest.ClaudeSession(t, "s-long", 0, 600)
	cases := map[string]func() []byte{
		"head edited": func() []byte {
			b := append([]byte(nil), base...)
			copy(b[strings.Index(string(b), "step 0"):], "STEP 0")
			return append(b, palacetest.ClaudeSession(t, "s-long", 600, 4)...)
		},
		"truncated": func() []byte { return base[:len(base)/2] },
		"last exchange edited": func() []byte {
			i := strings.LastIndex(string(base), "step 598")
			b := append([]byte(nil), base[:i]...)
			return append(append(b, "STEP 598"...), base[i+len("step 598"):]...)
		},
		"cut mid-line": func() []byte { return base[:len(base)-40] },
	}
	for name, next := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s-long.jsonl")
			writeLog(t, path, base, false)
			p := palacetest.OpenPalace(t)
			mineLog(t, ctx, p, path)
			writeLog(t, path, next(), false)
			mineLog(t, ctx, p, path)
			sameDrawers(t, name, drawerDump(t, p, true), cleanDump(t, path, true))
		})
	}
}

// A log larger than a piece is written piece by piece; an interrupted mine
// keeps the pieces it wrote and the next one goes on from there, ending
// exactly as a clean mine.
func TestLongSessionMinedInPiecesResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s-long.jsonl")
	data := palacetest.ClaudeSession(t, "s-long", 0, 4000) // about 5 pieces
	if len(data) < 3*pieceBytes {
		t.Fatalf("the session is %d bytes, too small for pieces", len(data))
	}
	writeLog(t, path, data, false)
	want := cleanDump(t, path, false)

	p := palacetest.OpenPalace(t)
	ctx, cancel := context.WithCancel(context.Background())
	// Cancel once the first piece is written: the writer reports each
	// committed transaction through the store's audit log; a mine's
	// progress callback runs per file, so watch the drawers instead.
	stop := make(chan struct{})
	go func() {
		defer close(stop)
		for ctx.Err() == nil {
			if n, _ := p.Store.ListDrawers(context.Background(), store.Filter{}, 1); len(n) > 0 {
				cancel()
				return
			}
		}
	}()
	sum, err := Run(ctx, p, path, Options{Wing: "shop", Mode: ModeConvos})
	cancel()
	<-stop
	if err == nil || !IsInterrupted(err) || !sum.Interrupted {
		t.Fatalf("the mine was not interrupted (%v): %+v", err, sum)
	}
	kept := len(drawerDump(t, p, true))
	if kept == 0 || kept >= len(want) {
		t.Fatalf("the interrupted mine kept %d of %d drawers", kept, len(want))
	}
	sum = mineLog(t, context.Background(), p, path)
	if sum.BytesParsed >= int64(len(data)) {
		t.Errorf("the resumed mine parsed %d bytes of %d: it started over", sum.BytesParsed, len(data))
	}
	sameDrawers(t, "resumed", drawerDump(t, p, false), want)
}

// Codex rollouts go on from where they were left too.
func TestAppendedCodexSession(t *testing.T) {
	ctx := context.Background()
	line := func(typ string, payload any) string {
		b, _ := json.Marshal(map[string]any{"timestamp": "2026-03-01T10:00:00Z", "type": typ, "payload": payload})
		return string(b) + "\n"
	}
	msg := func(role, text string) string {
		return line("response_item", map[string]any{"type": "message", "role": role,
			"content": []any{map[string]any{"type": "input_text", "text": text}}})
	}
	var b strings.Builder
	b.WriteString(line("session_meta", map[string]any{"id": "cx-1", "timestamp": "2026-03-01T10:00:00Z", "cwd": "/work/shop"}))
	for i := 0; i < 400; i++ {
		b.WriteString(msg("user", fmt.Sprintf("question %d about the schema migration", i)))
		b.WriteString(line("event_msg", map[string]any{"type": "user_message", "message": fmt.Sprintf("question %d", i)}))
		b.WriteString(msg("assistant", fmt.Sprintf("answer %d: the index is rebuilt after the migration", i)))
	}
	path := filepath.Join(t.TempDir(), "rollout-2026-03-01T10-00-00-cx-1.jsonl")
	writeLog(t, path, []byte(b.String()), false)
	p := palacetest.OpenPalace(t)
	mineLog(t, ctx, p, path)
	more := msg("user", "one more question") + msg("assistant", "one more answer")
	writeLog(t, path, []byte(more), true)
	sum := mineLog(t, ctx, p, path)
	if sum.BytesParsed > int64(len(more))+4<<10 || sum.DrawersAdded == 0 {
		t.Fatalf("appended Codex log: %+v", sum)
	}
	sameDrawers(t, "codex", drawerDump(t, p, false), cleanDump(t, path, false))
}
