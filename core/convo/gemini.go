package convo

import (
	"bytes"
	"encoding/json"
	"strings"
)

// gmSession holds the session-level fields of a Gemini CLI chat recording.
type gmSession struct {
	Type        string `json:"type"`
	SessionID   string `json:"sessionId"`
	ProjectHash string `json:"projectHash"`
	StartTime   string `json:"startTime"`
}

type gmMsg struct {
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	Model     string          `json:"model"`
	Thoughts  []struct {
		Subject     string `json:"subject"`
		Description string `json:"description"`
	} `json:"thoughts"`
	ToolCalls []struct {
		Name          string          `json:"name"`
		Args          json.RawMessage `json:"args"`
		Result        json.RawMessage `json:"result"`
		ResultDisplay json.RawMessage `json:"resultDisplay"`
		Status        string          `json:"status"`
	} `json:"toolCalls"`
}

// ParseGemini parses a Gemini CLI chat recording
// (~/.gemini/tmp/<project_hash>/chats/session-*.json: {sessionId,
// projectHash, startTime, lastUpdated, messages:[{id, timestamp, type,
// content, thoughts?, toolCalls?}]}). Newer CLIs write the same records as
// JSONL after a {"type":"session_metadata"} line; both are accepted.
//
// Only "user" and "gemini" records are conversation; "info", "error" and
// "warning" are CLI notices and are skipped. A gemini message renders its
// thoughts first ("[thinking] SUBJECT: DESCRIPTION"), then its text, then
// each tool call and its displayed result, in the order the CLI ran them.
func ParseGemini(name string, data []byte) (Conversation, error) {
	c := Conversation{Format: FormatGemini, Meta: map[string]string{}}
	var s gmSession
	var perr *ParseError
	add := func(m gmMsg, line int) {
		msg, ok := geminiMsg(m)
		if !ok {
			return
		}
		if m.Type == "gemini" {
			setMeta(c.Meta, "model", m.Model)
		}
		msg.Line = line
		c.Messages = appendMsg(c.Messages, msg)
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && bytes.IndexByte(t, '\n') > 0 && isGeminiJSONL(t) {
		perr = eachJSONL(FormatGemini, data, func(no int, raw []byte) error {
			var m gmMsg
			if err := json.Unmarshal(raw, &m); err != nil {
				return err
			}
			if m.Type == "session_metadata" {
				_ = json.Unmarshal(raw, &s)
				return nil
			}
			add(m, no)
			return nil
		})
	} else {
		perr = streamObject(FormatGemini, data, "messages",
			func(k string, raw json.RawMessage) { setMember(&s, k, raw) },
			func(_ int, raw json.RawMessage) error {
				var m gmMsg
				if err := json.Unmarshal(raw, &m); err != nil {
					return err
				}
				add(m, 0)
				return nil
			})
	}
	c.ID = s.SessionID
	if c.ID == "" {
		c.ID = stem(name)
	}
	setMeta(c.Meta, "session_id", s.SessionID)
	setMeta(c.Meta, "project_hash", s.ProjectHash)
	setMeta(c.Meta, "start_time", s.StartTime)
	if perr != nil {
		return c, perr
	}
	return c, nil
}

// isGeminiJSONL tells the JSONL recording from the pretty-printed JSON one:
// its first line is a whole session_metadata record.
func isGeminiJSONL(t []byte) bool {
	first := t[:bytes.IndexByte(t, '\n')]
	var s gmSession
	return json.Unmarshal(first, &s) == nil && s.Type == "session_metadata"
}

func geminiMsg(m gmMsg) (Message, bool) {
	var role string
	switch m.Type {
	case "user":
		role = RoleUser
	case "gemini", "model":
		role = RoleAssistant
	default:
		return Message{}, false
	}
	var parts []string
	for _, t := range m.Thoughts {
		th := t.Subject
		if t.Description != "" {
			th = joinColon(th, t.Description)
		}
		if !isBlank(th) {
			parts = append(parts, "[thinking] "+th)
		}
	}
	if text := geminiContent(m.Content); text != "" {
		parts = append(parts, text)
	}
	for _, tc := range m.ToolCalls {
		parts = append(parts, "[tool_use "+tc.Name+"] "+compactJSON(tc.Args))
		res, ok := rawString(tc.ResultDisplay)
		if !ok || res == "" {
			res = geminiResult(tc.Result)
		}
		if tc.Status == "error" {
			parts = append(parts, "[tool_result error] "+res)
		} else if res != "" {
			parts = append(parts, "[tool_result] "+res)
		}
	}
	return Message{Speaker: m.Type, Role: role, Time: parseTime(m.Timestamp), Text: strings.Join(parts, "\n")}, true
}

func joinColon(a, b string) string {
	if a == "" {
		return b
	}
	return a + ": " + b
}

// geminiContent renders content given as a string or as Gemini API parts
// ([{text}], function calls and responses).
func geminiContent(raw json.RawMessage) string {
	if s, ok := rawString(raw); ok {
		return s
	}
	var parts []struct {
		Text         *string         `json:"text"`
		FunctionCall json.RawMessage `json:"functionCall"`
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '{' {
		raw = append(append([]byte{'['}, raw...), ']')
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var out []string
	for _, p := range parts {
		switch {
		case p.Text != nil:
			out = append(out, *p.Text)
		case p.FunctionCall != nil:
			var fc struct {
				Name string          `json:"name"`
				Args json.RawMessage `json:"args"`
			}
			_ = json.Unmarshal(p.FunctionCall, &fc)
			out = append(out, "[tool_use "+fc.Name+"] "+compactJSON(fc.Args))
		}
	}
	return strings.Join(out, "\n")
}

// geminiResult digs the output out of a functionResponse part list.
func geminiResult(raw json.RawMessage) string {
	var parts []struct {
		FunctionResponse struct {
			Response json.RawMessage `json:"response"`
		} `json:"functionResponse"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var out []string
	for _, p := range parts {
		var r struct {
			Output json.RawMessage `json:"output"`
		}
		if json.Unmarshal(p.FunctionResponse.Response, &r) == nil {
			if s, ok := rawString(r.Output); ok {
				out = append(out, s)
				continue
			}
		}
		if p.FunctionResponse.Response != nil {
			out = append(out, compactJSON(p.FunctionResponse.Response))
		}
	}
	return strings.Join(out, "\n")
}
