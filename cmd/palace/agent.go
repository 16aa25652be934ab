package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

const agentLong = `The palace keeps a registry of specialist agents: a reviewer, an architect, a
test writer, each with its focus, the wing it works in and the wing its diary
is filed in. 'palace status' and the wake-up list them, so agents sharing the
palace keep separate journals and know of each other. An agent writes its
diary under its registered name (palace_diary's "agent"); entries go to its
diary wing, by default diary-<id> as for any diary agent.

Names follow the rules of wing names (valid UTF-8, no control characters,
surrounding spaces, '/' or '"') and of diary agents (at most 100 bytes, a
letter or digit). Agents are told apart as diaries tell them apart: by the
name lower-cased, runs of other characters than letters, digits, '_', '.'
and '-' made one '-' ("Claude Code" and "claude-code" are one agent).

The registry is a palace setting: a whole-palace export carries it, a --wing
export does not.

Exit codes: 0 done, 1 error (such as no agent to remove), 2 bad usage or
input (such as a name already registered: nothing written).`

func newAgentCmd(g *globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "agent",
		Short: "Register, list and remove specialist agents, each with its own diary",
		Long:  agentLong,
	}
	needsSubcommand(c)
	c.AddCommand(newAgentAddCmd(g), newAgentListCmd(g), newAgentRmCmd(g))
	return c
}

func newAgentAddCmd(g *globals) *cobra.Command {
	var (
		req    ops.AgentAddRequest
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "add NAME --focus TEXT",
		Short: "Register a specialist agent",
		Long: `Add registers NAME with its focus, one line saying what it looks after.
--wing is the wing it works in (default: the whole palace); --diary the wing
its diary entries go to (default diary-<id>, where palace_diary files an
agent's entries when no wing is given). Neither wing has to exist yet.

A name already registered (by id) is refused and nothing changes: to change
an agent, 'palace agent rm NAME' and add it again; its diary is kept.

Exit codes: 0 done, 1 error, 2 bad usage or input (nothing written).`,
		Example: `  palace agent add reviewer --focus "reviews Go changes for races and error handling" --wing api
  palace agent add architect --focus "keeps the layering of ARCHITECTURE.md" --diary design-journal`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			req.Name = a[0]
			// Checked before the palace is opened: bad input writes
			// nothing, not even a new palace.
			if err := req.Validate(); err != nil {
				return usageError{err}
			}
			res, err := withPalace(g, func(p *palace.Palace) (ops.AgentChange, error) {
				return ops.AgentAdd(c.Context(), p, req)
			})
			return finishAsIs(c, asJSON, res, err, printAgentChange)
		},
	}
	c.Flags().StringVar(&req.Focus, "focus", "", "what the agent looks after, in one line (required)")
	c.Flags().StringVar(&req.Wing, "wing", "", "the wing it works in (default: the whole palace)")
	c.Flags().StringVar(&req.Diary, "diary", "", "the wing its diary is filed in (default diary-<id>)")
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}

func newAgentListCmd(g *globals) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "list",
		Short: "List the specialist agents",
		Args:  args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			res, err := readPalace(g, func(p *palace.Palace) (ops.AgentListResult, error) {
				return ops.AgentList(c.Context(), p, ops.AgentListRequest{})
			})
			return finishAsIs(c, asJSON, res, err, func(out io.Writer, res ops.AgentListResult) {
				if len(res.Agents) == 0 {
					fmt.Fprintln(out, `no agents (register one with 'palace agent add NAME --focus "..."')`)
				}
				for _, a := range res.Agents {
					printAgent(out, "", a)
				}
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}

func newAgentRmCmd(g *globals) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "rm NAME",
		Short: "Remove a specialist agent (its diary stays)",
		Long: `Rm removes NAME from the registry; its diary entries stay in the palace.

Exit codes: 0 done, 1 error (such as no such agent: nothing removed), 2 bad
usage or input.`,
		Example: `  palace agent rm reviewer`,
		Args:    args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			req := ops.AgentRmRequest{Name: a[0]}
			if err := req.Validate(); err != nil {
				return usageError{err}
			}
			res, err := withPalace(g, func(p *palace.Palace) (ops.AgentChange, error) {
				return ops.AgentRm(c.Context(), p, req)
			})
			return finishAsIs(c, asJSON, res, err, printAgentChange)
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}

// printAgentChange says what agent add or rm did.
func printAgentChange(out io.Writer, res ops.AgentChange) {
	printAgent(out, res.Action+" ", res.Agent)
}

// printAgent prints one agent on one line: name, focus, wings.
func printAgent(out io.Writer, prefix string, a ops.Agent) {
	wing := "the whole palace"
	if a.Wing != "" {
		wing = "wing " + termsafe.Line(a.Wing)
	}
	fmt.Fprintf(out, "%s%s: %s (%s; diary %s)\n", prefix, termsafe.Line(a.Name), termsafe.Line(a.Focus), wing, termsafe.Line(a.Diary))
}
