package hook

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/palace/palacetest"
)

// The wake-up SessionStart answers with takes the budget the install
// wrote into its command (--budget), else the project's palace.yaml
// (wake_up.budget), else the wake-up's default; the other events'
// commands carry no budget.
func TestSessionStartBudget(t *testing.T) {
	o := InstallOptions{Agent: AgentClaudeCode, Binary: "/usr/bin/palace", Budget: 350}
	if c := o.Command(EventSessionStart); !strings.HasSuffix(c, " --budget 350") {
		t.Errorf("SessionStart command %q: want --budget 350", c)
	}
	if c := o.Command(EventStop); strings.Contains(c, "--budget") {
		t.Errorf("Stop command %q carries the budget", c)
	}
	bad := InstallOptions{Agent: AgentClaudeCode, Binary: "/usr/bin/palace", UserHome: t.TempDir(), Budget: -1}
	if err := bad.check(); err == nil {
		t.Error("install with budget -1 accepted")
	}

	s := newSessionSetup(t, palacetest.ClaudeSession(t, longSessionID, 0, 4))
	s.run(t, DefaultTimeout) // the Stop files the session into its wing
	within := func(o RunOptions) string {
		t.Helper()
		o.Event = EventSessionStart
		s.o = o
		text := additionalContext(t, s.event(t, EventSessionStart, Input{SessionID: s.in.SessionID, CWD: s.in.CWD, HookEventName: "SessionStart"}).Answer)
		_, after, ok := strings.Cut(text, "(a wake-up within ")
		if !ok {
			t.Fatalf("SessionStart answer without a wake-up: %q", text)
		}
		n, _, _ := strings.Cut(after, " tokens")
		return n
	}
	base := s.o
	if got := within(base); got != "600" {
		t.Errorf("default budget: %s tokens, want 600", got)
	}
	if err := os.WriteFile(filepath.Join(s.in.CWD, "palace.yaml"), []byte("wake_up:\n  budget: 120\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := within(base); got != "120" {
		t.Errorf("palace.yaml's wake_up.budget 120: %s tokens", got)
	}
	flag := base
	flag.Budget = 90
	if got := within(flag); got != "90" {
		t.Errorf("--budget 90 over palace.yaml's 120: %s tokens", got)
	}
}

// An agent that writes its input and keeps stdin open (reported of Claude
// Code at SessionEnd) gets its hook run at once, not at the deadline.
func TestInputReadWithStdinLeftOpen(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	go w.Write([]byte(`{"session_id": "s-open", "hook_event_name": "SessionEnd", "cwd": "/work/shop"}` + "\n"))
	done := make(chan Input, 1)
	go func() {
		in, err := ReadAgentInput(AgentClaudeCode, r)
		if err != nil {
			t.Errorf("read: %v", err)
		}
		done <- in
	}()
	select {
	case in := <-done:
		if in.SessionID != "s-open" || in.CWD != "/work/shop" {
			t.Errorf("read %+v", in)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the input was not read while stdin stayed open")
	}
	for _, bad := range []string{"", "{", "[1,", "not json"} {
		if _, err := ReadAgentInput(AgentClaudeCode, strings.NewReader(bad)); !errors.Is(err, ErrInvalid) {
			t.Errorf("input %q: %v, want invalid", bad, err)
		}
	}
	if _, err := ReadAgentInput(AgentClaudeCode, strings.NewReader(`{"x":"`+strings.Repeat("a", MaxInput)+`"}`)); err == nil || !strings.Contains(err.Error(), "is over") {
		t.Errorf("input over %d bytes: %v", MaxInput, err)
	}
}
