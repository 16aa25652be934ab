package mcp

import (
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
)

// maxStartCost is issue 43's bound on what the default profile costs an
// agent before its first call: the initialize instructions plus the
// tools/list answer, in characters (about 2,000 tokens).
const maxStartCost = 8000

type listedTool struct {
	Name        string `json:"name"`
	InputSchema struct {
		Properties map[string]json.RawMessage `json:"properties"`
	} `json:"inputSchema"`
}

// startCost initializes a client on s and returns the characters of the
// instructions and of the tools/list answer as the server wrote them, and
// the tools listed.
func startCost(t *testing.T, s *Server) (instr, list int, tools []listedTool) {
	t.Helper()
	c := startStdio(t, s, nil)
	var init struct {
		Instructions string `json:"instructions"`
	}
	if err := json.Unmarshal(c.init, &init); err != nil {
		t.Fatal(err)
	}
	raw, err := c.call("tools/list", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Tools      []json.RawMessage `json:"tools"`
		NextCursor string            `json:"nextCursor"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	if res.NextCursor != "" {
		t.Fatalf("tools/list is paginated (%q): the cost counts one page only", res.NextCursor)
	}
	for _, r := range res.Tools {
		var lt listedTool
		if err := json.Unmarshal(r, &lt); err != nil {
			t.Fatal(err)
		}
		t.Logf("  %-17s %5d characters, %2d parameters", lt.Name, utf8.RuneCount(r), len(lt.InputSchema.Properties))
		tools = append(tools, lt)
	}
	return utf8.RuneCountInString(init.Instructions), utf8.RuneCount(raw), tools
}

func names(tools []listedTool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	slices.Sort(out)
	return out
}

// TestDefaultProfileStartCost: a server started without a profile (as
// `palace serve --mcp` is) lists the core tools, and its instructions plus
// tools/list come to at most 8,000 characters. Before issue 43 they were
// 31,737 (5,866 + 25,871).
func TestDefaultProfileStartCost(t *testing.T) {
	instr, list, tools := startCost(t, New(palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{Log: io.Discard}))
	t.Logf("default profile: instructions %d + tools/list %d = %d characters, %d tools", instr, list, instr+list, len(tools))
	if instr+list > maxStartCost {
		t.Errorf("the default profile costs %d characters before the first call (instructions %d, tools/list %d); the bound is %d",
			instr+list, instr, list, maxStartCost)
	}
	var want []string
	for _, tl := range allTools() {
		if !tl.full {
			want = append(want, tl.name)
		}
	}
	slices.Sort(want)
	if got := names(tools); !slices.Equal(got, want) {
		t.Errorf("default profile tools: %v, want %v", got, want)
	}
	for _, need := range []string{"palace_wake_up", "palace_search", "palace_get", "palace_remember", "palace_forget", "palace_kg", "palace_diary"} {
		if !slices.Contains(want, need) {
			t.Errorf("the core profile lacks %s, which a session loop uses", need)
		}
	}
	for _, lt := range tools {
		var def *tool
		for _, tl := range allTools() {
			if tl.name == lt.Name {
				def = tl
			}
		}
		for _, p := range def.params {
			if _, listed := lt.InputSchema.Properties[p.name]; listed == p.full {
				t.Errorf("core profile: %s parameter %s listed %v, but it is marked full %v", lt.Name, p.name, listed, p.full)
			}
		}
	}
}

// TestFullProfileListsEverything: the full profile lists every tool with
// every parameter, and its instructions are the same protocol.
func TestFullProfileListsEverything(t *testing.T) {
	instr, list, tools := startCost(t, New(palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{Log: io.Discard, Profile: ProfileFull}))
	t.Logf("full profile: instructions %d + tools/list %d = %d characters, %d tools", instr, list, instr+list, len(tools))
	var want []string
	for _, tl := range allTools() {
		want = append(want, tl.name)
	}
	slices.Sort(want)
	if got := names(tools); !slices.Equal(got, want) {
		t.Fatalf("full profile tools: %v, want every tool %v", got, want)
	}
	for _, lt := range tools {
		for _, tl := range allTools() {
			if tl.name != lt.Name {
				continue
			}
			if len(lt.InputSchema.Properties) != len(tl.params) {
				t.Errorf("full profile: %s lists %d parameters, has %d", lt.Name, len(lt.InputSchema.Properties), len(tl.params))
			}
		}
	}
	if instr != utf8.RuneCountInString(Instructions()) {
		t.Errorf("full profile instructions: %d characters, want the protocol's %d", instr, utf8.RuneCountInString(Instructions()))
	}
}

// TestStatusWithoutProtocol: palace_status and palace://status carry the
// session (with its profile) and the AAAK legend, not a copy of the memory
// protocol the instructions already gave.
func TestStatusWithoutProtocol(t *testing.T) {
	c := startStdio(t, New(palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{Log: io.Discard}), nil)
	r := c.tool("palace_status", nil)
	if r.IsError {
		t.Fatalf("palace_status: %s", r.text())
	}
	var st map[string]json.RawMessage
	if err := json.Unmarshal(r.Structured, &st); err != nil {
		t.Fatal(err)
	}
	if _, ok := st["memory_protocol"]; ok {
		t.Errorf("palace_status still carries memory_protocol")
	}
	firstLine, _, _ := strings.Cut(Instructions(), "\n")
	if strings.Contains(r.text(), firstLine[:60]) {
		t.Errorf("palace_status repeats the instructions: %s", r.text())
	}
	var session struct{ Profile string }
	if err := json.Unmarshal(st["session"], &session); err != nil || session.Profile != ProfileCore {
		t.Errorf("palace_status session: %s, want profile core", st["session"])
	}
	if len(st["aaak_legend"]) < 100 {
		t.Errorf("palace_status lost the AAAK legend: %s", st["aaak_legend"])
	}
	raw, err := c.call("resources/read", map[string]any{"uri": statusURI})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "memory_protocol") || strings.Contains(string(raw), firstLine[:60]) {
		t.Errorf("palace://status repeats the protocol: %s", raw)
	}
	t.Logf("palace_status answer: %d characters", utf8.RuneCountInString(r.text()))
}

// TestProfileRefusals: what a profile leaves out, and what moved out of
// palace_kg, is refused with -32602 saying where it is, before anything
// runs.
func TestProfileRefusals(t *testing.T) {
	core := startStdio(t, New(palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{Log: io.Discard}), nil)
	core.invalid("palace_taxonomy", map[string]any{"action": "list"}, `tool "palace_taxonomy" not found: it is in the full profile only`)
	core.invalid("palace_kg_review", map[string]any{"action": "review"}, "--profile full")
	core.invalid("palace_kg", map[string]any{"action": "add", "subject": "a", "predicate": "b", "object": "c", "valid_to": "2026-01-01"},
		`parameter "valid_to" is in the full profile only`)
	core.invalid("palace_search", map[string]any{"query": "x", "route": "off"}, `parameter "route" is in the full profile only`)
	core.invalid("palace_kg", map[string]any{"action": "traverse", "entity": "Kai"},
		`"action" must be one of add, check, invalidate, query, timeline, stats; "traverse" is palace_kg_graph's: call palace_kg_graph with it; that tool is in the full profile only`)
	// An unknown tool is still mcp-go's own answer.
	core.invalid("palace_nope", map[string]any{}, "not found")

	full := startStdio(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{Profile: ProfileFull}), nil)
	full.invalid("palace_kg", map[string]any{"action": "review"}, `"review" is palace_kg_review's: call palace_kg_review with it`)
	// A parameter of another action, or of another of the KG tools, is
	// named as such.
	full.invalid("palace_kg", map[string]any{"action": "add", "subject": "a", "predicate": "b", "object": "c", "entity": "a"},
		`"entity" does not apply to action "add" (it is for query, timeline)`)
	full.invalid("palace_kg_review", map[string]any{"action": "review", "subject": "a"}, `unknown parameter "subject"; palace_kg_review takes action, wing, decision, ids, min_confidence`)
	full.invalid("palace_kg_graph", map[string]any{"action": "entity", "entity": "Kai", "depth": 2}, `"depth" does not apply to action "entity" (it is for traverse)`)
	full.invalid("palace_kg_graph", map[string]any{"action": "traverse"}, `"entity" is required`)
	// What the core profile leaves out works in the full one.
	full.ok("palace_kg", map[string]any{"action": "add", "subject": "Kai", "predicate": "works_on", "object": "Orion", "valid_to": "2999-01-01"}, nil)
	full.ok("palace_kg_graph", map[string]any{"action": "traverse", "entity": "Kai"}, nil)
	full.ok("palace_kg_review", map[string]any{"action": "review"}, nil)
}
