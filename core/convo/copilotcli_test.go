package convo

import (
	"strings"
	"testing"
	"time"
)

const copilotCLIFile = "testdata/copilot-cli/5d0c7b3e-2a41-4f8e-9c6d-1e3b7a9f0c24/events.jsonl"

// A Copilot CLI session log (testdata/copilot-cli, its README citing
// where the format comes from): the human's turns without the context
// the CLI wraps them in, the replies with reasoning and tool requests,
// the tools' output and failures; the system prompt, turn, hook and
// shutdown events are not messages.
func TestParseCopilotCLI(t *testing.T) {
	data := read(t, copilotCLIFile)
	if f := Detect(copilotCLIFile, data); f != FormatCopilotCLI {
		t.Fatalf("Detect = %q", f)
	}
	convs, err := Parse(copilotCLIFile, data)
	if err != nil || len(convs) != 1 {
		t.Fatalf("Parse: %d conversations, %v", len(convs), err)
	}
	c := convs[0]
	wantMeta := map[string]string{"session_id": "5d0c7b3e-2a41-4f8e-9c6d-1e3b7a9f0c24", "started_at": "2026-11-30T09:12:04.310Z",
		"version": "1.0.55-1", "cwd": "/home/dana/src/billing", "git_branch": "main", "model": "claude-sonnet-4.5"}
	if c.ID != wantMeta["session_id"] || c.Format != FormatCopilotCLI || len(c.Meta) != len(wantMeta) {
		t.Errorf("conversation %s %s meta %v", c.ID, c.Format, c.Meta)
	}
	for k, v := range wantMeta {
		if c.Meta[k] != v {
			t.Errorf("meta %s = %q, want %q", k, c.Meta[k], v)
		}
	}
	want := []wantMsg{
		{"user", "user", "2026-11-30T09:12:09.551Z", 4, "Why does invoice 1042 total 10.01 in the PDF but 10.00 in the API?"},
		{"assistant", "assistant", "2026-11-30T09:12:12.73Z", 6, "[thinking] The two totals differ by a cent, so the rounding must differ.\n[tool_use grep] {\"pattern\":\"func Round\",\"path\":\"invoice\"}"},
		{"tool", "tool", "2026-11-30T09:12:12.745Z", 10, "[tool_result] invoice/round.go:12:func RoundHalfUp(c float64) int64\ninvoice/pdf/total.go:30:func RoundHalfEven"},
		{"assistant", "assistant", "2026-11-30T09:12:16.02Z", 12, "The API rounds half-up (invoice/round.go) and the PDF renderer rounds half-even"},
		{"user", "user", "2026-11-30T09:13:02.118Z", 13, "Make the API round half-even too, and run the tests."},
		{"assistant", "assistant", "2026-11-30T09:13:05.407Z", 14, "I'll switch the API to RoundHalfEven and run the package tests.\n[tool_use bash] {\"command\":\"go test ./invoice/...\"}"},
		{"tool", "tool", "2026-11-30T09:13:09.991Z", 15, "[tool_result error] exit status 1: --- FAIL: TestTotal (0.00s)"},
		{"assistant", "assistant", "2026-11-30T09:13:20.305Z", 16, "I updated its expectation to 10.00 and the suite passes."},
	}
	if len(c.Messages) != len(want) {
		for _, m := range c.Messages {
			t.Logf("%d %s %q", m.Line, m.Role, m.Text)
		}
		t.Fatalf("%d messages, want %d", len(c.Messages), len(want))
	}
	for i, w := range want {
		m := c.Messages[i]
		at, _ := time.Parse(time.RFC3339Nano, w.time)
		if m.Index != i || m.Speaker != w.speaker || m.Role != w.role || !m.Time.Equal(at) || m.Line != w.line || !strings.Contains(m.Text, w.text) {
			t.Errorf("message %d: %+v\nwant %+v", i, m, w)
		}
	}
	if strings.Contains(c.Messages[0].Text, "current_datetime") {
		t.Errorf("the user's turn carries the CLI's injected context: %q", c.Messages[0].Text)
	}
}

// The log only grows: parsed on from any message's line, it gives the
// messages a whole parse has from there, numbered the same.
func TestCopilotCLIParseFrom(t *testing.T) {
	data := read(t, copilotCLIFile)
	whole, err := ParseCopilotCLI(copilotCLIFile, data)
	if err != nil {
		t.Fatal(err)
	}
	if !Resumable(FormatCopilotCLI) {
		t.Fatal("copilot-cli logs are not resumable")
	}
	for _, m := range whole.Messages {
		r := Resume{Offset: m.Offset, Line: m.Line - 1, Index: m.Index, Meta: map[string]string{"session_id": whole.ID}}
		part, _, err := ParseFrom(FormatCopilotCLI, copilotCLIFile, data[m.Offset:], r)
		if err != nil {
			t.Fatalf("from line %d: %v", m.Line, err)
		}
		if len(part.Messages) != len(whole.Messages)-m.Index {
			t.Fatalf("from line %d: %d messages, want %d", m.Line, len(part.Messages), len(whole.Messages)-m.Index)
		}
		for i, p := range part.Messages {
			w := whole.Messages[m.Index+i]
			if p.Index != w.Index || p.Line != w.Line || p.Offset != w.Offset || p.Text != w.Text {
				t.Errorf("from line %d, message %d: %+v\nwant %+v", m.Line, i, p, w)
			}
		}
	}
}

// Copilot CLI events are told from the other JSONL formats by their
// dotted types and data; a log without session.start takes its id from
// its session folder, and a line cut short keeps what came before.
func TestCopilotCLIDetectAndDamage(t *testing.T) {
	for _, c := range []struct {
		head, want string
	}{
		{`{"type":"session.start","data":{"sessionId":"s"},"id":"1","timestamp":"2026-01-01T00:00:00Z","parentId":null}`, FormatCopilotCLI},
		{`{"type":"user.message","data":{"content":"hi"},"id":"1","timestamp":"2026-01-01T00:00:00Z","parentId":null}`, FormatCopilotCLI},
		{`{"type":"session_meta","payload":{"id":"x"},"timestamp":"2026-01-01T00:00:00Z"}`, FormatCodex},
		{`{"type":"user.message","content":"no data"}`, ""},
	} {
		if got := Detect("events.jsonl", []byte(c.head+"\n")); got != c.want {
			t.Errorf("Detect(%s) = %q, want %q", c.head, got, c.want)
		}
	}
	data := []byte(`{"type":"user.message","data":{"content":"first"},"id":"1","timestamp":"2026-01-01T00:00:00Z","parentId":null}
{"type":"assistant.message","data":{"content":"second"},"id":"2","timestamp":"2026-01-01T00:00:01Z","parentId":"1"}
{"type":"user.message","data":{"conte`)
	c, err := ParseCopilotCLI("/home/u/.copilot/session-state/9a8b-7c6d/events.jsonl", data)
	if err == nil || c.ID != "9a8b-7c6d" || len(c.Messages) != 2 || c.Messages[1].Text != "second" {
		t.Errorf("damaged log: %v %+v", err, c)
	}
}
