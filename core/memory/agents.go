package memory

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// MaxFocusBytes bounds an agent's focus: one line saying what it looks
// after, shown in every status and wake-up.
const MaxFocusBytes = 500

// Agent is a specialist agent of the palace's registry: a reviewer and an
// architect, say, each with its own focus and its own diary, listed in the
// status and the wake-up so that each knows of the others.
type Agent = store.Agent

// CheckAgent validates an agent as 'palace agent add' receives it and
// returns it normalised, with its id. The name follows the rules of wing
// names (it is shown as one, and its diary wing is made from it) and of
// diary agents (AgentID: the id must keep a letter or digit); the id is
// what tells agents apart, so "Claude Code" and "claude-code" are one
// agent, as they are one diary. Focus is one line, required. Wing and
// Diary are wing names, optional: Wing "" is the whole palace and Diary ""
// the wing a diary entry goes to by default, DiaryWingPrefix + id. Neither
// has to exist yet: an agent is often registered before it has written or
// anything was mined.
func CheckAgent(a Agent) (Agent, string, error) {
	var n Agent
	var err error
	if n.Name, err = checkName("agent", a.Name, false); err != nil {
		return n, "", err
	}
	id, err := AgentID(n.Name)
	if err != nil {
		return n, "", err
	}
	if n.Focus, err = checkFocus(a.Focus); err != nil {
		return n, "", err
	}
	if n.Wing, err = checkName("wing", a.Wing, true); err != nil {
		return n, "", err
	}
	if n.Diary, err = checkName("diary", a.Diary, true); err != nil {
		return n, "", err
	}
	if n.Diary == "" {
		n.Diary = DiaryWingPrefix + id
	}
	return n, id, nil
}

// checkFocus accepts one line of text, trimmed, not empty.
func checkFocus(s string) (string, error) {
	if len(s) > MaxFocusBytes {
		return "", invalid("focus", "is %d bytes; the limit is %d: say in one line what the agent looks after", len(s), MaxFocusBytes)
	}
	if err := checkLabel("focus", s); err != nil {
		return "", err
	}
	if s = strings.TrimSpace(s); s == "" {
		return "", invalid("focus", "is empty: say what the agent looks after (\"reviews Go code for data races\")")
	}
	return s, nil
}

// CheckRegistry refuses a stored registry (an import's setting value) that
// AddAgent could not have written: an agent CheckAgent refuses or would
// change, or two agents with one id.
func CheckRegistry(v string) error {
	list, err := store.DecodeAgents(v)
	if err != nil {
		return input.Invalid("value", "%v", err)
	}
	seen := map[string]bool{}
	for i, a := range list {
		n, id, err := CheckAgent(a)
		if err != nil {
			return input.Invalid("value", "agent %d: %v", i+1, err)
		}
		if n != a {
			return input.Invalid("value", "agent %d (%s) is not as 'palace agent add' writes it (names trimmed, a diary wing set)", i+1, quote(a.Name))
		}
		if seen[id] {
			return input.Invalid("value", "agent %d: %s is registered twice", i+1, quote(a.Name))
		}
		seen[id] = true
	}
	return nil
}

// ListAgents returns the registry sorted by agent id; never nil.
func ListAgents(ctx context.Context, p *palace.Palace) ([]Agent, error) {
	list, err := p.Store.Agents(ctx)
	if err != nil {
		return nil, err
	}
	return sorted(list), nil
}

// AddAgent registers a. An agent already registered under the same id is
// refused, naming it, rather than replaced: "Claude Code" must not silently
// take over the focus and diary wing of "claude-code". Changing an agent is
// rm then add; its diary entries stay where they are.
func AddAgent(ctx context.Context, p *palace.Palace, a Agent) (Agent, error) {
	n, id, err := CheckAgent(a)
	if err != nil {
		return n, err
	}
	err = p.Store.UpdateAgents(ctx, "agent.add", id, func(cur []Agent) ([]Agent, error) {
		if i := indexOf(cur, id); i >= 0 {
			return nil, invalid("agent", "%s is already registered as %s (focus %s): remove it first ('palace agent rm %s') to change it",
				quote(n.Name), quote(cur[i].Name), quote(cur[i].Focus), quote(cur[i].Name))
		}
		return sorted(append(cur, n)), nil
	})
	if err != nil && !errors.Is(err, input.ErrInvalid) {
		err = fmt.Errorf("add agent %s: %w", id, err)
	}
	return n, err
}

// RemoveAgent unregisters the agent named name (matched by id, as diaries
// match agents) and returns it. Its diary entries are kept: they are the
// palace's record. An agent not registered is ErrNotFound and nothing
// changes.
func RemoveAgent(ctx context.Context, p *palace.Palace, name string) (Agent, error) {
	id, err := AgentID(name)
	if err != nil {
		return Agent{}, err
	}
	var gone Agent
	err = p.Store.UpdateAgents(ctx, "agent.rm", id, func(cur []Agent) ([]Agent, error) {
		i := indexOf(cur, id)
		if i < 0 {
			known := "none is registered"
			if len(cur) > 0 {
				names := make([]string, len(cur))
				for j, c := range sorted(cur) {
					names[j] = c.Name
				}
				known = "registered: " + strings.Join(names, ", ")
			}
			return nil, fmt.Errorf("agent %s: %w; nothing removed (%s)", quote(strings.TrimSpace(name)), store.ErrNotFound, known)
		}
		gone = cur[i]
		return slices.Delete(cur, i, i+1), nil
	})
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		err = fmt.Errorf("remove agent %s: %w", id, err)
	}
	return gone, err
}

// RegisteredDiary is the diary wing the registry gives agent, "" when it
// is not registered: a registered agent's entries go there by default.
func RegisteredDiary(ctx context.Context, p *palace.Palace, agent string) (string, error) {
	id, err := AgentID(agent)
	if err != nil {
		return "", err
	}
	list, err := p.Store.Agents(ctx)
	if err != nil {
		return "", err
	}
	if i := indexOf(list, id); i >= 0 {
		return list[i].Diary, nil
	}
	return "", nil
}

// idOf is the id of a stored name, which CheckAgent accepted; a name it
// would refuse (a hand-edited database) is its own id, so the registry
// still lists.
func idOf(name string) string {
	if id, err := AgentID(name); err == nil {
		return id
	}
	return name
}

// indexOf is the index of the agent with id in list, -1 if none.
func indexOf(list []Agent, id string) int {
	return slices.IndexFunc(list, func(a Agent) bool { return idOf(a.Name) == id })
}

// sorted returns the agents sorted by id, a copy, never nil.
func sorted(list []Agent) []Agent {
	out := append([]Agent{}, list...)
	slices.SortStableFunc(out, func(a, b Agent) int { return strings.Compare(idOf(a.Name), idOf(b.Name)) })
	return out
}
