package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

type agentOut struct {
	Name  string `json:"name"`
	Focus string `json:"focus"`
	Wing  string `json:"wing"`
	Diary string `json:"diary"`
}

type agentChange struct {
	Action string   `json:"action"`
	Agent  agentOut `json:"agent"`
}

// agentOK runs palace agent ARGS --json, expects exit 0 and decodes stdout.
func agentOK(t *testing.T, home string, v any, args ...string) {
	t.Helper()
	out, errOut, code := runPalace(t, home, append(append([]string{"agent"}, args...), "--json")...)
	if code != 0 {
		t.Fatalf("agent %v: exit %d, stderr %q", args, code, errOut)
	}
	clitest.Decode(t, "agent "+args[0], out, v)
}

func TestAgentAddListRm(t *testing.T) {
	home := t.TempDir()
	var ch agentChange
	agentOK(t, home, &ch, "add", "reviewer", "--focus", "reviews Go changes for races", "--wing", "api")
	rev := agentOut{Name: "reviewer", Focus: "reviews Go changes for races", Wing: "api", Diary: "diary-reviewer"}
	if ch.Action != "added" || ch.Agent != rev {
		t.Errorf("add: %+v", ch)
	}
	arch := agentOut{Name: "architect", Focus: "keeps the layering", Diary: "design"}
	agentOK(t, home, &ch, "add", "architect", "--focus", "keeps the layering", "--diary", "design")
	var list struct {
		Agents []agentOut `json:"agents"`
	}
	agentOK(t, home, &list, "list")
	if want := []agentOut{arch, rev}; !reflect.DeepEqual(list.Agents, want) {
		t.Errorf("list %+v, want %+v", list.Agents, want)
	}
	out, errOut, code := runPalace(t, home, "agent", "list")
	if code != 0 || out != "architect: keeps the layering (the whole palace; diary design)\nreviewer: reviews Go changes for races (wing api; diary diary-reviewer)\n" {
		t.Errorf("list as text: exit %d, %q %q", code, out, errOut)
	}

	// A name registered already is bad input (exit 2), naming the stored
	// agent; nothing changes.
	_, errOut, code = runPalace(t, home, "agent", "add", "Reviewer", "--focus", "other")
	if code != 2 || !strings.Contains(errOut, `agent "Reviewer" is already registered as "reviewer"`) {
		t.Errorf("duplicate: exit %d, %q", code, errOut)
	}
	// Removing one not registered is an error (exit 1) listing who is.
	_, errOut, code = runPalace(t, home, "agent", "rm", "tester")
	if code != 1 || !strings.Contains(errOut, `agent "tester": not found`) || !strings.Contains(errOut, "registered: architect, reviewer") {
		t.Errorf("rm of an unknown agent: exit %d, %q", code, errOut)
	}
	agentOK(t, home, &ch, "rm", "REVIEWER")
	if ch.Action != "removed" || ch.Agent != rev {
		t.Errorf("rm: %+v", ch)
	}
	agentOK(t, home, &list, "list")
	if !reflect.DeepEqual(list.Agents, []agentOut{arch}) {
		t.Errorf("after rm: %+v", list.Agents)
	}
}

// Bad input is refused before the palace is opened: exit 2, the field
// named, and no palace created.
func TestAgentBadInput(t *testing.T) {
	home := filepath.Join(t.TempDir(), "never")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"add", "a/b", "--focus", "x"}, `agent name "a/b" contains '/'`},
		{[]string{"add", "...", "--focus", "x"}, `agent "..." has no letter or digit`},
		{[]string{"add", "reviewer"}, "focus is empty"},
		{[]string{"add", "reviewer", "--focus", "x", "--diary", `a"b`}, "diary name"},
		{[]string{"add"}, "accepts 1 arg"},
		{[]string{"rm", " "}, "agent is empty"},
		{[]string{}, "needs a subcommand"},
	} {
		_, errOut, code := runPalace(t, home, append([]string{"agent"}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("agent %q: exit %d, %q, want 2 and %q", c.args, code, errOut, c.want)
		}
	}
	if _, err := os.Stat(home); err == nil {
		t.Error("refused input created the palace")
	}
}

// Status (text and --json) and the wake-up list the agents.
func TestAgentsInStatusAndWakeUp(t *testing.T) {
	home := t.TempDir()
	var ch agentChange
	agentOK(t, home, &ch, "add", "reviewer", "--focus", "reviews Go changes for races")
	out, errOut, code := runPalace(t, home, "status")
	if code != 0 || !strings.Contains(out, "\nagents:\n  reviewer: reviews Go changes for races (the whole palace; diary diary-reviewer)\n") {
		t.Errorf("status: exit %d, %q\n%s", code, errOut, out)
	}
	var st struct {
		Agents []agentOut `json:"agents"`
	}
	out, _, _ = runPalace(t, home, "status", "--json")
	clitest.Decode(t, "status", out, &st)
	if want := []agentOut{ch.Agent}; !reflect.DeepEqual(st.Agents, want) {
		t.Errorf("status --json agents %+v, want %+v", st.Agents, want)
	}
	out, errOut, code = runPalace(t, home, "wake-up")
	if code != 0 || !strings.Contains(out, "## Agents\n- reviewer: reviews Go changes for races (diary diary-reviewer)") {
		t.Errorf("wake-up: exit %d, %q\n%s", code, errOut, out)
	}
}
