package convo

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"
)

// Detect names the format of a file from its name and its first bytes
// (head; 4–64 KiB is plenty), or returns "" when it is not a conversation.
//
// JSON formats are told apart by their keys, read with a tokenizer that
// tolerates a head cut anywhere: Claude Code lines carry sessionId /
// parentUuid / leafUuid, Codex lines a type of session_meta / response_item /
// event_msg / turn_context (or the old {id, instructions} header and bare
// response items), Gemini JSONL a session_metadata line, Copilot CLI (and
// VS Code transcript) lines a dotted event type ("session.start",
// "user.message") with its data; arrays of objects
// with chat_messages are Claude.ai, with mapping ChatGPT, of type "message"
// with ts Slack; an object with messages and sessionId/projectHash/startTime
// is a Gemini session, one with requests and responderUsername or
// requesterUsername (VS Code writes them before the requests, so a cut head
// still has them), or any requests in a chatSessions folder, a Copilot Chat
// session. Slack's users.json and channels.json are metadata, not
// conversations, and give "". Text is only considered for .txt, .md,
// .markdown, .text and extension-less files, and must look like a
// transcript (see ParseText).
func Detect(name string, head []byte) string { return detect(name, head, true) }

// DetectNamed is Detect for a file the user named as a conversation
// (`palace mine --mode convos`): a text file is a transcript with a single
// "> " line or two speakers, the thresholds ParseText settles for, so a
// short session is not turned away for being short.
func DetectNamed(name string, head []byte) string { return detect(name, head, false) }

// detect is Detect, with Detect's thresholds for text when strict.
func detect(name string, head []byte, strict bool) string {
	head = trimBOM(head)
	ext := strings.ToLower(path.Ext(strings.ReplaceAll(name, "\\", "/")))
	t := bytes.TrimSpace(head)
	isJSON := len(t) > 0 && (t[0] == '{' || t[0] == '[')
	switch ext {
	case ".jsonl", ".ndjson":
		return detectJSONL(head)
	case ".json":
		return detectJSON(name, head)
	case "":
		if isJSON {
			return detectJSON(name, head)
		}
	}
	if TextName(name) {
		return detectText(head, strict)
	}
	return ""
}

// TextName reports whether a file of this name may be a plain-text
// transcript (FormatText): a .txt, .md, .markdown or .text file, or one
// without an extension. `palace split` lists a folder's transcripts by it.
func TextName(name string) bool {
	switch strings.ToLower(path.Ext(strings.ReplaceAll(name, "\\", "/"))) {
	case "", ".txt", ".md", ".markdown", ".text":
		return true
	}
	return false
}

// inChatSessions reports whether name is in a folder called chatSessions,
// where VS Code keeps its chat sessions.
func inChatSessions(name string) bool {
	return path.Base(path.Dir(strings.ReplaceAll(name, "\\", "/"))) == "chatSessions"
}

func detectText(head []byte, strict bool) string {
	if bytes.IndexByte(head, 0) >= 0 {
		return "" // binary
	}
	if textStyle(textLines(string(head)), strict) != 0 {
		return FormatText
	}
	return ""
}

var codexTypes = map[string]bool{
	"session_meta": true, "response_item": true, "event_msg": true, "turn_context": true, "compacted": true,
}

var codexOldTypes = map[string]bool{
	"message": true, "function_call": true, "function_call_output": true, "reasoning": true,
	"local_shell_call": true, "custom_tool_call": true,
}

// detectJSONL looks at the first lines until one is decisive.
func detectJSONL(head []byte) string {
	lines := bytes.Split(head, []byte("\n"))
	for i, l := range lines {
		if i >= 50 {
			break
		}
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		if l[0] != '{' {
			return ""
		}
		ks := scanKeys(l)
		typ := ks.str["type"]
		switch {
		case typ == "session_metadata": // before Claude Code: it has a sessionId too
			return FormatGemini
		case ks.has("data", 1) && isCopilotEvent(typ):
			return FormatCopilotCLI
		case ks.has("sessionId", 1) || ks.has("parentUuid", 1) || ks.has("leafUuid", 1) ||
			typ == "file-history-snapshot":
			return FormatClaudeCode
		case ks.has("type", 1) && codexTypes[typ]:
			return FormatCodex
		case ks.has("record_type", 1),
			ks.has("instructions", 1) && ks.has("id", 1),
			ks.has("type", 1) && codexOldTypes[typ] && (ks.has("role", 1) || ks.has("call_id", 1) || ks.has("summary", 1)):
			return FormatCodex
		}
	}
	return ""
}

// detectJSON handles .json files, which may also hold JSONL (one complete
// object on the first line and more lines after it).
func detectJSON(name string, head []byte) string {
	t := bytes.TrimSpace(head)
	if len(t) == 0 {
		return ""
	}
	if nl := bytes.IndexByte(t, '\n'); nl > 0 && t[0] == '{' && json.Valid(bytes.TrimSpace(t[:nl])) {
		if f := detectJSONL(t); f != "" {
			return f
		}
	}
	ks := scanKeys(t)
	switch ks.root {
	case '[':
		switch {
		case ks.has("chat_messages", 2):
			return FormatClaudeAI
		case ks.has("mapping", 2):
			return FormatChatGPT
		case ks.has("type", 2) && ks.str["type"] == "message", ks.has("ts", 2) && ks.has("type", 2):
			return FormatSlack
		}
		if _, day := slackPathParts(name); day != "" && len(ks.depth) == 0 {
			return FormatSlack // an empty day, e.g. "[]"
		}
	case '{':
		switch {
		case ks.has("mapping", 1):
			return FormatChatGPT
		case ks.has("chat_messages", 1):
			return FormatClaudeAI
		case ks.has("messages", 1) && (ks.has("sessionId", 1) || ks.has("projectHash", 1) || ks.has("startTime", 1)):
			return FormatGemini
		case ks.has("requests", 1) && (ks.has("responderUsername", 1) || ks.has("requesterUsername", 1) || inChatSessions(name)):
			return FormatCopilot
		}
	}
	return ""
}
