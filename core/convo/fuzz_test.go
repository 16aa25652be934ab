package convo

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/chunk"
)

// Seed corpora: testdata/fuzz/<FuzzName>/ holds small complete exports and
// every crash found so far; the fixtures of each format are added in code.

// fuzzNames are the file names FuzzParse tries an input under, so every
// detection path (and Slack's path-derived day) is reachable.
var fuzzNames = []string{
	"s.jsonl", "conversations.json", "session.json", "export/general/2024-01-02.json", "t.txt", "t.md", "noext",
	"ws/chatSessions/s.json",
}

var fuzzFormats = []string{FormatClaudeCode, FormatClaudeAI, FormatChatGPT, FormatCodex, FormatGemini, FormatCopilot, FormatSlack, FormatText}

// exchangeOpts are small, so short inputs already get cut messages.
var exchangeOpts = chunk.Options{Size: 120, Overlap: 12}

// FuzzParse feeds any bytes to Parse under one of the file names (format
// detection) and to one parser directly, so every parser also sees every
// other format's input; both results must pass checkParse. SplitSessions
// must give the input back, and IndexText must not panic.
func FuzzParse(f *testing.F) {
	for i, s := range fixtureSeeds(f, "*") {
		f.Add(uint8(fuzzNameFor(s.name)), uint8(i), s.data)
	}
	for i, doc := range smallDocs {
		f.Add(uint8(i), uint8(i), []byte(doc))
	}
	f.Fuzz(func(t *testing.T, name, format uint8, data []byte) {
		n := fuzzNames[int(name)%len(fuzzNames)]
		if _, err := Parse(n, data); !errors.Is(err, ErrUnknownFormat) {
			checkParse(t, "", data, func() ([]Conversation, error) { return Parse(n, data) })
		}
		ff := fuzzFormats[int(format)%len(fuzzFormats)]
		checkParse(t, ff, data, func() ([]Conversation, error) { return ParseFormat(ff, "x/2024-01-02.json", data) })
		if ff == FormatClaudeCode {
			users, err := LoadSlackUsers(data)
			checkError(t, FormatSlack, data, err)
			for id, n := range users {
				if id == "" || strings.TrimSpace(n) == "" {
					t.Fatalf("user %q has name %q", id, n)
				}
			}
		}
		if parts := SplitSessions(data); len(parts) > 0 && !bytes.Equal(bytes.Join(parts, nil), data) {
			t.Fatal("SplitSessions lost bytes")
		}
		_ = IndexText(string(data))
	})
}

// One target per export format: the parser is called directly, seeded
// with its own fixtures, so the fuzzer's whole budget goes into that
// parser's paths.

func FuzzClaudeCode(f *testing.F) { fuzzFormat(f, FormatClaudeCode, "claude-code", "session.jsonl") }
func FuzzClaudeAI(f *testing.F)   { fuzzFormat(f, FormatClaudeAI, "claude-ai", "conversations.json") }
func FuzzChatGPT(f *testing.F)    { fuzzFormat(f, FormatChatGPT, "chatgpt", "conversations.json") }
func FuzzCodex(f *testing.F)      { fuzzFormat(f, FormatCodex, "codex", "rollout.jsonl") }
func FuzzGemini(f *testing.F)     { fuzzFormat(f, FormatGemini, "gemini", "session.json") }
func FuzzCopilot(f *testing.F)    { fuzzFormat(f, FormatCopilot, "copilot", "chatSessions/s.json") }
func FuzzText(f *testing.F)       { fuzzFormat(f, FormatText, "text", "transcript.md") }

// FuzzSlack parses a channel-day with the fixture export's users, and reads
// the input as a users.json too.
func FuzzSlack(f *testing.F) {
	users, err := LoadSlackUsers(read(f, slackUsers))
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range fixtureSeeds(f, "slack") {
		f.Add(s.data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParse(t, FormatSlack, data, func() ([]Conversation, error) {
			c, err := ParseSlackFile("export/general/2024-01-02.json", data, users)
			return one(c), err
		})
		c, _ := ParseSlackFile("export/general/2024-01-02.json", data, users)
		if c.ID != "general/2024-01-02" || c.Meta["channel"] != "general" || c.Meta["day"] != "2024-01-02" {
			t.Fatalf("channel-day from the path lost: id %q meta %v", c.ID, c.Meta)
		}
		_, err := LoadSlackUsers(data)
		checkError(t, FormatSlack, data, err)
	})
}

func fuzzFormat(f *testing.F, format, dir, name string) {
	for _, s := range fixtureSeeds(f, dir) {
		f.Add(s.data)
	}
	for _, doc := range smallDocs {
		if d := trimBOM([]byte(doc)); Detect(name, d) == format || format == FormatText {
			f.Add([]byte(doc))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParse(t, format, data, func() ([]Conversation, error) { return ParseFormat(format, name, data) })
	})
}

type seed struct {
	name string
	data []byte
}

// fixtureSeeds returns the fixtures under testdata/dir ("*": all). When
// fuzzing, only their first bytes: Go minimizes every new-coverage input
// with a pass that is quadratic in its length, and mutants of
// multi-kilobyte seeds keep the worker minimizing instead of fuzzing. Plain
// `go test` runs the whole fixtures through the same checks.
func fixtureSeeds(f *testing.F, dir string) []seed {
	fuzzing := flag.Lookup("test.fuzz") != nil && flag.Lookup("test.fuzz").Value.String() != ""
	files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.*"))
	more, _ := filepath.Glob(filepath.Join("testdata", dir, "*", "*.json"))
	var out []seed
	for _, name := range append(files, more...) {
		if strings.Contains(name, string(filepath.Separator)+"fuzz"+string(filepath.Separator)) {
			continue
		}
		data := read(f, name)
		if !fuzzing {
			out = append(out, seed{name, data})
		}
		out = append(out, seed{name, data[:min(len(data), 384)]})
	}
	return out
}

// TestChatGPTEmptyNodeID is FuzzChatGPT's crash
// testdata/fuzz/FuzzChatGPT/crash-empty-node-id-nondeterministic made
// certain: with a node keyed "" and a dangling current_node, the root the
// newest branch starts from depended on map order, so two parses of one
// export could differ. A single parse pair catches it only half the time.
func TestChatGPTEmptyNodeID(t *testing.T) {
	data := []byte(`{"mapping":{"":{},"0":{"message":{"content":{"parts":["x2"]}}}},"current_node":"10"}`)
	for range 50 {
		cs, err := ParseChatGPT(data)
		if err != nil || len(cs) != 1 || len(cs[0].Messages) != 1 || cs[0].Messages[0].Text != "x2" {
			t.Fatalf("got %+v, %v; want the one message of node \"0\"", cs, err)
		}
	}
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

// checkParse asserts what every parser promises, for any input:
//
//   - the error, if any, is a *ParseError of the format whose position is
//     in the input (a JSONL line's number and the offset of its start, or a
//     byte offset of a JSON document);
//   - messages are numbered 0..n-1, are not blank, have a known role and
//     valid UTF-8 text, and that text is made of pieces of the input: the
//     input itself (as text), the JSON strings in it, or JSON values in it
//     written compactly, joined by the renderings the package documents
//     ("[tool_use NAME] ", "\n", ...);
//   - parsing is deterministic (parse is called twice);
//   - exchanges stay within the size, cover the messages in order, and
//     are stable: dropping the last message leaves every exchange but the
//     last one identical, and the last one is the start of its
//     counterpart.
func checkParse(t *testing.T, format string, data []byte, parse func() ([]Conversation, error)) {
	t.Helper()
	cs, err := parse()
	checkError(t, format, data, err)
	if again, err2 := parse(); !reflect.DeepEqual(again, cs) || !reflect.DeepEqual(err2, err) {
		t.Fatalf("two parses of the same input differ")
	}
	src := sources(data)
	lines := bytes.Count(trimBOM(data), []byte("\n")) + 1
	for _, c := range cs {
		if format != "" && c.Format != format {
			t.Fatalf("%s parser returned a %s conversation", format, c.Format)
		}
		for i, m := range c.Messages {
			if m.Index != i {
				t.Fatalf("%s: message %d has index %d", c.Format, i, m.Index)
			}
			if isBlank(m.Text) {
				t.Fatalf("%s: message %d is blank", c.Format, i)
			}
			if !utf8.ValidString(m.Text) {
				t.Fatalf("%s: message %d is not valid UTF-8: %q", c.Format, i, m.Text)
			}
			if !slices.Contains([]string{RoleUser, RoleAssistant, RoleSystem, RoleTool, RoleUnknown}, m.Role) {
				t.Fatalf("%s: message %d has role %q", c.Format, i, m.Role)
			}
			if m.Line < 0 || m.Line > lines {
				t.Fatalf("%s: message %d on line %d of %d", c.Format, i, m.Line, lines)
			}
			for _, piece := range renderings.Split(m.Text, -1) {
				if piece != "" && piece != "{}" && !slices.ContainsFunc(src, func(s string) bool { return strings.Contains(s, piece) }) {
					t.Fatalf("%s: message %d holds %q, which is not in the input", c.Format, i, piece)
				}
			}
		}
		checkExchanges(t, c)
	}
}

// checkError asserts err is nil or a *ParseError of format (any format
// when format is "") that points into data.
func checkError(t *testing.T, format string, data []byte, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *ParseError", err, err)
	}
	if format != "" && pe.Format != format || pe.Format == "" || pe.Reason == "" {
		t.Fatalf("%s parser: error %+v", format, pe)
	}
	d := trimBOM(data)
	if pe.Offset < 0 || pe.Offset > int64(len(d)) {
		t.Fatalf("%s: offset %d outside the %d bytes", pe.Format, pe.Offset, len(d))
	}
	if pe.Line == 0 {
		return
	}
	if pe.Line < 0 || pe.Offset > 0 && d[pe.Offset-1] != '\n' || bytes.Count(d[:pe.Offset], []byte("\n"))+1 != pe.Line {
		t.Fatalf("%s: line %d does not start at offset %d", pe.Format, pe.Line, pe.Offset)
	}
}

func checkExchanges(t *testing.T, c Conversation) {
	t.Helper()
	all := Exchanges(c, exchangeOpts)
	next := 0
	for _, e := range all {
		if n := utf8.RuneCountInString(e.Text); n > exchangeOpts.Size {
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
	if len(c.Messages) < 2 {
		return
	}
	shorter := c
	shorter.Messages = c.Messages[:len(c.Messages)-1]
	before := Exchanges(shorter, exchangeOpts)
	last := len(before) - 1
	if len(all) < len(before) || !reflect.DeepEqual(before[:last], all[:last]) {
		t.Fatalf("%s: appending message %d changed earlier exchanges", c.Format, len(shorter.Messages))
	}
	if b, a := before[last], all[last]; a.FirstMsg != b.FirstMsg || !strings.HasPrefix(a.Text, b.Text) {
		t.Fatalf("%s: appending a message rewrote the last exchange:\n%q\nbecame\n%q", c.Format, b.Text, a.Text)
	}
}

// renderings are what parsers put between pieces of the input: the
// markers of non-text blocks (see the package comment), the "\n" joining
// blocks, and the ": " between a Gemini thought's subject and description.
// Brackets split too, for "[TYPE]", "[file NAME]" and Copilot's inline
// references, which stand in a line of markdown.
var renderings = regexp.MustCompile(`\[(?:thinking|tool_result(?: error)?|image|error)\] ?|\[(?:tool_use|attachment|file|symbol|edit) |: |\] |\[|\]|\n`)

// sources returns the strings message text may be made of: the input as
// text (invalid UTF-8 replaced, as the text parser and encoding/json do
// it), every JSON string literal on each line decoded, and the input with
// the whitespace outside string literals dropped (what json.Compact makes
// of any value in it).
func sources(data []byte) []string {
	s := string(data)
	out := []string{s, strings.ToValidUTF8(s, "\uFFFD"), perByte(s)}
	for _, line := range strings.Split(s, "\n") {
		for i := 0; i < len(line); i++ {
			if line[i] != '"' {
				continue
			}
			if end := literalEnd(line, i); end > 0 {
				var v string
				if json.Unmarshal([]byte(line[i:end]), &v) == nil {
					out = append(out, v)
				}
			}
		}
		c := compact(line)
		out = append(out, c, perByte(c))
	}
	c := compact(s)
	return append(out, c, perByte(c))
}

// literalEnd returns the end of the string literal opening at line[i], or
// -1 when it is not closed on the line.
func literalEnd(line string, i int) int {
	for k := i + 1; k < len(line); k++ {
		switch line[k] {
		case '\\':
			k++
		case '"':
			return k + 1
		}
	}
	return -1
}

// compact drops JSON whitespace outside string literals.
func compact(s string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case in && c == '\\' && i+1 < len(s):
			b.WriteByte(c)
			i++
			c = s[i]
		case c == '"':
			in = !in
		case !in && (c == ' ' || c == '\t' || c == '\r' || c == '\n'):
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// perByte replaces each invalid byte with U+FFFD, as encoding/json does.
func perByte(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
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
	`{"version":3,"requesterUsername":"u","responderUsername":"GitHub Copilot","requests":[{"requestId":"r","message":{"text":"q","parts":[]},"response":[{"value":"see "},{"kind":"inlineReference","inlineReference":{"path":"/a/b.go"}},{"value":" now\n"},{"kind":"toolInvocationSerialized","toolId":"t","pastTenseMessage":{"value":"Read b.go"}},{"kind":"thinking","value":["x","y"]},{"kind":"textEditGroup","uri":{"fsPath":"/a/b.go"}},{"kind":"undoStop"}],"result":{"errorDetails":{"message":"e"}},"timestamp":1759740012345}],"sessionId":"s","creationDate":1759740000000}`,
	`[{"type":"message","user":"U1","text":"hi","ts":"1700000000.000100"},{"type":"message","subtype":"bot_message","username":"bot","text":"x","ts":"1700000001.1"}]`,
	`[{"id":"U1","name":"a","real_name":"A","profile":{"display_name":"d"}}]`,
	"intro\n> q\na\n> q2\n\n> q3\n```\n> no\n```\nr\n---\n# Session 2\nAlice: x\nBob: y\n",
	"\u256d\u2500\n\u2502 Claude Code v1\n> a\nb\nClaude Code v2\n> c\n",
}
