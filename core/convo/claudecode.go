package convo

import (
	"encoding/json"
	"path"
	"strings"
)

// ccLine is one line of a Claude Code session log. Only "user" and
// "assistant" lines carry messages; "summary", "system",
// "file-history-snapshot" and future types are skipped (but still counted,
// so Message.Line stays the real line number).
type ccLine struct {
	Type             string `json:"type"`
	SessionID        string `json:"sessionId"`
	CWD              string `json:"cwd"`
	GitBranch        string `json:"gitBranch"`
	Version          string `json:"version"`
	Timestamp        string `json:"timestamp"`
	IsMeta           bool   `json:"isMeta"`
	IsCompactSummary bool   `json:"isCompactSummary"`
	Summary          string `json:"summary"`
	Message          *struct {
		ID      string          `json:"id"`
		Role    string          `json:"role"`
		Model   string          `json:"model"`
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

// ParseClaudeCode parses a Claude Code session log
// (~/.claude/projects/<project>/<sessionId>.jsonl) into one conversation.
//
// Claude Code writes one line per streamed content block, so an assistant
// turn with thinking, text and two tool calls is four lines sharing one
// message.id; consecutive lines with the same id become one Message (the
// first line's number and time). A user line holding only tool_result
// blocks is the tool's output, not the human: it gets Role and Speaker
// "tool". Injected user lines (isMeta caveats, the post-/compact summary)
// get Role "system" so they never open an exchange. Sidechain (subagent)
// lines are kept as ordinary messages: they are part of what the session
// did, and subagent logs in their own files consist of nothing else.
func ParseClaudeCode(name string, data []byte) (Conversation, error) {
	c, _, err := parseClaudeCode(name, data, Resume{})
	return c, err
}

// parseClaudeCode parses the log from r on (see ParseFrom).
func parseClaudeCode(name string, data []byte, r Resume) (Conversation, Resume, error) {
	c := Conversation{Format: FormatClaudeCode, Meta: copyMeta(r.Meta), Title: r.Title}
	// A resume point is the first line of a message, which no line
	// before it continues: starting with no open message is what the
	// whole file's parse has there too.
	lastID := "" // message.id of the last kept assistant message
	perr := eachJSONLFrom(FormatClaudeCode, data, r.Line, r.Offset, func(no int, off int64, raw []byte) error {
		var l ccLine
		if err := json.Unmarshal(raw, &l); err != nil {
			return err
		}
		setMeta(c.Meta, "session_id", l.SessionID)
		setMeta(c.Meta, "cwd", l.CWD)
		setMeta(c.Meta, "git_branch", l.GitBranch)
		setMeta(c.Meta, "version", l.Version)
		if l.Type == "summary" && c.Title == "" {
			c.Title = l.Summary
		}
		if (l.Type != "user" && l.Type != "assistant") || l.Message == nil {
			return nil
		}
		text, tools := renderContent(l.Message.Content)
		m := Message{Speaker: l.Type, Role: l.Type, Time: parseTime(l.Timestamp), Text: text, Line: no, Offset: off}
		if l.Message.Role != "" {
			m.Speaker = l.Message.Role
		}
		switch {
		case l.Type == "assistant":
			setMeta(c.Meta, "model", l.Message.Model)
			m.Role = RoleAssistant
			if id := l.Message.ID; id != "" && id == lastID && len(c.Messages) > 0 {
				prev := &c.Messages[len(c.Messages)-1]
				if !isBlank(text) {
					prev.Text += "\n" + text
				}
				return nil
			}
			if !isBlank(text) {
				lastID = l.Message.ID
			}
		case tools:
			m.Role, m.Speaker = RoleTool, "tool"
		case l.IsMeta || l.IsCompactSummary:
			m.Role = RoleSystem
		default:
			m.Role = RoleUser
		}
		if l.Type != "assistant" {
			lastID = ""
		}
		c.Messages = appendMsg(c.Messages, m)
		return nil
	})
	c.ID = c.Meta["session_id"]
	if c.ID == "" {
		c.ID = stem(name)
	}
	renumber(c.Messages, r.Index)
	next := Resume{Meta: c.Meta, Title: c.Title}
	if perr != nil {
		return c, next, perr
	}
	return c, next, nil
}

// setMeta records the first non-empty value seen for key, so a session's
// meta describes where it started.
func setMeta(meta map[string]string, key, value string) {
	if value == "" {
		return
	}
	if _, ok := meta[key]; !ok {
		meta[key] = value
	}
}

// stem is a file's base name without extension: Claude Code and Codex name
// their logs after the session, so it is the fallback id.
func stem(name string) string {
	b := path.Base(strings.ReplaceAll(name, "\\", "/"))
	if b == "." || b == "/" {
		return ""
	}
	return strings.TrimSuffix(b, path.Ext(b))
}
