package mcp

import (
	"context"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/palace-dev/palace/core/ops"
)

// Resource subscriptions: a client (an editor panel, say) subscribes to
// palace://status or a drawer and is told when a write through this server
// changes it. Writes by other processes (the CLI, hooks) are not seen.

func (s *Server) subscribe(ctx context.Context, uri string, on bool) {
	cs := server.ClientSessionFromContext(ctx)
	if cs == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.subs == nil {
		s.subs = map[string]map[string]bool{}
	}
	id := cs.SessionID()
	if on {
		if s.subs[id] == nil {
			s.subs[id] = map[string]bool{}
		}
		s.subs[id][uri] = true
		return
	}
	delete(s.subs[id], uri)
}

// changed tells the sessions subscribed to any of uris that they changed.
func (s *Server) changed(uris ...string) {
	s.mu.Lock()
	var sends [][2]string
	for id, set := range s.subs {
		for _, u := range uris {
			if set[u] {
				sends = append(sends, [2]string{id, u})
			}
		}
	}
	s.mu.Unlock()
	for _, x := range sends {
		if err := s.mcp.SendNotificationToSpecificClient(x[0], mcp.MethodNotificationResourceUpdated, map[string]any{"uri": x[1]}); err != nil {
			s.log.Debug("resource update not sent", "session", x[0], "uri", x[1], "error", err)
		}
	}
}

// drawerURI is a drawer's resource URI.
func drawerURI(id string) string { return strings.Replace(drawerTemplate, "{id}", id, 1) }

// CompletePromptArgument completes the wake-up prompt's arguments: wing
// names from the palace, formats. Other prompts have nothing to complete.
func (s *Server) CompletePromptArgument(ctx context.Context, prompt string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	var values []string
	if prompt == "wake-up" {
		switch arg.Name {
		case "wing":
			wings, err := ops.Wings(ctx, s.p)
			if err != nil {
				return nil, err
			}
			for _, w := range wings {
				if strings.HasPrefix(w, arg.Value) && !slices.Contains(values, w) {
					values = append(values, w)
				}
			}
		case "format":
			for _, f := range ops.WakeFormats {
				if strings.HasPrefix(f, arg.Value) {
					values = append(values, f)
				}
			}
		}
	}
	if values == nil {
		values = []string{}
	}
	total := len(values)
	if len(values) > 100 { // the spec's maximum per answer
		values = values[:100]
	}
	return &mcp.Completion{Values: values, Total: total, HasMore: total > len(values)}, nil
}

// CompleteResourceArgument has nothing to complete: drawer ids are found
// by searching, not by prefix.
func (s *Server) CompleteResourceArgument(context.Context, string, mcp.CompleteArgument, mcp.CompleteContext) (*mcp.Completion, error) {
	return &mcp.Completion{Values: []string{}}, nil
}

// warnClient sends a tool failure to the client's log as well, at level
// warning, when it asked for logs (logging/setLevel).
func (s *Server) warnClient(ctx context.Context, msg string) {
	_ = s.mcp.SendLogMessageToClient(ctx, mcp.NewLoggingMessageNotification(mcp.LoggingLevelWarning, "palace", msg))
}
