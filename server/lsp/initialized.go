package lsp

import (
	"context"
	"encoding/json"
)

// initialized asks the client to watch the workspace's files (changes made
// outside the editor: git checkout, formatters, generators), starts
// watching the palace for palace/changed, and queues the first mine of
// every folder, which reports progress. Both run in the
// background: registering is a request to the client, and waiting for its
// answer on the read loop would deadlock.
func initialized(_ context.Context, s *server, _ json.RawMessage) error {
	if s.client.watchRegistation {
		go func() {
			params := map[string]any{"registrations": []map[string]any{{
				"id":     "palace-watch",
				"method": "workspace/didChangeWatchedFiles",
				"registerOptions": map[string]any{
					"watchers": []map[string]any{{"globPattern": "**/*"}},
				},
			}}}
			if err := s.callClient(s.bg, "client/registerCapability", params, nil); err != nil && s.bg.Err() == nil {
				s.warnf("watch files: %v (changes made outside the editor are seen at the next save)", err)
			}
		}()
	}
	s.watchChanges()
	if s.cfg.mineOnStartup {
		for _, f := range s.folders.all() {
			s.idx.enqueue(f, "startup", true)
		}
	}
	return nil
}
