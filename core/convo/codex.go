package convo

import (
	"bytes"
	"encoding/json"
	"strings"
)

// cxLine is one line of a Codex CLI rollout. Current files wrap every record
// as {timestamp, type, payload}; files from before mid-2025 have the record
// itself on the line ({type:"message", role, content}) after a first line
// {id, timestamp, instructions}, and {record_type:"state"} lines.
type cxLine struct {
	Timestamp  string          `json:"timestamp"`
	Type       string          `json:"type"`
	Payload    json.RawMessage `json:"payload"`
	ID         string          `json:"id"`
	RecordType string          `json:"record_type"`
}

// cxItem is a payload (or an old-shape line): a response item, an event or
// session metadata.
type cxItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	Action    json.RawMessage `json:"action"`
	Output    json.RawMessage `json:"output"`
	Summary   json.RawMessage `json:"summary"` // reasoning: [{type, text}]; turn_context: a string
	Message   json.RawMessage `json:"message"` // event_msg text

	ID         string `json:"id"`
	Timestamp  string `json:"timestamp"`
	CWD        string `json:"cwd"`
	CLIVersion string `json:"cli_version"`
	Originator string `json:"originator"`
	Model      string `json:"model"`
	Git        *struct {
		Branch string `json:"branch"`
	} `json:"git"`
}

// ParseCodex parses an OpenAI Codex CLI session rollout
// (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl) into one conversation.
//
// The conversation is taken from response_item records, which hold
// everything the model saw and said: messages, reasoning summaries
// ("[thinking] ..."), and tool calls ("[tool_use NAME] ARGS") with their
// outputs ("[tool_result] ..." from Speaker/Role "tool"). The event_msg
// user_message/agent_message records repeat the same turns for the UI and
// are only used for files that have no response items. User-role items that
// are context Codex injects (<environment_context>, <user_instructions>,
// AGENTS.md) and developer messages get Role "system" so they do not open an
// exchange.
func ParseCodex(name string, data []byte) (Conversation, error) {
	c, _, err := parseCodex(name, data, Resume{})
	return c, err
}

// parseCodex parses the log from r on (see ParseFrom).
func parseCodex(name string, data []byte, r Resume) (Conversation, Resume, error) {
	c := Conversation{Format: FormatCodex, Meta: copyMeta(r.Meta), Title: r.Title}
	var items, events []Message
	perr := eachJSONLFrom(FormatCodex, data, r.Line, r.Offset, func(no int, off int64, raw []byte) error {
		var l cxLine
		if err := json.Unmarshal(raw, &l); err != nil {
			return err
		}
		if l.RecordType != "" {
			return nil // old-shape {record_type:"state"}
		}
		if l.Type == "" {
			// Old-shape header {id, timestamp, instructions}.
			setMeta(c.Meta, "session_id", l.ID)
			setMeta(c.Meta, "started_at", l.Timestamp)
			return nil
		}
		body := []byte(l.Payload)
		switch l.Type {
		case "session_meta", "turn_context", "event_msg", "response_item":
		default:
			body = raw // old shape: the line is the response item itself
		}
		var it cxItem
		if len(bytes.TrimSpace(body)) > 0 {
			if err := json.Unmarshal(body, &it); err != nil {
				return err
			}
		}
		ts := parseTime(l.Timestamp)
		switch l.Type {
		case "session_meta":
			setMeta(c.Meta, "session_id", it.ID)
			setMeta(c.Meta, "started_at", it.Timestamp)
			setMeta(c.Meta, "cwd", it.CWD)
			setMeta(c.Meta, "cli_version", it.CLIVersion)
			setMeta(c.Meta, "originator", it.Originator)
			if it.Git != nil {
				setMeta(c.Meta, "git_branch", it.Git.Branch)
			}
			return nil
		case "turn_context":
			setMeta(c.Meta, "model", it.Model)
			setMeta(c.Meta, "cwd", it.CWD)
			return nil
		case "event_msg":
			switch it.Type {
			case "user_message":
				text, _ := rawString(it.Message)
				events = appendMsg(events, Message{Speaker: "user", Role: RoleUser, Time: ts, Text: text, Line: no, Offset: off})
			case "agent_message":
				text, _ := rawString(it.Message)
				events = appendMsg(events, Message{Speaker: "assistant", Role: RoleAssistant, Time: ts, Text: text, Line: no, Offset: off})
			}
			return nil
		default: // response_item, or an old-shape item
			if m, ok := codexItem(it); ok {
				m.Time, m.Line, m.Offset = ts, no, off
				items = appendMsg(items, m)
			}
		}
		return nil
	})
	// The event records stand in for response items only in a log that
	// has none: once the part before r used them, an item after it would
	// change every message.
	next := Resume{Meta: c.Meta, Title: c.Title, Stream: r.Stream}
	switch {
	case r.Stream == streamEvents && len(items) > 0:
		return c, next, ErrNotResumable
	case r.Stream == streamItems || len(items) > 0:
		c.Messages, next.Stream = items, streamItems
	case len(events) > 0:
		c.Messages, next.Stream = events, streamEvents
	}
	c.ID = c.Meta["session_id"]
	if c.ID == "" {
		c.ID = stem(name)
	}
	renumber(c.Messages, r.Index)
	if perr != nil {
		return c, next, perr
	}
	return c, next, nil
}

// codexItem turns a response item into a message.
func codexItem(it cxItem) (Message, bool) {
	switch it.Type {
	case "message":
		text, _ := renderContent(it.Content)
		m := Message{Speaker: it.Role, Role: it.Role, Text: text}
		switch it.Role {
		case RoleUser:
			if codexInjected(text) {
				m.Role = RoleSystem
			}
		case RoleAssistant:
		case "developer", RoleSystem:
			m.Role = RoleSystem
		default:
			m.Role = RoleUnknown
		}
		return m, true
	case "reasoning":
		var sum []struct {
			Text string `json:"text"`
		}
		_ = json.Unmarshal(it.Summary, &sum)
		var parts []string
		for _, s := range sum {
			if !isBlank(s.Text) {
				parts = append(parts, s.Text)
			}
		}
		if len(parts) == 0 {
			return Message{}, false // only encrypted content
		}
		return Message{Speaker: "assistant", Role: RoleAssistant, Text: "[thinking] " + strings.Join(parts, "\n")}, true
	case "function_call", "custom_tool_call", "local_shell_call":
		args := it.Arguments
		if args == nil {
			args = it.Input
		}
		if args == nil {
			args = it.Action
		}
		in, ok := rawString(args) // function_call arguments are a JSON-encoded string
		if !ok {
			in = compactJSON(args)
		}
		name := it.Name
		if name == "" {
			name = strings.TrimSuffix(it.Type, "_call")
		}
		return Message{Speaker: "assistant", Role: RoleAssistant, Text: "[tool_use " + name + "] " + in}, true
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
		out, ok := rawString(it.Output)
		if !ok {
			var o struct {
				Content string `json:"content"`
			}
			if json.Unmarshal(it.Output, &o) == nil && o.Content != "" {
				out = o.Content
			} else {
				out = compactJSON(it.Output)
			}
		}
		return Message{Speaker: "tool", Role: RoleTool, Text: "[tool_result] " + out}, true
	}
	return Message{}, false
}

// codexInjected reports user-role items that Codex writes itself.
func codexInjected(text string) bool {
	t := strings.TrimSpace(text)
	for _, p := range []string{"<environment_context>", "<user_instructions>", "# AGENTS.md instructions", "<permissions instructions>"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}
