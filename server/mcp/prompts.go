package mcp

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/palace-dev/palace/core/memory"
)

// addPrompts registers the wake-up prompt: the same text as palace_wake_up,
// for clients that let the user start a session from a prompt (wake-up
// must be reachable without the agent deciding to call a tool).
func (s *Server) addPrompts() {
	s.mcp.AddPrompt(mcp.NewPrompt("wake-up",
		mcp.WithPromptTitle("Wake up with Palace"),
		mcp.WithPromptDescription("Open a session with Palace's memory: who you work for and this project's essential story, within a token budget."),
		mcp.WithArgument("wing", mcp.ArgumentDescription("The wing to wake up in; omit for the session's project wing, or the whole palace.")),
		mcp.WithArgument("format", mcp.ArgumentDescription("text (default) or aaak.")),
		mcp.WithArgument("budget", mcp.ArgumentDescription("The most tokens to use (default 200).")),
	), s.wakeUpPrompt)
}

func (s *Server) wakeUpPrompt(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	r := memory.WakeRequest{Wing: req.Params.Arguments["wing"], Format: req.Params.Arguments["format"]}
	for k := range req.Params.Arguments {
		if k != "wing" && k != "format" && k != "budget" {
			return nil, fmt.Errorf("wake-up: unknown argument %q (it takes wing, format and budget)", k)
		}
	}
	if b := strings.TrimSpace(req.Params.Arguments["budget"]); b != "" {
		n, err := strconv.Atoi(b)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("wake-up: budget %q: want a whole number of tokens, 1 or more", b)
		}
		r.Budget = n
	}
	if r.Wing == "" {
		r.Wing = s.knownWing(ctx)
	}
	res, err := memory.WakeUp(ctx, s.p, r)
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
