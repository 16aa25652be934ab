package convo

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

const (
	ccFile      = "testdata/claude-code/3f2a9c1e-5b7d-4e21-9a0c-8d6f1b2e4c7a.jsonl"
	claudeFile  = "testdata/claude-ai/conversations.json"
	gptFile     = "testdata/chatgpt/conversations.json"
	codexFile   = "testdata/codex/rollout-2025-09-14T10-20-30-0199453c-7d2e-7c31-9b8a-2f6d4e1a5c90.jsonl"
	codexOld    = "testdata/codex/rollout-2025-05-02T14-03-11-6a3c2f10-55de-4b7b-a0e4-7d9b1c2e3f40.jsonl"
	geminiFile  = "testdata/gemini/session-2025-10-03T16-41-b6e0c2a4.json"
	copilotFile = "testdata/copilot/chatSessions/7c1e5a2b-4d3f-4e8a-9b6c-2f0d1e3a5b7c.json"
	slackDay    = "testdata/slack/general/2023-11-14.json"
	slackDay2   = "testdata/slack/random/2023-11-15.json"
	slackUsers  = "testdata/slack/users.json"
	quoteFile   = "testdata/text/quote-session.md"
	peopleFile  = "testdata/text/team-meeting.txt"
	megaFile    = "testdata/text/mega-transcript.txt"
)

func read(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// wantMsg describes one expected message; text must be contained in
// Message.Text, time is RFC 3339 ("" for none).
type wantMsg struct {
	speaker, role, time string
	line                int
	text                string
}

type wantConv struct {
	id, title string
	meta      map[string]string
	msgs      []wantMsg
}

func TestParseFixtures(t *testing.T) {
	tests := []struct {
		file   string
		format string
		convs  []wantConv
	}{
		{ccFile, FormatClaudeCode, []wantConv{{
			id: "3f2a9c1e-5b7d-4e21-9a0c-8d6f1b2e4c7a", title: "Fix flaky login test",
			meta: map[string]string{"session_id": "3f2a9c1e-5b7d-4e21-9a0c-8d6f1b2e4c7a", "cwd": "/home/dana/src/webshop",
				"git_branch": "fix/login-flake", "version": "1.0.98", "model": "claude-sonnet-4-20250514"},
			msgs: []wantMsg{
				{"user", "user", "2025-09-02T08:14:55.098Z", 3, "TestLogin in auth/login_test.go fails about one run in ten"},
				{"assistant", "assistant", "2025-09-02T08:15:01.412Z", 4, "[thinking] The test is probably time dependent; look at the token expiry check.\nI'll look at the test and the token expiry code.\n[tool_use Bash] {\"command\":\"go test ./auth -run TestLogin -count=20\",\"description\":\"Run the login test 20 times\"}"},
				{"tool", "tool", "2025-09-02T08:15:09.33Z", 7, "[tool_result error] --- FAIL: TestLogin (0.00s)"},
				{"assistant", "assistant", "2025-09-02T08:15:15.004Z", 8, "It should be `exp < now`"},
				{"user", "system", "2025-09-02T08:16:40Z", 10, "Caveat: The messages below"},
				{"user", "user", "2025-09-02T08:16:40.002Z", 11, "<command-name>/model</command-name>"},
				{"user", "user", "2025-09-02T08:17:03.512Z", 12, "Good catch."},
				{"assistant", "assistant", "2025-09-02T08:17:09.73Z", 13, `[tool_use Edit] {"file_path":"/home/dana/src/webshop/auth/token.go",`},
				{"tool", "tool", "2025-09-02T08:17:10.118Z", 14, "[tool_result] The file /home/dana/src/webshop/auth/token.go has been updated."},
				{"assistant", "assistant", "2025-09-02T08:18:30.25Z", 15, "20 runs pass."},
			},
		}}},
		{claudeFile, FormatClaudeAI, []wantConv{{
			id: "5a1f7c2e-3b94-4d0e-9f61-0c2b8e7d4a13", title: "Postgres index for order lookups",
			meta: map[string]string{"created_at": "2025-03-11T09:02:14.521384Z"},
			msgs: []wantMsg{
				{"human", "user", "2025-03-11T09:02:15.001522Z", 0, "Which index?\n[attachment schema.sql]\nCREATE TABLE orders"},
				{"assistant", "assistant", "2025-03-11T09:02:33.64011Z", 0, "[thinking] Equality column first, then the sort column.\nA composite B-tree index"},
				{"human", "user", "2025-03-11T09:05:58.300001Z", 0, "Do I need CONCURRENTLY on a live table?"},
				{"assistant", "assistant", "2025-03-11T09:06:40.112907Z", 0, "CREATE INDEX CONCURRENTLY avoids blocking writes"},
			},
		}, {
			id: "c03b9d44-8e1a-4a7f-b2c5-6d9e0f1a2b3c", title: "",
			msgs: []wantMsg{
				{"human", "user", "2024-11-02T17:40:00Z", 0, "What does EADDRINUSE mean?\n[file server.log]"},
				{"assistant", "assistant", "2024-11-02T17:41:12Z", 0, "Another process is already listening"},
			},
		}}},
		{gptFile, FormatChatGPT, []wantConv{{
			id: "66291a80-1b2c-4d3e-8f90-a1b2c3d4e5f6", title: "Retry with backoff in Go",
			meta: map[string]string{"model": "gpt-4o", "created_at": "2024-04-24T23:06:40Z"},
			msgs: []wantMsg{
				{"user", "user", "2024-04-24T23:06:40.123456Z", 0, "How do I retry an HTTP call"},
				{"assistant", "assistant", "2024-04-24T23:06:51.5Z", 0, "Loop over attempts"},
				{"user", "user", "2024-04-24T23:10:00.75Z", 0, "Can you add jitter without a library?"},
				{"assistant", "assistant", "2024-04-24T23:10:09Z", 0, "0.5 + rand.Float64()"},
			},
		}, {
			id: "6630f1e2-aaaa-4bbb-8ccc-0123456789ab", title: "Plot CSV revenue",
			msgs: []wantMsg{
				{"user", "user", "2024-05-06T12:53:20Z", 0, "[image]\nPlot the revenue column of this CSV."},
				{"assistant", "assistant", "2024-05-06T12:53:24Z", 0, "import pandas as pd"},
				{"python", "tool", "2024-05-06T12:53:26Z", 0, "<Figure size 640x480 with 1 Axes>"},
				{"assistant", "assistant", "2024-05-06T12:53:29Z", 0, "it peaks in March"},
			},
		}}},
		{codexFile, FormatCodex, []wantConv{{
			id: "0199453c-7d2e-7c31-9b8a-2f6d4e1a5c90",
			meta: map[string]string{"session_id": "0199453c-7d2e-7c31-9b8a-2f6d4e1a5c90", "cwd": "/home/dana/src/billing",
				"model": "gpt-5-codex", "cli_version": "0.36.0", "git_branch": "main", "originator": "codex_cli_rs"},
			msgs: []wantMsg{
				{"user", "system", "2025-09-14T10:20:30.52Z", 2, "<environment_context>"},
				{"user", "user", "2025-09-14T10:20:41.003Z", 3, "Why does invoice rounding differ"},
				{"assistant", "assistant", "2025-09-14T10:20:44.79Z", 7, "[thinking] **Inspecting rounding code**"},
				{"assistant", "assistant", "2025-09-14T10:20:45.12Z", 8, `[tool_use shell] {"command":["bash","-lc","rg -n 'Round' invoice/"]`},
				{"tool", "tool", "2025-09-14T10:20:45.41Z", 9, `[tool_result] {"output":"invoice/total.go:27:`},
				{"assistant", "assistant", "2025-09-14T10:20:52.008Z", 10, "Sum integer cents per line instead."},
				{"user", "user", "2025-09-14T10:22:03.33Z", 13, "Do it."},
				{"assistant", "assistant", "2025-09-14T10:22:09.6Z", 15, "[tool_use apply_patch] *** Begin Patch"},
				{"tool", "tool", "2025-09-14T10:22:09.9Z", 16, "[tool_result] {\"output\":\"Success."},
				{"assistant", "assistant", "2025-09-14T10:22:14Z", 17, "Done: totals are now summed in integer cents."},
			},
		}}},
		{codexOld, FormatCodex, []wantConv{{
			id:   "6a3c2f10-55de-4b7b-a0e4-7d9b1c2e3f40",
			meta: map[string]string{"session_id": "6a3c2f10-55de-4b7b-a0e4-7d9b1c2e3f40", "started_at": "2025-05-02T14:03:11.870Z"},
			msgs: []wantMsg{
				{"user", "user", "", 3, "rename the package util to strutil"},
				{"assistant", "assistant", "", 5, `[tool_use shell] {"command":["git","mv","util","strutil"]}`},
				{"tool", "tool", "", 6, "[tool_result] "},
				{"assistant", "assistant", "", 7, "Renamed util to strutil"},
			},
		}}},
		{geminiFile, FormatGemini, []wantConv{{
			id: "b6e0c2a4-18f3-4d7e-9a51-3c2e1f0d9b87",
			meta: map[string]string{"session_id": "b6e0c2a4-18f3-4d7e-9a51-3c2e1f0d9b87", "start_time": "2025-10-03T16:41:07.223Z",
				"model": "gemini-2.5-pro", "project_hash": "9d2c41f07be85a6e3f1c0b9d8e7a6f5c4b3a29180716f5e4d3c2b1a09f8e7d6c"},
			msgs: []wantMsg{
				{"user", "user", "2025-10-03T16:41:07.223Z", 0, "List the TODOs in cmd/"},
				{"gemini", "assistant", "2025-10-03T16:41:15.87Z", 0, "[thinking] Searching for TODOs: I will grep the cmd directory for TODO markers.\nThere are three TODOs, two in cmd/serve.go and one in cmd/root.go.\n[tool_use search_file_content] {\"pattern\":\"TODO\",\"path\":\"cmd\"}\n[tool_result] Found 3 matches"},
				{"user", "user", "2025-10-03T16:43:50.004Z", 0, "Start with graceful shutdown."},
				{"gemini", "assistant", "2025-10-03T16:43:55.019Z", 0, "signal.NotifyContext"},
			},
		}}},
		// Every request gives the user's message and, unless its response
		// is empty, Copilot's, both at the request's time; markdown pieces
		// read as one text, inline references stand in it, tool calls,
		// thinking and edits are blocks, view state (codeblockUri, undoStop,
		// prepareToolInvocation) is left out, and an error is shown.
		{copilotFile, FormatCopilot, []wantConv{{
			id: "7c1e5a2b-4d3f-4e8a-9b6c-2f0d1e3a5b7c", title: "Retry backoff in the HTTP client",
			meta: map[string]string{"session_id": "7c1e5a2b-4d3f-4e8a-9b6c-2f0d1e3a5b7c", "requester": "dana-dev",
				"responder": "GitHub Copilot", "location": "panel", "model": "copilot/gpt-4.1", "started_at": "2025-10-06T08:40:00Z"},
			msgs: []wantMsg{
				{"dana-dev", "user", "2025-10-06T08:40:12.345Z", 0, "Why does the retry loop in client.go never back off on a 503?"},
				{"GitHub Copilot", "assistant", "2025-10-06T08:40:12.345Z", 0, "The loop in [file client.go] resets `delay` at the top of every attempt, so each retry waits the base 100ms.\nMove the reset out of the loop:\n\n```go\ndelay := base\n"},
				{"dana-dev", "user", "2025-10-06T08:42:34.21Z", 0, "Apply it, and cap the delay at 5 seconds."},
				{"GitHub Copilot", "assistant", "2025-10-06T08:42:34.21Z", 0, "[thinking] The cap belongs after the doubling, with min().\n" +
					"[tool_use copilot_readFile] Read [](file:///home/dana/src/shop/http/client.go), lines 1 to 80\n" +
					"```go\n[edit /home/dana/src/shop/http/client.go]\n```\nDone: the delay now doubles up to a 5s cap.\n[questionCarousel]"},
				{"dana-dev", "user", "2025-10-06T08:45:01Z", 0, "Also add a test for the cap"},
				{"dana-dev", "user", "2025-10-06T08:47:35.5Z", 0, "Try again: add the test for the cap"},
				{"GitHub Copilot", "assistant", "2025-10-06T08:47:35.5Z", 0, "[error] Sorry, you have been rate-limited."},
				{"dana-dev", "user", "", 0, "Thanks, that is all."},
				{"GitHub Copilot", "assistant", "", 0, "You're welcome. The [symbol Retry] function is covered by the existing tests."},
			},
		}}},
		{slackDay, FormatSlack, []wantConv{{
			id: "general/2023-11-14", title: "#general 2023-11-14",
			meta: map[string]string{"channel": "general", "day": "2023-11-14"},
			msgs: []wantMsg{
				// No users.json through Parse: names come from the message's
				// own user_profile, else the raw id.
				{"Alice Moreau", "", "2023-11-14T09:00:00.0001Z", 0, "Deploy of v2.3 is blocked"},
				{"U04BOBBY02", "", "2023-11-14T09:02:00.0003Z", 0, "<@U04ALICE01> add the index CONCURRENTLY first"},
				{"deploybot", "", "2023-11-14T09:03:20.0004Z", 0, "Deploy pipeline #812 failed"},
				{"U04CARLA03", "", "2023-11-14T09:10:00.0005Z", 0, "[file migration.log]"},
				{"U04ALICE01", "", "2023-11-14T10:00:00.0006Z", 0, "Thanks, that worked."},
			},
		}}},
		{quoteFile, FormatText, []wantConv{{
			id: quoteFile, title: "Debugging the cache stampede",
			meta: map[string]string{"style": "quote"},
			msgs: []wantMsg{
				{"", "", "", 1, "# Debugging the cache stampede\n\nExported from a terminal session on 2025-08-19."},
				{"user", "user", "", 5, "Why do all pods hit the database at 09:00?\nThe cache TTL is one hour."},
				{"assistant", "assistant", "", 8, "> this quoted line is inside a code block and is not a user turn\n```"},
				{"user", "user", "", 18, "How much jitter is enough?"},
				{"assistant", "assistant", "", 20, "A few percent of the TTL"},
				{"user", "user", "", 22, "Thanks!"},
			},
		}}},
		{peopleFile, FormatText, []wantConv{{
			id: peopleFile, meta: map[string]string{"style": "speaker"},
			msgs: []wantMsg{
				{"", "", "", 1, "Weekly sync, 2025-06-02"},
				{"Priya", "", "", 3, "p95 went from 80ms to 210ms.\nIt started with Friday's release."},
				{"Tomasz", "", "", 5, "I can bisect it today.\nNote: the dashboards were down on Saturday"},
				{"Priya", "", "", 7, "Please do."},
				{"User", "user", "", 8, "can we also add an alert at 150ms?"},
				{"Tomasz", "", "", 9, "SLO config"},
			},
		}}},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			data := read(t, tt.file)
			if got := Detect(tt.file, data); got != tt.format {
				t.Fatalf("Detect = %q, want %q", got, tt.format)
			}
			convs, err := Parse(tt.file, data)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if len(convs) != len(tt.convs) {
				t.Fatalf("got %d conversations, want %d", len(convs), len(tt.convs))
			}
			for ci, want := range tt.convs {
				checkConv(t, convs[ci], tt.format, want)
			}
		})
	}
}

func checkConv(t *testing.T, c Conversation, format string, want wantConv) {
	t.Helper()
	if c.Format != format || c.ID != want.id || c.Title != want.title {
		t.Errorf("conversation = {%q %q %q}, want {%q %q %q}", c.Format, c.ID, c.Title, format, want.id, want.title)
	}
	for k, v := range want.meta {
		if c.Meta[k] != v {
			t.Errorf("%s: Meta[%q] = %q, want %q", c.ID, k, c.Meta[k], v)
		}
	}
	if len(c.Messages) != len(want.msgs) {
		for _, m := range c.Messages {
			t.Logf("  %d %q/%q %q", m.Index, m.Speaker, m.Role, m.Text)
		}
		t.Fatalf("%s: %d messages, want %d", c.ID, len(c.Messages), len(want.msgs))
	}
	for i, w := range want.msgs {
		m := c.Messages[i]
		var wt time.Time
		if w.time != "" {
			var err error
			if wt, err = time.Parse(time.RFC3339Nano, w.time); err != nil {
				t.Fatal(err)
			}
		}
		if m.Index != i || m.Speaker != w.speaker || m.Role != w.role || !m.Time.Equal(wt) || m.Line != w.line {
			t.Errorf("%s msg %d = {idx %d %q %q %s line %d}, want {idx %d %q %q %s line %d}", c.ID, i,
				m.Index, m.Speaker, m.Role, m.Time.Format(time.RFC3339Nano), m.Line,
				i, w.speaker, w.role, wt.Format(time.RFC3339Nano), w.line)
		}
		if !strings.Contains(m.Text, w.text) {
			t.Errorf("%s msg %d text = %q, want it to contain %q", c.ID, i, m.Text, w.text)
		}
	}
}

func TestParseTextSpeakerOnOwnLine(t *testing.T) {
	c := ParseText("chat.txt", []byte("User:\nhi there\n\nAssistant:\nhello\nsecond line\nUser: bye\n"))
	want := []Message{
		{Index: 0, Speaker: "User", Role: RoleUser, Text: "hi there", Line: 1, EndLine: 2},
		{Index: 1, Speaker: "Assistant", Role: RoleAssistant, Text: "hello\nsecond line", Line: 4, EndLine: 6},
		{Index: 2, Speaker: "User", Role: RoleUser, Text: "bye", Line: 7, EndLine: 7},
	}
	if !reflect.DeepEqual(c.Messages, want) {
		t.Errorf("messages = %+v", c.Messages)
	}
}

func TestClaudeCodeKeepsVerbatimText(t *testing.T) {
	convs, err := Parse(ccFile, read(t, ccFile))
	if err != nil {
		t.Fatal(err)
	}
	first := convs[0].Messages[0].Text
	// Both text blocks, joined by "\n", exactly as exported, noise included.
	if !strings.HasPrefix(first, "<system-reminder>\nAs you answer") ||
		!strings.HasSuffix(first, "</system-reminder>\n\nTestLogin in auth/login_test.go fails about one run in ten. Can you find out why?") {
		t.Errorf("first message not verbatim: %q", first)
	}
}

func TestSlackWithUsers(t *testing.T) {
	users, err := LoadSlackUsers(read(t, slackUsers))
	if err != nil {
		t.Fatal(err)
	}
	wantUsers := map[string]string{"U04ALICE01": "Alice Moreau", "U04BOBBY02": "Bobby", "U04CARLA03": "carla"}
	if !reflect.DeepEqual(users, wantUsers) {
		t.Errorf("users = %v, want %v", users, wantUsers)
	}
	c, err := ParseSlackDay(read(t, slackDay), "general", users)
	if err != nil {
		t.Fatal(err)
	}
	var speakers []string
	for _, m := range c.Messages {
		speakers = append(speakers, m.Speaker)
	}
	want := []string{"Alice Moreau", "Bobby", "deploybot", "carla", "Alice Moreau"}
	if !reflect.DeepEqual(speakers, want) {
		t.Errorf("speakers = %q, want %q", speakers, want)
	}
	if c.ID != "general/2023-11-14" || c.Meta["channel"] != "general" {
		t.Errorf("id %q meta %v", c.ID, c.Meta)
	}
	// The channel_join notice is not a message.
	for _, m := range c.Messages {
		if strings.Contains(m.Text, "has joined the channel") {
			t.Errorf("join notice kept: %q", m.Text)
		}
	}
}

// TestChatGPTBranch: the fixture's first conversation forks after the first
// answer; the abandoned fork is listed first among the children, so only
// following current_node gives the right branch.
func TestChatGPTBranch(t *testing.T) {
	data := read(t, gptFile)
	texts := func(convs []Conversation) string {
		var b strings.Builder
		for _, m := range convs[0].Messages {
			b.WriteString(m.Text + "|")
		}
		return b.String()
	}
	convs, err := ParseChatGPT(data)
	if err != nil {
		t.Fatal(err)
	}
	got := texts(convs)
	if strings.Contains(got, "ABANDONED") || strings.Contains(got, "library instead") || !strings.Contains(got, "jitter") {
		t.Errorf("current branch not followed: %s", got)
	}

	// current_node on the abandoned leaf: that branch is the one shown.
	var raw []map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	raw[0]["current_node"] = "4c1d2e3f-0005"
	alt, _ := json.Marshal(raw)
	convs, err = ParseChatGPT(alt)
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(convs); !strings.Contains(got, "ABANDONED") || strings.Contains(got, "jitter") || len(convs[0].Messages) != 4 {
		t.Errorf("current_node on the other fork: %s", got)
	}

	// No current_node: the newest fork (last child) is taken.
	delete(raw[0], "current_node")
	alt, _ = json.Marshal(raw)
	convs, err = ParseChatGPT(alt)
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(convs); strings.Contains(got, "ABANDONED") || !strings.Contains(got, "jitter") {
		t.Errorf("fallback branch: %s", got)
	}
}

// cutLast truncates data in the middle of its last line.
func cutLast(data []byte) (cut []byte, lastLine int, lastStart int64) {
	trimmed := bytes.TrimRight(data, "\n")
	start := bytes.LastIndexByte(trimmed, '\n') + 1
	lastLine = bytes.Count(trimmed[:start], []byte("\n")) + 1
	return trimmed[:start+(len(trimmed)-start)/2], lastLine, int64(start)
}

func TestTruncatedJSONL(t *testing.T) {
	for _, file := range []string{ccFile, codexFile} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data := read(t, file)
			full, err := Parse(file, data)
			if err != nil {
				t.Fatal(err)
			}
			cut, lastLine, lastStart := cutLast(data)
			got, err := Parse(file, cut)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *ParseError", err)
			}
			if pe.Line != lastLine || pe.Offset != lastStart || !strings.Contains(pe.Reason, "truncated") {
				t.Errorf("ParseError = %+v, want line %d offset %d truncated", pe, lastLine, lastStart)
			}
			if want := "line " + itoa(lastLine); !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not name %q", err, want)
			}
			// Everything before the cut line is there, unchanged.
			want := full[0].Messages[:len(full[0].Messages)-1]
			if len(got) != 1 || !reflect.DeepEqual(got[0].Messages, want) {
				t.Errorf("valid part: got %d convs, messages differ from the full parse minus the last", len(got))
			}
		})
	}
}

func TestMalformedJSONLLine(t *testing.T) {
	data := read(t, ccFile)
	lines := bytes.Split(data, []byte("\n"))
	lines[6] = []byte(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result"` + "\x00garbage")
	bad := bytes.Join(lines, []byte("\n"))
	convs, err := Parse(ccFile, bad)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 7 || pe.Format != FormatClaudeCode {
		t.Fatalf("err = %v, want *ParseError at line 7", err)
	}
	// Line 7 (the first tool result) is gone, everything after it is kept.
	if len(convs) != 1 || len(convs[0].Messages) != 9 {
		t.Fatalf("got %d messages, want 9", len(convs[0].Messages))
	}
	if last := convs[0].Messages[8]; last.Line != 15 || last.Index != 8 {
		t.Errorf("last message = line %d index %d", last.Line, last.Index)
	}
}

func TestTruncatedJSON(t *testing.T) {
	tests := []struct {
		file      string
		cutBefore string // cut in the middle of the element containing this text
		wantConvs int
		wantMsgs  int // messages of the last conversation kept
	}{
		{claudeFile, `"What does EADDRINUSE mean?"`, 1, 4},
		{gptFile, `"Plot CSV revenue"`, 1, 4},
		{geminiFile, `"Start with graceful shutdown."`, 1, 2},
		{copilotFile, `"requestId": "request_9a8b7c6d`, 1, 5},
		{slackDay, `"Thanks, that worked."`, 1, 4},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.file), func(t *testing.T) {
			data := read(t, tt.file)
			k := bytes.Index(data, []byte(tt.cutBefore))
			if k < 0 {
				t.Fatal("marker not in fixture")
			}
			cut := data[:k+3]
			convs, err := Parse(tt.file, cut)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *ParseError", err)
			}
			if pe.Offset != int64(len(cut)) || pe.Line != 0 || !strings.Contains(err.Error(), "byte offset "+itoa(len(cut))) {
				t.Errorf("ParseError = %+v (%v), want offset %d", pe, err, len(cut))
			}
			if len(convs) != tt.wantConvs || len(convs[len(convs)-1].Messages) != tt.wantMsgs {
				t.Errorf("got %d convs, last with %d messages; want %d and %d", len(convs), len(convs[len(convs)-1].Messages), tt.wantConvs, tt.wantMsgs)
			}
		})
	}
}

// TestJSONSyntaxErrorOffset: a stray byte between two conversations is
// reported at its exact offset, and the conversation before it is kept.
func TestJSONSyntaxErrorOffset(t *testing.T) {
	for _, tt := range []struct{ file, before string }{
		{claudeFile, `"uuid": "c03b9d44`},
		{gptFile, `"title": "Plot CSV revenue"`},
	} {
		data := read(t, tt.file)
		k := bytes.Index(data, []byte(tt.before))
		open := bytes.LastIndexByte(data[:k], '{')
		bad := append(append(append([]byte{}, data[:open]...), '@'), data[open:]...)
		convs, err := Parse(tt.file, bad)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Offset != int64(open) {
			t.Errorf("%s: err = %v, want offset %d", tt.file, err, open)
		}
		if len(convs) != 1 {
			t.Errorf("%s: kept %d conversations, want 1", tt.file, len(convs))
		}
		// A missing comma is reported where the next element starts.
		nocomma := bytes.Replace(data, []byte("}, {\"title\": \"Plot"), []byte("} {\"title\": \"Plot"), 1)
		if tt.file == gptFile {
			_, err := Parse(tt.file, nocomma)
			want := int64(bytes.Index(nocomma, []byte(`{"title": "Plot`)))
			if !errors.As(err, &pe) || pe.Offset != want {
				t.Errorf("missing comma: err = %v, want offset %d", err, want)
			}
		}
	}
}

func TestInvalidUTF8(t *testing.T) {
	line := `{"type":"user","sessionId":"s1","message":{"role":"user","content":"caf` + "\xe9\xff" + ` ok"},"timestamp":"2025-01-01T00:00:00Z"}` + "\n"
	convs, err := Parse("s1.jsonl", []byte(line))
	if err != nil {
		t.Fatal(err)
	}
	if got := convs[0].Messages[0].Text; got != "caf\uFFFD\uFFFD ok" {
		t.Errorf("text = %q", got)
	}
	txt := ParseText("t.txt", []byte("> a\xff\n> b\n> c\nreply\n"))
	if got := txt.Messages[0].Text; got != "a\uFFFD\nb\nc" {
		t.Errorf("text transcript = %q", got)
	}
}

// TestAppendKeepsIndexes: a JSONL session that grows by appending keeps
// every earlier message as it was (only the last may grow, when Claude Code
// streams more blocks of the same assistant turn).
func TestAppendKeepsIndexes(t *testing.T) {
	for _, file := range []string{ccFile, codexFile} {
		data := read(t, file)
		full, _ := Parse(file, data)
		all := full[0].Messages
		lines := bytes.SplitAfter(data, []byte("\n"))
		for k := 1; k <= len(lines); k++ {
			prefix := bytes.Join(lines[:k], nil)
			convs, err := Parse(file, prefix)
			if err != nil {
				t.Fatalf("%s: %d lines: %v", file, k, err)
			}
			if len(convs) == 0 {
				continue
			}
			ms := convs[0].Messages
			for i, m := range ms {
				if i == len(ms)-1 {
					if m.Index != all[i].Index || m.Line != all[i].Line || !strings.HasPrefix(all[i].Text, m.Text) {
						t.Errorf("%s: %d lines: last message %d is not a prefix of the final one", file, k, i)
					}
					continue
				}
				if !reflect.DeepEqual(m, all[i]) {
					t.Errorf("%s: %d lines: message %d changed", file, k, i)
				}
			}
		}
	}
}

func TestCodexEventFallback(t *testing.T) {
	data := []byte(`{"timestamp":"2025-09-14T10:00:00Z","type":"session_meta","payload":{"id":"abc","cwd":"/x"}}
{"timestamp":"2025-09-14T10:00:01Z","type":"event_msg","payload":{"type":"user_message","message":"hi","kind":"plain"}}
{"timestamp":"2025-09-14T10:00:02Z","type":"event_msg","payload":{"type":"agent_message","message":"hello"}}
`)
	convs, err := Parse("rollout.jsonl", data)
	if err != nil {
		t.Fatal(err)
	}
	ms := convs[0].Messages
	if len(ms) != 2 || ms[0].Role != RoleUser || ms[1].Text != "hello" || ms[1].Line != 3 || convs[0].ID != "abc" {
		t.Errorf("event fallback: %+v", ms)
	}
}

func TestGeminiJSONL(t *testing.T) {
	data := []byte(`{"type":"session_metadata","sessionId":"g1","projectHash":"ph","startTime":"2025-11-01T10:00:00Z"}
{"type":"user","id":"1","timestamp":"2025-11-01T10:00:01Z","content":[{"text":"hello"}]}
{"type":"message_update","id":"1","tokens":{"input":3}}
{"type":"gemini","id":"2","timestamp":"2025-11-01T10:00:02Z","content":[{"text":"hi "},{"text":"there"}],"model":"gemini-2.5-flash"}
`)
	if f := Detect("session-1.jsonl", data); f != FormatGemini {
		t.Fatalf("Detect = %q", f)
	}
	convs, err := Parse("session-1.jsonl", data)
	if err != nil {
		t.Fatal(err)
	}
	c := convs[0]
	if c.ID != "g1" || len(c.Messages) != 2 || c.Messages[1].Text != "hi \nthere" || c.Messages[1].Line != 4 || c.Meta["model"] != "gemini-2.5-flash" {
		t.Errorf("gemini jsonl: %+v", c)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// A request of the wrong shape is reported and skipped; the others are
// kept, and a response part of an unknown shape costs only itself.
func TestCopilotMalformedRequest(t *testing.T) {
	data := []byte(`{"responderUsername":"GitHub Copilot","requests":[
	{"message":{"text":"first"},"response":[{"value":"one"}],"timestamp":"yesterday"},
	7,
	{"message":{"text":"third"},"response":[42,{"value":["not","markdown"]},{"kind":"toolInvocationSerialized","toolId":"t"},{"value":"three"}]}
]}`)
	convs, err := Parse("ws/chatSessions/x.json", data)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Format != FormatCopilot || !strings.Contains(pe.Reason, "element 1") || pe.Offset != int64(bytes.IndexByte(data, '7')) {
		t.Fatalf("err = %v, want a ParseError at element 1", err)
	}
	if len(convs) != 1 || convs[0].ID != "x" {
		t.Fatalf("convs %+v", convs)
	}
	var got []string
	for _, m := range convs[0].Messages {
		got = append(got, m.Speaker+": "+m.Text)
		if !m.Time.IsZero() {
			t.Errorf("message %d has time %v from a timestamp that is not one", m.Index, m.Time)
		}
	}
	want := []string{"user: first", "GitHub Copilot: one", "user: third", "GitHub Copilot: [tool_use t]\nthree"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("messages %q, want %q", got, want)
	}
}
