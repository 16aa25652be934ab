// Package convo turns every chat export Palace can mine (Claude Code,
// Codex and GitHub Copilot CLI session logs, Claude.ai, ChatGPT and Gemini
// exports, GitHub Copilot Chat sessions and transcripts of VS Code, Slack
// exports and plain-text transcripts) into
// one small internal model, and cuts that model into exchanges sized for
// drawers.
//
// Everything here is a pure function over bytes: no database, no directory
// walking (Slack users.json is passed in by the caller). Parsers keep message
// text verbatim; noise is only ever removed from the separate index text
// (see IndexText), so what a drawer shows is what the export said.
//
// Message text rendering of non-text content blocks, shared by all formats:
//
//	text blocks          the text itself
//	tool_use / calls     "[tool_use NAME] INPUT"   (INPUT is the compact JSON input, key order kept)
//	tool_result          "[tool_result] CONTENT"   ("[tool_result error] ..." when the tool failed)
//	thinking / reasoning "[thinking] TEXT"
//	images               "[image]"
//	edits (Copilot)      "[edit PATH]"
//	errors (Copilot)     "[error] MESSAGE"
//	other blocks         "[TYPE]"
//
// Blocks of one message are joined with a single "\n". Copilot's inline
// references, "[file NAME]" and "[symbol NAME]", stand in the line of
// markdown they belong to.
package convo

import (
	"errors"
	"fmt"
	"time"
)

// Format names returned by Detect and stored in Conversation.Format.
const (
	FormatClaudeCode = "claude-code" // ~/.claude/projects/*/*.jsonl
	FormatClaudeAI   = "claude-ai"   // claude.ai data export conversations.json
	FormatChatGPT    = "chatgpt"     // chatgpt.com data export conversations.json
	FormatCodex      = "codex"       // ~/.codex/sessions/**/rollout-*.jsonl
	FormatGemini     = "gemini"      // ~/.gemini/tmp/*/chats/session-*.json
	FormatCopilot    = "copilot"     // VS Code's workspaceStorage/*/chatSessions/*.json
	FormatCopilotCLI = "copilot-cli" // ~/.copilot/session-state/*/events.jsonl, VS Code's GitHub.copilot-chat/transcripts/*.jsonl
	FormatSlack      = "slack"       // Slack export <channel>/YYYY-MM-DD.json
	FormatText       = "text"        // plain text / Markdown transcript
)

// Roles a Message can have. RoleUnknown is used when the export names
// speakers but not what they are (Slack, "Name: text" transcripts).
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleSystem    = "system"
	RoleTool      = "tool"
	RoleUnknown   = ""
)

// Message is one turn of a conversation.
type Message struct {
	// Index is the 0-based position in its conversation. Parsers decide
	// whether to keep a record from that record alone, so an export that
	// grows by appending keeps the indexes of every earlier message.
	Index int
	// Speaker is the display name or id the export gives ("user",
	// "assistant", "human", "gemini", "Alice", a Slack user name).
	Speaker string
	// Role is one of the Role* constants.
	Role string
	// Time is zero when the export has no timestamp for the message.
	Time time.Time
	// Text is the message as exported; see the package comment for how
	// tool calls, tool results and thinking blocks are rendered.
	Text string
	// Line is the 1-based line where the message starts in line-based
	// formats (JSONL, text); 0 for JSON documents.
	Line int
	// Offset is the byte offset in the file of the line Line names, in
	// JSONL formats (where a session can be parsed on from it, see
	// ParseFrom); 0 in the others.
	Offset int64
	// EndLine is the message's last line in a plain-text transcript (its
	// "> " or "Name:" markers included); 0 in the other formats.
	EndLine int
}

// Conversation is one session, chat or Slack channel-day.
type Conversation struct {
	ID       string
	Title    string
	Format   string            // one of the Format* constants
	Meta     map[string]string // e.g. session_id, cwd, model, channel
	Messages []Message
	// Source holds a plain-text transcript's lines (line ends dropped,
	// invalid UTF-8 as U+FFFD): its exchanges quote them verbatim, so a
	// drawer reads exactly as the lines its citation names. Nil for the
	// JSON formats, whose exchanges render their messages.
	Source []string
}

// ParseError reports a malformed or truncated export. Parsers return it
// together with everything they could read from the valid part.
type ParseError struct {
	Format string
	Line   int // 1-based line of the (first) bad record in JSONL formats; 0 for JSON
	// Offset is, for JSON, the 0-based index of the first byte that does not
	// parse (len(data) when the export is cut short) or of the element that
	// has the wrong shape; for JSONL, the offset of the bad line's start.
	Offset int64
	Reason string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("convo: %s: line %d: %s", e.Format, e.Line, e.Reason)
	}
	return fmt.Sprintf("convo: %s: byte offset %d: %s", e.Format, e.Offset, e.Reason)
}

// ErrUnknownFormat is returned by Parse for data that is not a conversation
// export Palace understands.
var ErrUnknownFormat = errors.New("convo: not a recognized conversation format")

// detectHead bounds how much of a file Parse hands to Detect: enough for the
// first keys of any export, small enough to keep detection cheap on
// multi-megabyte sessions.
const detectHead = 64 << 10

// Parse detects the format of data (name is the file path, used for its
// extension and, for Slack, its channel folder and day) and parses it. For a
// malformed or truncated export it returns the conversations read from the
// valid part and a *ParseError. Data in no known format gives
// ErrUnknownFormat. Parse has no Slack users.json, so Slack speakers are the
// names messages carry or raw ids; callers mining an export folder use
// LoadSlackUsers and ParseSlackDay instead.
func Parse(name string, data []byte) ([]Conversation, error) {
	head := data
	if len(head) > detectHead {
		head = head[:detectHead]
	}
	f := Detect(name, head)
	if f == "" {
		return nil, ErrUnknownFormat
	}
	return ParseFormat(f, name, data)
}

// ParseFormat parses data known to be in format f (one of the Format*
// constants). name is only used for fallback ids and Slack channel/day.
func ParseFormat(f, name string, data []byte) ([]Conversation, error) {
	data = trimBOM(data)
	switch f {
	case FormatClaudeCode:
		c, err := ParseClaudeCode(name, data)
		return one(c), err
	case FormatClaudeAI:
		return ParseClaudeAI(data)
	case FormatChatGPT:
		return ParseChatGPT(data)
	case FormatCodex:
		c, err := ParseCodex(name, data)
		return one(c), err
	case FormatGemini:
		c, err := ParseGemini(name, data)
		return one(c), err
	case FormatCopilot:
		c, err := ParseCopilot(name, data)
		return one(c), err
	case FormatCopilotCLI:
		c, err := ParseCopilotCLI(name, data)
		return one(c), err
	case FormatSlack:
		c, err := ParseSlackFile(name, data, nil)
		return one(c), err
	case FormatText:
		c := ParseText(name, data)
		return one(c), nil
	}
	return nil, fmt.Errorf("convo: unknown format %q", f)
}

// one wraps a single parsed conversation, dropping it when nothing in the
// file was a message so callers never file empty conversations.
func one(c Conversation) []Conversation {
	if len(c.Messages) == 0 {
		return nil
	}
	return []Conversation{c}
}

// appendMsg adds a message with the next index, skipping whitespace-only text.
// The decision depends on the message alone, which keeps indexes stable when
// an export grows.
func appendMsg(ms []Message, m Message) []Message {
	if isBlank(m.Text) {
		return ms
	}
	m.Index = len(ms)
	return append(ms, m)
}
