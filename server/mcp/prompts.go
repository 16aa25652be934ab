package mcp

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/palace-dev/palace/core/ops"
)

// addPrompts registers the wake-up prompt: the same text as palace_wake_up,
// for clients that let the user start a session from a prompt (wake-up
// must be reachable without the agent deciding to call a tool).
func (s *Server) addPrompts() {
	s.mcp.AddPrompt(mcp.NewPrompt("wake-up",
		mcp.WithPromptTitle("Wake up with Palace"),
		mcp.WithPromptDescription("Open a session with Palace's memory: who you work for and this project's handoff (decisions in force, facts now, recent sessions), within a token budget."),
		mcp.WithArgument("wing", mcp.ArgumentDescription("The wing to wake up in; omit for the session's project wing, or the whole palace.")),
		mcp.WithArgument("format", mcp.ArgumentDescription(ops.OneOf(ops.WakeFormats)+" (default text).")),
		mcp.WithArgument("budget", mcp.ArgumentDescription(fmt.Sprintf("The most tokens to use, 1 to %d (default %d).", ops.MaxWakeBudget, ops.DefaultWakeBudget))),
	), s.wakeUpPrompt)
}

func (s *Server) wakeUpPrompt(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	r := ops.WakeUpRequest{Wing: req.Params.Arguments["wing"], Format: req.Params.Arguments["format"]}
	for k := range req.Params.Arguments {
		if k != "wing" && k != "format" && k != "budget" {
			return nil, fmt.Errorf("wake-up: unknown argument %q (it takes wing, format and budget)", k)
		}
	}
	if b := strings.TrimSpace(req.Params.Arguments["budget"]); b != "" {
		n, err := strconv.Atoi(b)
		if err != nil {
			return nil, fmt.Errorf("wake-up: budget %q: want a whole number of tokens, 1 to %d", b, ops.MaxWakeBudget)
		}
		if err := ops.CheckGiven("budget", n, ops.MaxWakeBudget); err != nil {
			return nil, fmt.Errorf("wake-up: %w", err)
		}
		r.Budget = n
	}
	if strings.TrimSpace(r.Wing) == "" {
		r.DefaultWing = s.knownWing(ctx)
	}
	res, err := ops.WakeUp(ctx, s.p, r)
	if err != nil {
		return nil, fmt.Errorf("wake-up: %w", err)
	}
	text := res.Text
	if text == "" {
		text = "(Palace holds nothing to wake up with yet: no identity file, notes or mined projects.)"
	}
	where := "the whole palace"
	if res.Wing != "" {
		where = "wing " + res.Wing
	}
	intro := "Here is what Palace remembers for " + where + ". Follow the memory protocol in the server instructions: search Palace before answering questions about the past, remember decisions, write the diary at the end.\n\n"
	return mcp.NewGetPromptResult("Palace wake-up for "+where, []mcp.PromptMessage{
		mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(intro+text)),
	}), nil
}
