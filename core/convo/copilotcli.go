package convo

import (
	"encoding/json"
	"path"
	"strings"
)

// cliEvent is one line of a GitHub Copilot CLI session log: every line is
// an event {type, data, id, timestamp, parentId}, the type naming what
// happened ("session.start", "user.message", "assistant.message",
// "tool.execution_complete", ...).
type cliEvent struct {
	Type      string          `json:"type"`
	Data      json.RawMessage `json:"data"`
	Timestamp string          `json:"timestamp"`
}

// cliData holds the fields of an event's data Palace reads; which are set
// depends on the event's type.
type cliData struct {
	// session.start
	SessionID      string `json:"sessionId"`
	StartTime      string `json:"startTime"`
	CopilotVersion string `json:"copilotVersion"`
	Context        *struct {
		CWD    string `json:"cwd"`
		Branch string `json:"branch"`
	} `json:"context"`
	// session.model_change
	NewModel string `json:"newModel"`
	// user.message, assistant.message
	Content       json.RawMessage `json:"content"`
	Model         string          `json:"model"`
	ReasoningText string          `json:"reasoningText"`
	ToolRequests  []struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"toolRequests"`
	// tool.execution_complete
	Success *bool `json:"success"`
	Result  *struct {
		Content json.RawMessage `json:"content"`
	} `json:"result"`
	Error json.RawMessage `json:"error"`
}

// ParseCopilotCLI parses a GitHub Copilot CLI session log
// (~/.copilot/session-state/<session id>/events.jsonl, $COPILOT_HOME for
// ~/.copilot), and VS Code's Copilot Chat transcripts, which are the same
// events (<user data>/workspaceStorage/<hash>/GitHub.copilot-chat/
// transcripts/<id>.jsonl), into one conversation.
//
// user.message is the human's turn (its content, not the
// transformedContent the CLI wraps in injected context); assistant.message
// gives the reply: "[thinking] " and its reasoningText, the content, then
// each tool request as "[tool_use NAME] ARGS"; tool.execution_complete is
// the tool's output, "[tool_result] ..." ("[tool_result error] ..." when it
// failed), from Speaker and Role "tool". Subagents' events are kept as
// ordinary messages, as Claude Code's sidechains are. The system prompt
// (system.message) and the other events (turns, hooks, telemetry) are not
// messages. The log only grows, so it can be parsed on (see ParseFrom).
func ParseCopilotCLI(name string, data []byte) (Conversation, error) {
	c, _, err := parseCopilotCLI(name, data, Resume{})
	return c, err
}

// parseCopilotCLI parses the log from r on (see ParseFrom).
func parseCopilotCLI(name string, data []byte, r Resume) (Conversation, Resume, error) {
	c := Conversation{Format: FormatCopilotCLI, Meta: copyMeta(r.Meta), Title: r.Title}
	perr := eachJSONLFrom(FormatCopilotCLI, data, r.Line, r.Offset, func(no int, off int64, raw []byte) error {
		var e cliEvent
		if err := json.Unmarshal(raw, &e); err != nil {
			return err
		}
		var d cliData
		if len(e.Data) > 0 {
			if err := json.Unmarshal(e.Data, &d); err != nil {
				return err
			}
		}
		m := Message{Time: parseTime(e.Timestamp), Line: no, Offset: off}
		switch e.Type {
		case "session.start":
			setMeta(c.Meta, "session_id", d.SessionID)
			setMeta(c.Meta, "started_at", d.StartTime)
			setMeta(c.Meta, "version", d.CopilotVersion)
			if d.Context != nil {
				setMeta(c.Meta, "cwd", d.Context.CWD)
				setMeta(c.Meta, "git_branch", d.Context.Branch)
			}
			return nil
		case "session.model_change":
			setMeta(c.Meta, "model", d.NewModel)
			return nil
		case "user.message":
			m.Speaker, m.Role = "user", RoleUser
			m.Text = cliText(d.Content)
		case "assistant.message":
			setMeta(c.Meta, "model", d.Model)
			m.Speaker, m.Role = "assistant", RoleAssistant
			var parts []string
			if !isBlank(d.ReasoningText) {
				parts = append(parts, "[thinking] "+d.ReasoningText)
			}
			if t := cliText(d.Content); !isBlank(t) {
				parts = append(parts, t)
			}
			for _, tr := range d.ToolRequests {
				args, ok := rawString(tr.Arguments) // some releases send the arguments JSON-encoded
				if !ok {
					args = compactJSON(tr.Arguments)
				}
				parts = append(parts, "[tool_use "+tr.Name+"] "+args)
			}
			m.Text = strings.Join(parts, "\n")
		case "tool.execution_complete":
			m.Speaker, m.Role = "tool", RoleTool
			out := ""
			if d.Result != nil {
				out = cliText(d.Result.Content)
			}
			if d.Success != nil && !*d.Success {
				if out == "" {
					out = cliError(d.Error)
				}
				m.Text = "[tool_result error] " + out
			} else {
				m.Text = "[tool_result] " + out
			}
		default:
			return nil
		}
		c.Messages = appendMsg(c.Messages, m)
		return nil
	})
	c.ID = c.Meta["session_id"]
	if c.ID == "" {
		c.ID = cliSessionDir(name)
	}
	renumber(c.Messages, r.Index)
	next := Resume{Meta: c.Meta, Title: c.Title}
	if perr != nil {
		return c, next, perr
	}
	return c, next, nil
}

// cliText is a content value as text: a string, or content blocks.
func cliText(raw json.RawMessage) string {
	if s, ok := rawString(raw); ok {
		return s
	}
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	text, _ := renderContent(raw)
	return text
}

// cliError is a failed tool's error: {message} or a string.
func cliError(raw json.RawMessage) string {
	if s, ok := rawString(raw); ok {
		return s
	}
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Message != "" {
		return e.Message
	}
	return compactJSON(raw)
}

// cliSessionDir is the fallback id of a log without session.start: the
// session's folder for session-state/<id>/events.jsonl, else the file's
// stem.
func cliSessionDir(name string) string {
	name = strings.ReplaceAll(name, "\\", "/")
	if path.Base(name) == "events.jsonl" {
		if d := path.Base(path.Dir(name)); d != "." && d != "/" {
			return d
		}
	}
	return stem(name)
}

// copilotEventPrefixes are the first part of Copilot CLI event types.
var copilotEventPrefixes = []string{"session.", "user.", "assistant.", "tool.", "system.", "hook.", "subagent.", "skill."}

// isCopilotEvent reports whether a JSONL line's type names a Copilot CLI
// event.
func isCopilotEvent(typ string) bool {
	for _, p := range copilotEventPrefixes {
		if strings.HasPrefix(typ, p) {
			return true
		}
	}
	return false
}
