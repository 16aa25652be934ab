//go:build unix

package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// benchLoopReport is the part of `palace bench loop --json` the test reads.
type benchLoopReport struct {
	Scenarios   int `json:"scenarios"`
	Sessions    int `json:"sessions"`
	Turns       int `json:"turns"`
	Saves       int `json:"saves"`
	Continuity  benchShare
	LatestFirst benchShare `json:"latest_first"`
	SearchFirst benchShare `json:"search_first"`
	Noise       struct {
		Value float64 `json:"value"`
		Chars int     `json:"chars"`
	} `json:"noise"`
	Leaks struct {
		Shown int `json:"shown"`
		Of    int `json:"of"`
	} `json:"cross_project_leaks"`
	MCPStart struct {
		Chars             int `json:"chars"`
		InstructionsChars int `json:"instructions_chars"`
		ToolsListChars    int `json:"tools_list_chars"`
		Tools             int `json:"tools"`
		Target            int `json:"target"`
	} `json:"mcp_start"`
	Hooks struct {
		Events map[string]struct {
			Runs int     `json:"runs"`
			P95  float64 `json:"p95_ms"`
		} `json:"events"`
		P95 float64 `json:"stop_sessionstart_p95_ms"`
	} `json:"hooks"`
	Extraction struct {
		Sentences int     `json:"sentences"`
		Precision float64 `json:"precision"`
		Recall    float64 `json:"recall"`
	} `json:"extraction"`
	Results []struct {
		Name   string `json:"name"`
		Checks []struct {
			Project string `json:"project"`
			Source  string `json:"source"`
			Text    string `json:"text"`
			Chars   int    `json:"chars"`
		} `json:"checks"`
	} `json:"results"`
}

type benchShare struct {
	Value float64 `json:"value"`
	Hits  int     `json:"hits"`
	Of    int     `json:"of"`
}

// TestBenchLoop runs three built-in scenarios (a correction over two
// sessions, two projects side by side, an automatic compaction) through
// the real binary's hooks and MCP server, and checks every measure is
// computed over what they hold: the counts of expected items, pairs,
// absent items, searches, hook runs per event, the MCP start cost and the
// extraction set. It holds no measure to its target: the bench reports.
func TestBenchLoop(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	stdout, stderr, code := clitest.Run(t, palaceCmd(ctx, "", "bench", "loop", "--json",
		"--only", "correction-retry,two-projects-notes,compaction-auto"))
	if code != 0 {
		t.Fatalf("bench loop: exit %d\n%s", code, stderr)
	}
	var r benchLoopReport
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("bench loop --json: %v\n%s", err, stdout)
	}
	// correction-retry: 2 sessions of 2 and 1 turns, 2 saves, 1 check
	// (1 item, 1 pair, 1 search); two-projects-notes: 2 sessions of 1
	// turn, 2 saves, 2 checks (1 item and 1 absent each); compaction-auto:
	// 1 session of 3 turns, 2 saves, a compaction, 2 checks (2 items each).
	if r.Scenarios != 3 || r.Sessions != 5 || r.Turns != 8 || r.Saves != 6 {
		t.Errorf("%d scenarios, %d sessions, %d turns, %d saves; want 3, 5, 8, 6", r.Scenarios, r.Sessions, r.Turns, r.Saves)
	}
	if r.Continuity.Of != 7 || r.LatestFirst.Of != 1 || r.SearchFirst.Of != 1 || r.Leaks.Of != 2 {
		t.Errorf("counted %d items, %d pairs, %d searches, %d absent; want 7, 1, 1, 2",
			r.Continuity.Of, r.LatestFirst.Of, r.SearchFirst.Of, r.Leaks.Of)
	}
	for _, s := range []benchShare{r.Continuity, r.LatestFirst, r.SearchFirst} {
		if s.Hits < 0 || s.Hits > s.Of || s.Value != float64(s.Hits)/float64(s.Of) {
			t.Errorf("share %+v", s)
		}
	}
	// SessionStart: 5 session starts, 1 after the compaction, 5 checks;
	// Stop: one per turn (a Stop that blocks is run again); PreCompact:
	// one automatic compaction, never held.
	ev := r.Hooks.Events
	if ev["SessionStart"].Runs != 11 || ev["Stop"].Runs < 8 || ev["PreCompact"].Runs != 1 || r.Hooks.P95 <= 0 {
		t.Errorf("hook runs: %+v, p95 %.0f ms; want 11 SessionStart, 8 or more Stop, 1 PreCompact", ev, r.Hooks.P95)
	}
	m := r.MCPStart
	if m.Tools < 3 || m.InstructionsChars <= 0 || m.ToolsListChars < 1000 || m.Chars != m.InstructionsChars+m.ToolsListChars || m.Target != 8000 {
		t.Errorf("MCP start cost %+v", m)
	}
	if e := r.Extraction; e.Sentences < 50 || e.Precision <= 0 || e.Precision > 1 || e.Recall <= 0 || e.Recall > 1 {
		t.Errorf("extraction %+v", e)
	}
	checks, texts := 0, 0
	for _, res := range r.Results {
		for _, c := range res.Checks {
			checks++
			if c.Chars != len([]rune(c.Text)) {
				t.Errorf("%s %s: %d chars counted, the text has %d", res.Name, c.Project, c.Chars, len([]rune(c.Text)))
			}
			if strings.Contains(c.Text, "Palace memory") {
				texts++
			}
		}
	}
	if checks != 5 || texts != 5 || r.Noise.Chars <= 0 || r.Noise.Value < 0 || r.Noise.Value > 1 {
		t.Errorf("%d checks, %d with a wake-up, noise %+v; want 5 and 5", checks, texts, r.Noise)
	}

	// The table, and an unknown scenario refused before anything runs.
	stdout, stderr, code = clitest.Run(t, palaceCmd(ctx, "", "bench", "loop", "--only", "correction-retry"))
	if code != 0 || !strings.Contains(stdout, "continuity") || !strings.Contains(stdout, "MCP start cost") || !strings.Contains(stderr, "correction-retry") {
		t.Errorf("bench loop table: exit %d\n%s\n%s", code, stdout, stderr)
	}
	_, stderr, code = clitest.Run(t, palaceCmd(ctx, "", "bench", "loop", "--only", "nope"))
	if code != 2 || !strings.Contains(stderr, `"nope"`) || !strings.Contains(stderr, "two-projects-notes") {
		t.Errorf("an unknown scenario: exit %d, %s", code, stderr)
	}
}
