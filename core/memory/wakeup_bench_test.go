package memory

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// BenchmarkWakeUpBusyWing times the wake-up a SessionStart hook asks for
// in a wing at the Decided section's bound: 200 notes (every tenth
// correcting an earlier one, every seventh said twice), 80 mined
// exchanges full of tool calls, 5 diary entries, at the default budget.
func BenchmarkWakeUpBusyWing(b *testing.B) {
	ctx := context.Background()
	p, err := palace.Open(b.TempDir(), palace.Options{Embed: &embed.Config{LibDirs: []string{}}})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	subjects := []string{"retry policy", "connection pool", "cache size", "deploy window", "log level", "session timeout", "queue depth"}
	for i := range wakeNewestNotes {
		s := subjects[i%len(subjects)]
		text := fmt.Sprintf("The %s of service %d is %d.", s, i/len(subjects), i)
		switch {
		case i%10 == 9:
			text = fmt.Sprintf("Correction: the %s of service %d is %d, not %d.", s, (i-7)/len(subjects), i, i-7)
		case i%7 == 6:
			text = fmt.Sprintf("The %s of service %d is %d.", subjects[(i-1)%len(subjects)], (i-1)/len(subjects), i-1)
		}
		if _, err := Remember(ctx, p, Note{Wing: "proj", Text: text, Importance: 1 + i%5, At: t0.Add(time.Duration(i) * time.Minute)}, RememberOptions{Force: true}); err != nil {
			b.Fatal(err)
		}
	}
	var ds []store.Drawer
	for i := range 2 * wakeDrawers {
		text := fmt.Sprintf("user: please look at handler %d\n\nassistant: [tool_use Read] {\"file_path\":\"/src/h%d.go\"}\n\ntool: [tool_result] package h\nfunc H%d() {}", i, i, i)
		h := store.ContentHash(text)
		at := t0.Add(time.Duration(i) * time.Hour)
		ds = append(ds, store.Drawer{ID: store.DrawerID("proj", "s.jsonl", i, h), Wing: "proj", Room: "sessions", Kind: store.KindConversation,
			Source: "s.jsonl", LineStart: 1, LineEnd: 1, Content: text, ContentHash: h, CreatedAt: at, OccurredAt: at, Metadata: "{}"})
	}
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		b.Fatal(err)
	}
	for i := range wakeDiary {
		if _, err := WriteDiary(ctx, p, DiaryEntry{Agent: "claude", Wing: "proj", Text: fmt.Sprintf("Session %d done.\nOpen: item %d", i, i), At: t0.Add(time.Duration(i) * time.Hour)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	var w WakeResult
	for b.Loop() {
		if w, err = WakeUp(ctx, p, WakeRequest{Wing: "proj", Now: t0}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(w.Decided)), "notes-shown")
	b.ReportMetric(float64(w.Tokens), "tokens")
}
