package mcp

import (
	"context"

	"github.com/palace-dev/palace/core/ops"
)

func toolStatus() *tool {
	return &tool{
		name:     "palace_status",
		title:    "Palace status",
		desc:     "Wing and room names with drawer counts, registered agents, the embedding backend, this session's wing and profile, the AAAK legend.",
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
	// Profile is the server's profile (core or full): what it lists.
	Profile string `json:"profile"`
}

// statusResult is `palace status --json` plus the session and the AAAK
// legend. The memory protocol is not repeated here: the client has it once,
// in the initialize instructions, and a copy in every status answer cost
// thousands of tokens a call.
type statusResult struct {
	ops.StatusResult
	Session    sessionStatus `json:"session"`
	AAAKLegend string        `json:"aaak_legend"`
}

func runStatus(ctx context.Context, s *Server, _ args) (any, error) {
	st, err := ops.Status(ctx, s.p, ops.StatusRequest{})
	if err != nil {
		return nil, err
	}
	return statusResult{StatusResult: st, Session: s.sessionStatus(ctx), AAAKLegend: aaakLegend}, nil
}

func (s *Server) sessionStatus(ctx context.Context) sessionStatus {
	ss := sessionStatus{Roots: []root{}, Client: clientName(ctx), Profile: s.opts.Profile}
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
