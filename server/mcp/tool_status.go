package mcp

import (
	"context"

	"github.com/palace-dev/palace/core/ops"
)

func toolStatus() *tool {
	return &tool{
		name:  "palace_status",
		title: "Palace status",
		desc: "Overview of the palace: drawers per wing and room, the wings, the specialist agents the user registered (name, focus, wing, diary wing), " +
			"the embedding backend and how many drawers still wait for a vector, " +
			"the wing this session writes to (and where it came from), the memory protocol to follow, and a short legend of the AAAK format. " +
			"Call it once when you need exact wing or room names; they are the only values to pass as `wing` or `room` elsewhere.",
		readOnly: true, idempotent: true,
		run: runStatus,
	}
}

// sessionStatus says which wing this session writes to and why.
type sessionStatus struct {
	Wing string `json:"wing,omitempty"`
	// WingFrom is "flag" (--wing), "roots" (the client's roots), or "" when
	// no wing is known and writing tools need one passed.
	WingFrom string `json:"wing_from,omitempty"`
	Roots    []root `json:"roots"`
	// RootsError says why the client's roots could not be read.
	RootsError string `json:"roots_error,omitempty"`
	Client     string `json:"client,omitempty"`
}

// statusResult is `palace status --json` plus the session and what an
// agent needs to use the palace well.
type statusResult struct {
	ops.StatusResult
	Session        sessionStatus `json:"session"`
	MemoryProtocol string        `json:"memory_protocol"`
	AAAKLegend     string        `json:"aaak_legend"`
}

func runStatus(ctx context.Context, s *Server, _ args) (any, error) {
	st, err := ops.Status(ctx, s.p, ops.StatusRequest{})
	if err != nil {
		return nil, err
	}
	return statusResult{StatusResult: st, Session: s.sessionStatus(ctx),
		MemoryProtocol: instructions, AAAKLegend: aaakLegend}, nil
}

func (s *Server) sessionStatus(ctx context.Context) sessionStatus {
	ss := sessionStatus{Roots: []root{}, Client: clientName(ctx)}
	rs, err := s.roots(ctx)
	if err != nil {
		ss.RootsError = err.Error()
	}
	if rs != nil {
		ss.Roots = rs
	}
	switch {
	case s.opts.Wing != "":
		ss.Wing, ss.WingFrom = s.opts.Wing, "flag"
	case err == nil:
		if w, werr := s.wing(ctx, ""); werr == nil {
			ss.Wing, ss.WingFrom = w, "roots"
		}
	}
	return ss
}
