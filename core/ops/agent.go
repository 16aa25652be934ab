package ops

import (
	"context"

	"github.com/palace-dev/palace/core/memory"
	"github.com/palace-dev/palace/core/palace"
)

// MaxFocusBytes bounds an agent's focus, one line.
const MaxFocusBytes = memory.MaxFocusBytes

// What an add or rm did to the registry (AgentChange.Action).
const (
	AgentAdded   = "added"
	AgentRemoved = "removed"
)

// Agent is a specialist agent of the registry: name, focus, the wing it
// works in ("" for the whole palace) and the wing its diary is filed in.
type Agent = memory.Agent

// AgentAddRequest registers a specialist agent.
type AgentAddRequest struct {
	// Name follows the rules of wing names and diary agents; agents are
	// told apart as diaries tell them apart (memory.AgentID).
	Name  string
	Focus string // one line, required
	Wing  string // "": the whole palace
	// Diary is the wing its entries go to; "": the wing palace_diary files
	// the agent's entries in by default, DiaryWingPrefix + its id.
	Diary string
}

func (r AgentAddRequest) agent() Agent {
	return Agent{Name: r.Name, Focus: r.Focus, Wing: r.Wing, Diary: r.Diary}
}

// Validate names the first bad field.
func (r AgentAddRequest) Validate() error {
	_, _, err := memory.CheckAgent(r.agent())
	return err
}

// AgentChange is what an add or rm did: Action is AgentAdded or
// AgentRemoved, Agent the agent as stored.
type AgentChange struct {
	Action string `json:"action"`
	Agent  Agent  `json:"agent"`
}

// AgentAdd registers an agent, waiting for a busy palace. A name already
// registered (by id) is invalid and nothing changes: to change an agent,
// remove it and add it again.
func AgentAdd(ctx context.Context, p *palace.Palace, r AgentAddRequest) (AgentChange, error) {
	if err := r.Validate(); err != nil {
		return AgentChange{Action: AgentAdded, Agent: r.agent()}, err
	}
	a, err := retryBusy(ctx, "agent add", func() (Agent, error) {
		return memory.AddAgent(ctx, p, r.agent())
	})
	return AgentChange{Action: AgentAdded, Agent: a}, err
}

// AgentListRequest lists the registry; it has no fields.
type AgentListRequest struct{}

// Validate has nothing to check.
func (AgentListRequest) Validate() error { return nil }

// AgentListResult is the registry sorted by agent id; Agents is never null.
type AgentListResult struct {
	Agents []Agent `json:"agents"`
}

// AgentList returns the registry.
func AgentList(ctx context.Context, p *palace.Palace, _ AgentListRequest) (AgentListResult, error) {
	list, err := memory.ListAgents(ctx, p)
	if err != nil {
		return AgentListResult{Agents: []Agent{}}, err
	}
	return AgentListResult{Agents: list}, nil
}

// AgentRmRequest unregisters an agent.
type AgentRmRequest struct {
	Name string // matched by id, as diaries match agents
}

// Validate names the first bad field.
func (r AgentRmRequest) Validate() error {
	_, err := memory.AgentID(r.Name)
	return err
}

// AgentRm unregisters an agent; its diary entries stay. An agent not
// registered is ErrNotFound and nothing changes.
func AgentRm(ctx context.Context, p *palace.Palace, r AgentRmRequest) (AgentChange, error) {
	res := AgentChange{Action: AgentRemoved, Agent: Agent{Name: r.Name}}
	if err := r.Validate(); err != nil {
		return res, err
	}
	a, err := retryBusy(ctx, "agent rm", func() (Agent, error) {
		return memory.RemoveAgent(ctx, p, r.Name)
	})
	if err != nil {
		return res, err
	}
	res.Agent = a
	return res, nil
}
