//go:build unix

package memory

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An identity file that is a FIFO (no writer) is refused at once: opening
// it would wait for a writer and hang every session start.
func TestWakeUpIdentityFIFO(t *testing.T) {
	p := seedWake(t)
	fifo := filepath.Join(p.Store.Home(), IdentityDir, "proj.md")
	if err := os.Remove(fifo); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := WakeUp(context.Background(), p, WakeRequest{Wing: "proj"})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") || !strings.Contains(err.Error(), fifo) {
			t.Errorf("identity FIFO: %v, want an error naming it as not a regular file", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("wake-up blocked on an identity FIFO")
	}
}
