package mcp

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	"github.com/palace-dev/palace/core/ops"
)

func toolWakeUp() *tool {
	return &tool{
		name:     "palace_wake_up",
		title:    "Wake up",
		desc:     "Call once at the start of a session: the handoff of this project (decisions in force, facts now, recent sessions, open threads, then key drawers), within a token budget.",
		readOnly: true, idempotent: true,
		params: []param{
			{name: "wing", kind: kString, maxLen: ops.MaxNameBytes,
				desc: "Exact wing name; default this session's project, else the whole palace."},
			{name: "format", kind: kString, enum: ops.WakeFormats, full: true,
				desc: "text (default, sections of plain lines), aaak (one compact AAAK document; palace_status has the legend) or json (the text, with the selection as data, as the other formats also return it)."},
			{name: "budget", kind: kInteger, min: num(1), max: num(ops.MaxWakeBudget), full: true,
				desc: fmt.Sprintf("The most tokens the text may take (default %d).", ops.DefaultWakeBudget)},
		},
		run: runWakeUp,
	}
}

type wakeArgs struct {
	Wing   string `json:"wing"`
	Format string `json:"format"`
	Budget int    `json:"budget"`
}

func runWakeUp(ctx context.Context, s *Server, a args) (any, error) {
	var in wakeArgs
	if err := a.decode(&in); err != nil {
		return nil, err
	}
	r := ops.WakeUpRequest{Wing: in.Wing, Format: in.Format, Budget: in.Budget}
	if strings.TrimSpace(in.Wing) == "" {
		r.DefaultWing = s.knownWing(ctx) // asks the client for its roots
	}
	// The project's palace.yaml may set the budget, as it does for the
	// SessionStart hook and the CLI in that folder.
	r.Dir = s.projectOf(ctx, cmp.Or(strings.TrimSpace(in.Wing), r.DefaultWing))
	return ops.WakeUp(ctx, s.p, r)
}

// projectOf is the project folder of the session's root that maps to
// wing, or "" when no root does.
func (s *Server) projectOf(ctx context.Context, wing string) string {
	if wing == "" {
		return ""
	}
	rs, err := s.roots(ctx)
	if err != nil {
		return ""
	}
	for _, r := range rs {
		if r.Wing == wing {
			return r.Project
		}
	}
	return ""
}

// onlyRootDir is the folder of the client's only root, "" with none or
// several: where a relative path the agent gives is taken from.
func (s *Server) onlyRootDir(ctx context.Context) string {
	rs, err := s.roots(ctx)
	if err != nil || len(rs) != 1 {
		return ""
	}
	return rs[0].Dir
}

// knownWing is the session's wing when one is known, else "" (the whole
// palace): reading tools never fail for want of a wing.
func (s *Server) knownWing(ctx context.Context) string {
	w, err := s.wing(ctx, "")
	if err != nil {
		return ""
	}
	return w
}
