//go:build unix

package lsp

import (
	"os"
	"syscall"
	"time"
)

// parentCheck is how often the server checks that its client still lives.
const parentCheck = 3 * time.Second

// watchParent ends the session when the process that started the server
// (initialize's processId) is gone, as LSP asks: an editor that crashed
// must not leave servers holding the palace open.
func (s *server) watchParent() {
	pid := s.client.pid
	if pid <= 0 || pid == os.Getpid() {
		return
	}
	go func() {
		t := time.NewTicker(parentCheck)
		defer t.Stop()
		for {
			select {
			case <-s.ctx.Done():
				return
			case <-t.C:
				if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
					s.infof("the client process %d is gone; exiting", pid)
					s.exitOnce.Do(func() { close(s.exit) })
					return
				}
			}
		}
	}()
}
