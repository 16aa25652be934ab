package mcp

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Profiles decide what the server lists. Every tool and parameter an agent
// is shown costs tokens in every session, before its first call, so the
// default profile holds what a session loop uses (wake up, search, read,
// remember, forget, facts, diary, status) with their common parameters, and
// the full profile adds the rest: mining, the taxonomy, the typed graph,
// the review of proposed facts and the rarer parameters.
const (
	ProfileCore = "core"
	ProfileFull = "full"
	// ProfileEnv names the environment variable `palace serve --mcp` reads
	// when --profile is not given, for clients whose configuration sets
	// the environment more easily than the arguments.
	ProfileEnv = "PALACE_MCP_PROFILE"
)

// Profiles are the profile names, the default first.
var Profiles = []string{ProfileCore, ProfileFull}

// CheckProfile refuses a profile name Palace does not have ("" is the
// default, core).
func CheckProfile(name string) error {
	if name == "" || slices.Contains(Profiles, name) {
		return nil
	}
	return fmt.Errorf("unknown MCP profile %q: want %s", name, strings.Join(Profiles, " or "))
}

// fullHint is how an error tells an agent to reach what the core profile
// leaves out: it cannot restart the server itself, so it asks the user.
const fullHint = "the user can start Palace with `palace serve --mcp --profile full`"

// inProfile returns the tool as the profile shows it: in the core profile
// the parameters marked full are left out of the schema, and kept aside so
// a call that gives one is told which profile has it. elsewhere are the
// tools the server leaves out, which a moved action may point to.
func (t *tool) inProfile(profile string, elsewhere map[string]bool) *tool {
	c := *t
	c.elsewhere = elsewhere
	if profile == ProfileFull {
		return &c
	}
	c.params, c.fullParams = nil, nil
	for _, p := range t.params {
		if p.full {
			c.fullParams = append(c.fullParams, p.name)
		} else {
			c.params = append(c.params, p)
		}
	}
	return &c
}

// fullOnly explains the refusal of a parameter the core profile leaves
// out, or returns "" for a name that is simply unknown.
func (t *tool) fullOnly(name string) string {
	if slices.Contains(t.fullParams, name) {
		return fmt.Sprintf("parameter %q is in the full profile only: %s", name, fullHint)
	}
	return ""
}

// movedAction names the tool that took over the action v (a JSON string),
// or returns "" when the action is not one that moved.
func (t *tool) movedAction(v json.RawMessage) string {
	var action string
	if t.moved == nil || json.Unmarshal(v, &action) != nil {
		return ""
	}
	to, ok := t.moved[action]
	if !ok {
		return ""
	}
	msg := fmt.Sprintf("%q must be one of %s; %q is %s's: call %s with it",
		"action", strings.Join(t.param("action").enum, ", "), action, to, to)
	if t.elsewhere[to] {
		msg += "; that tool is in the full profile only: " + fullHint
	}
	return msg
}
