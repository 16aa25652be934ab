package lsp

import (
	"context"
	"encoding/json"
	"time"
)

// shutdown stops background work and answers once it has stopped (or
// ShutdownWait passed). Mining is cancelled between files and embedding
// between batches; each is committed in whole transactions, so the palace
// is consistent at every point and the next mine resumes. It waits on the
// read loop, which is safe because cancelling the background context also
// ends any request the background had sent to the client.
func shutdown(_ context.Context, s *server, _ json.RawMessage) (any, error) {
	s.mu.Lock()
	s.shutdown = true
	for _, cancel := range s.running {
		cancel()
	}
	s.mu.Unlock()
	s.cancelBackground()
	done := make(chan struct{})
	go func() {
		s.idx.wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(s.opts.ShutdownWait):
		s.warnf("shutdown: background work still running after %s", s.opts.ShutdownWait)
	}
	return nil, nil
}

// exit ends the session; Serve returns (nil after shutdown, ErrNoShutdown
// without one) and the process exits with that status.
func exit(_ context.Context, s *server, _ json.RawMessage) error {
	s.exitOnce.Do(func() { close(s.exit) })
	return nil
}
