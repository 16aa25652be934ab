package lsp

import "github.com/palace-dev/palace/core/ops"

// watchChanges sends palace/changed {drawers, at} whenever the palace
// database changes, whoever wrote it (this server's mines, the CLI, an
// agent over MCP, another editor), at most once per ops.ChangeEvery, so a
// client can refresh its drawer count. The core reads the database; this
// only relays. It runs until shutdown ends background work, and stop
// waits for it before closing the palace.
func (s *server) watchChanges() {
	s.watching.Add(1)
	go func() {
		defer s.watching.Done()
		err := ops.WatchChanges(s.bg, s.p, ops.ChangeEvery, func(c ops.Changed) {
			s.sendNotification("palace/changed", c)
		})
		if err != nil {
			s.warnf("palace/changed: %v; drawer counts refresh only on request", err)
		}
	}()
}
