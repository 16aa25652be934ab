//go:build unix

package fsx

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO with no writer would block os.Open forever, and one with a writer
// would stream without end: it is refused at once.
func TestReadRegularRefusesFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	link := filepath.Join(t.TempDir(), "fifo.txt")
	symlink(t, fifo, link)
	for _, p := range []string{fifo, link} {
		done := make(chan error, 1)
		go func() {
			_, err := ReadRegular(p, 1<<20)
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("%s: %v, want ErrNotRegular", p, err)
			}
		case <-time.After(5 * time.Second):
			// Unblock the stuck open so the test binary can end.
			if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				w.Close()
			}
			t.Fatalf("%s: ReadRegular blocked on a FIFO", p)
		}
	}
}
