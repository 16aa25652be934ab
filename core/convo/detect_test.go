package convo

import (
	"errors"
	"reflect"
	"testing"
)

func TestDetect(t *testing.T) {
	tests := []struct {
		name string
		head []byte // nil: read the file called name
		want string
	}{
		{ccFile, nil, FormatClaudeCode},
		{claudeFile, nil, FormatClaudeAI},
		{gptFile, nil, FormatChatGPT},
		{codexFile, nil, FormatCodex},
		{codexOld, nil, FormatCodex},
		{geminiFile, nil, FormatGemini},
		{copilotFile, nil, FormatCopilot},
		// VS Code writes the user names before the requests: a head cut
		// in the first request still detects, wherever the file is.
		{"export.json", []byte(`{"version":3,"requesterUsername":"dana","requesterAvatarIconUri":{"$mid":1},"responderUsername":"GitHub Copilot","initialLocation":"panel","requests":[{"requestId":"r","message":{"text":"lo`), FormatCopilot},
		// A session without them is one only in a chatSessions folder.
		{"ws/chatSessions/a.json", []byte(`{"requests":[],"sessionId":"a","creationDate":1}`), FormatCopilot},
		{`C:\ws\chatSessions\a.json`, []byte(`{"requests":[],"sessionId":"a","creationDate":1}`), FormatCopilot},
		{"api/batch.json", []byte(`{"requests":[{"method":"GET","url":"/a"}],"sessionId":"a"}`), ""},
		// VS Code's newer append log of a session is not read yet.
		{"ws/chatSessions/a.jsonl", []byte(`{"kind":0,"v":{"version":3,"responderUsername":"GitHub Copilot","requests":[]}}` + "\n" + `{"kind":2,"k":["requests"],"v":[]}` + "\n"), ""},
		{slackDay, nil, FormatSlack},
		{slackDay2, nil, FormatSlack},
		{quoteFile, nil, FormatText},
		{peopleFile, nil, FormatText},
		{megaFile, nil, FormatText},
		// Slack metadata files are not conversations.
		{slackUsers, nil, ""},
		{"testdata/slack/channels.json", nil, ""},
		// Not conversations at all.
		{"package.json", []byte(`{"name":"web","version":"1.0.0","scripts":{"test":"jest"},"dependencies":{"react":"^18.2.0"}}`), ""},
		{"tsconfig.json", []byte(`{"compilerOptions":{"target":"es2020"},"include":["src"]}`), ""},
		{"main.go", []byte("package main\n\n// > not a quote\n// > at all\n// > really\nfunc main() {}\n"), ""},
		{"notes.md", []byte("# Notes\n\nNote: remember the milk.\nWarning: it is cold.\nNote: again.\nWarning: again.\n"), ""},
		// "Label:" alone on a line only counts for role-like names.
		{"howto.md", []byte("Install:\nrun make\nConfigure:\nedit x\nInstall:\nagain\nConfigure:\nagain\n"), ""},
		{"chat.txt", []byte("User:\nhi there\nAssistant:\nhello\nUser:\nbye\nAssistant:\nbye\n"), FormatText},
		{"data.jsonl", []byte(`{"a":1}` + "\n" + `{"a":2}` + "\n"), ""},
		// Keys quoted inside a string value do not count.
		{"x.json", []byte(`[{"title":"has \"mapping\": and \"chat_messages\": inside"}]`), ""},
		// A head cut in the middle of the first line still detects.
		{"s.jsonl", []byte(`{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/a","sessionId":"x","version":"1.0","type":"user","message":{"role":"user","content":"long te`), FormatClaudeCode},
		{"r.jsonl", []byte(`{"timestamp":"2025-09-14T10:20:30.512Z","type":"session_meta","payload":{"id":"0199`), FormatCodex},
		{"conversations.json", []byte(`[{"uuid":"5a1f","name":"x","created_at":"2025-03-11T09:02:14Z","chat_messages":[{"uuid":"7e`), FormatClaudeAI},
		{"conversations.json", []byte(`[{"title": "x", "create_time": 1714000000.0, "mapping": {"a": {"id": "a", "mess`), FormatChatGPT},
		// Slack day files: an empty day is still a day file.
		{"export/general/2024-01-02.json", []byte("[]"), FormatSlack},
		{"export/general/notes.json", []byte("[]"), ""},
		// Extension-less JSON is sniffed.
		{"session", []byte(`{"sessionId":"b6","projectHash":"9d","startTime":"2025-10-03T16:41:07Z","messages":[]}`), FormatGemini},
		// UTF-8 BOM.
		{"conversations.json", append([]byte("\xef\xbb\xbf"), []byte(`[{"uuid":"u","chat_messages":[]}]`)...), FormatClaudeAI},
		{"bin.txt", []byte("> a\x00\n> b\n> c\n"), ""},
	}
	for _, tt := range tests {
		head := tt.head
		if head == nil {
			head = read(t, tt.name)
		}
		if got := Detect(tt.name, head); got != tt.want {
			t.Errorf("Detect(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestParseUnknown(t *testing.T) {
	if _, err := Parse("package.json", []byte(`{"name":"x"}`)); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("err = %v, want ErrUnknownFormat", err)
	}
	if _, err := ParseFormat("nope", "x", nil); err == nil {
		t.Error("unknown format name accepted")
	}
}

// A file the user names as a conversation needs only one quoted line or
// two speakers; the same file found in a project is prose.
func TestDetectNamed(t *testing.T) {
	tests := []struct {
		name, head   string
		strict, told string
	}{
		{"short.md", "> Who signs off on the release?\n\nDana does, on Thursdays.\n", "", FormatText},
		{"two.txt", "> a\nreply\n> b\nreply\n", "", FormatText},
		{"chat.txt", "Alice: are we shipping?\nBob: tomorrow\n", "", FormatText},
		{"notes.md", "# Notes\n\nNothing quoted, nobody speaks.\n", "", ""},
		{"one.txt", "Alice: a single speaker is a note\n", "", ""},
		{"main.go", "// > quoted\n", "", ""},
		{"bin.txt", "> a\x00\n", "", ""},
		{"users.json", `[{"id":"U1","name":"a"}]`, "", ""},
	}
	for _, tt := range tests {
		if got := Detect(tt.name, []byte(tt.head)); got != tt.strict {
			t.Errorf("Detect(%q) = %q, want %q", tt.name, got, tt.strict)
		}
		if got := DetectNamed(tt.name, []byte(tt.head)); got != tt.told {
			t.Errorf("DetectNamed(%q) = %q, want %q", tt.name, got, tt.told)
		}
	}
	if got := DetectNamed(quoteFile, read(t, quoteFile)); got != FormatText {
		t.Errorf("DetectNamed(%s) = %q", quoteFile, got)
	}
}

func TestSlackMetadata(t *testing.T) {
	paths := []string{
		"slack/users.json", "slack/channels.json", "slack/dms.json", "slack/integration_logs.json",
		"slack/general/2023-11-14.json", "slack/general/users.json",
		"app/users.json", "app/channels.json", "app/api/handler.go", // no day files: an app's data
		"z/users.json", "z/2024-01-02.json", // a day file beside it, not in a channel folder
		"x/groups.json", "x/c/2024-01-02.json", // day files but neither users.json nor channels.json
	}
	got := SlackMetadata(paths)
	want := map[string]bool{"slack/users.json": true, "slack/channels.json": true, "slack/dms.json": true, "slack/integration_logs.json": true}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("SlackMetadata = %v, want %v", got, want)
	}
}

// TextName is the rule Detect reads text transcripts by, exported for
// `palace split`: .txt, .md, .markdown and .text files and files without
// an extension, in any case.
func TestTextName(t *testing.T) {
	for name, want := range map[string]bool{
		"all-sessions.txt": true, "notes.MD": true, "log.markdown": true, "raw.text": true, "SESSIONS": true,
		`C:\notes\day.txt`: true, "export.json": false, "main.go": false, "page.mdx": false, "x.rst": false,
	} {
		if got := TextName(name); got != want {
			t.Errorf("TextName(%q) = %v, want %v", name, got, want)
		}
	}
}
