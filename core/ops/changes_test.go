package ops

import (
	"context"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/palace"
)

// TestWatchChangesSeesAnotherConnection: a write through another palace
// handle (another process's, as far as SQLite can tell; the LSP suite
// writes with the CLI) is reported with
// the new drawer count; nothing is reported while nothing changes.
func TestWatchChangesSeesAnotherConnection(t *testing.T) {
	home := t.TempDir()
	t.Setenv("PALACE_MODEL_DIR", "")
	watched, err := palace.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer watched.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan Changed, 10)
	done := make(chan error, 1)
	go func() { done <- WatchChanges(ctx, watched, 20*time.Millisecond, func(c Changed) { got <- c }) }()

	other, err := palace.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	// Nothing written yet: nothing reported over many polls.
	select {
	case c := <-got:
		t.Fatalf("reported %+v before any write", c)
	case <-time.After(200 * time.Millisecond):
	}
	if _, err := Remember(ctx, other, RememberRequest{Text: "the cache is flushed at midnight", Wing: "w", Room: "r", Importance: DefaultImportance}); err != nil {
		t.Fatal(err)
	}
	var c Changed
	select {
	case c = <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("the write was never reported")
	}
	if c.Drawers != 1 {
		t.Errorf("drawers = %d, want 1", c.Drawers)
	}
	if _, err := time.Parse(time.RFC3339, c.At); err != nil {
		t.Errorf("at %q: %v", c.At, err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("WatchChanges after cancel: %v", err)
	}
}
