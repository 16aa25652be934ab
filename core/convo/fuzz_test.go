package convo

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/chunk"
)

// fuzzNames are the file names a fuzz input is tried under, so every
// detection path (and Slack's path-derived day) is reachable.
var fuzzNames = []string{
	"s.jsonl", "conversations.json", "session.json", "export/general/2024-01-02.json", "t.txt", "t.md", "noext",
}

var fuzzFormats = []string{FormatClaudeCode, FormatClaudeAI, FormatChatGPT, FormatCodex, FormatGemini, FormatSlack, FormatText}

// FuzzParse feeds any bytes to Parse under one of the file names and to
// one parser directly (which picks the format, so every parser sees
// every kind of input): nothing may panic, messages must be numbered
// 0..n-1, exchanges must stay within the size and cover the messages in
// order, and SplitSessions must give the input back.
func FuzzParse(f *testing.F) {
	// When fuzzing, seeds are the fixtures' first bytes plus small complete
	// documents: Go minimizes every new-coverage input with a pass that is
	// quadratic in its length, and mutants of multi-kilobyte seeds keep the
	// workers minimizing instead of fuzzing. Plain `go test` runs the whole
	// fixtures through the same checks.
	fuzzing := flag.Lookup("test.fuzz") != nil && flag.Lookup("test.fuzz").Value.String() != ""
	files, _ := filepath.Glob("testdata/*/*.*")
	more, _ := filepath.Glob("testdata/slack/*/*.json")
	for i, name := range append(files, more...) {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		if !fuzzing {
			f.Add(uint8(fuzzNameFor(name)), uint8(i), data)
		}
		f.Add(uint8(fuzzNameFor(name)), uint8(i), data[:min(len(data), 384)])
	}
	for i, doc := range smallDocs {
		f.Add(uint8(i), uint8(i), []byte(doc))
	}
	o := chunk.Options{Size: 120, Overlap: 12}
	f.Fuzz(func(t *testing.T, name, format uint8, data []byte) {
		all, _ := Parse(fuzzNames[int(name)%len(fuzzNames)], data)
		direct, _ := ParseFormat(fuzzFormats[int(format)%len(fuzzFormats)], "x/2024-01-02.json", data)
		all = append(all, direct...)
		if int(format)%len(fuzzFormats) == 0 {
			_, _ = LoadSlackUsers(data)
		}
		for _, c := range all {
			for i, m := range c.Messages {
				if m.Index != i {
					t.Fatalf("%s: message %d has index %d", c.Format, i, m.Index)
				}
			}
			next := 0
			for _, e := range Exchanges(c, o) {
				if n := utf8.RuneCountInString(e.Text); n > o.Size {
					t.Fatalf("%s: exchange of %d chars", c.Format, n)
				}
				if e.FirstMsg > e.LastMsg || e.FirstMsg < next-1 || e.FirstMsg > next {
					t.Fatalf("%s: exchange %d..%d after %d", c.Format, e.FirstMsg, e.LastMsg, next)
				}
				next = e.LastMsg + 1
			}
			if len(c.Messages) > 0 && next != len(c.Messages) {
				t.Fatalf("%s: exchanges end at %d of %d messages", c.Format, next, len(c.Messages))
			}
		}
		if parts := SplitSessions(data); len(parts) > 0 && !bytes.Equal(bytes.Join(parts, nil), data) {
			t.Fatal("SplitSessions lost bytes")
		}
		_ = IndexText(string(data))
	})
}

// fuzzNameFor picks the fuzz name with the same extension as a fixture.
func fuzzNameFor(file string) int {
	for i, n := range fuzzNames {
		if filepath.Ext(n) == filepath.Ext(file) {
			return i
		}
	}
	return 0
}

// smallDocs are complete minimal documents in every format, so the fuzzer
// starts from inputs that reach deep into each parser.
var smallDocs = []string{
	`{"type":"user","sessionId":"s","cwd":"/p","message":{"role":"user","content":"hi <system-reminder>x</system-reminder>"},"timestamp":"2025-01-01T00:00:00Z"}
{"type":"assistant","sessionId":"s","message":{"id":"m1","role":"assistant","content":[{"type":"thinking","thinking":"t"},{"type":"tool_use","name":"Bash","input":{"command":"ls"}}]}}
{"type":"assistant","sessionId":"s","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"ok"}]}}
{"type":"user","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":[{"type":"text","text":"a"}],"is_error":true}]}}
`,
	`[{"uuid":"c","name":"n","chat_messages":[{"sender":"human","text":"q","created_at":"2025-01-01T00:00:00Z","attachments":[{"file_name":"f","extracted_content":"e"}]},{"sender":"assistant","content":[{"type":"text","text":"a"}]}]}]`,
	`[{"title":"t","current_node":"c","mapping":{"r":{"message":null,"parent":null,"children":["a"]},"a":{"message":{"author":{"role":"user"},"content":{"content_type":"text","parts":["q"]},"create_time":1.5},"parent":"r","children":["b","c"]},"b":{"message":{"author":{"role":"assistant"},"content":{"content_type":"text","parts":["x"]}},"parent":"a","children":[]},"c":{"message":{"author":{"role":"tool","name":"python"},"content":{"content_type":"execution_output","text":"y"}},"parent":"a","children":[]}}}]`,
	`{"timestamp":"2025-01-01T00:00:00Z","type":"session_meta","payload":{"id":"i","cwd":"/p"}}
{"timestamp":"2025-01-01T00:00:01Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"q"}]}}
{"timestamp":"2025-01-01T00:00:02Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}","call_id":"c"}}
{"timestamp":"2025-01-01T00:00:03Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"o"}}
`,
	`{"sessionId":"g","startTime":"2025-01-01T00:00:00Z","messages":[{"type":"user","content":"q"},{"type":"gemini","content":[{"text":"a"}],"thoughts":[{"subject":"s","description":"d"}],"toolCalls":[{"name":"n","args":{},"resultDisplay":"r"}]}]}`,
	`[{"type":"message","user":"U1","text":"hi","ts":"1700000000.000100"},{"type":"message","subtype":"bot_message","username":"bot","text":"x","ts":"1700000001.1"}]`,
	`[{"id":"U1","name":"a","real_name":"A","profile":{"display_name":"d"}}]`,
	"intro\n> q\na\n> q2\n\n> q3\n```\n> no\n```\nr\n---\n# Session 2\nAlice: x\nBob: y\n",
	"\u256d\u2500\n\u2502 Claude Code v1\n> a\nb\nClaude Code v2\n> c\n",
}
