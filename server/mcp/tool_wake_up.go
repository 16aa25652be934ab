package mcp

import (
	"context"

	"github.com/palace-dev/palace/core/memory"
)

func toolWakeUp() *tool {
	return &tool{
		name:  "palace_wake_up",
		title: "Wake up",
		desc: "The context that opens a session, within a token budget: L0, who you work for (the identity files), then L1, the project's essential story " +
			"(its most important and newest drawers, current facts, latest diary entries). Call it once at the start of a session. " +
			"The result's text is what to read; the lists say which drawers and facts it drew on.",
		readOnly: true, idempotent: true,
		params: []param{
			{name: "wing", kind: kString, maxLen: memory.MaxNameBytes,
				desc: "The wing to wake up in. Omit it to use this session's project wing, or the whole palace when none is known."},
			{name: "format", kind: kString, enum: []string{memory.FormatText, memory.FormatAAAK},
				desc: "text (default, sections of plain lines) or aaak (one compact AAAK document; palace_status has the legend)."},
			{name: "budget", kind: kInteger, min: num(1), max: num(memory.MaxBudget),
				desc: "The most tokens the text may take (default 200)."},
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
	if in.Wing == "" {
		in.Wing = s.knownWing(ctx)
	}
	return memory.WakeUp(ctx, s.p, memory.WakeRequest{Wing: in.Wing, Format: in.Format, Budget: in.Budget})
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
