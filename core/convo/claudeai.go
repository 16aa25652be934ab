package convo

import (
	"bytes"
	"encoding/json"
)

type claudeAIConv struct {
	UUID         string          `json:"uuid"`
	Name         string          `json:"name"`
	Summary      string          `json:"summary"`
	CreatedAt    string          `json:"created_at"`
	ChatMessages []claudeAIMsg   `json:"chat_messages"`
	Account      json.RawMessage `json:"account"`
}

type claudeAIMsg struct {
	UUID        string          `json:"uuid"`
	Sender      string          `json:"sender"`
	Text        string          `json:"text"`
	Content     json.RawMessage `json:"content"`
	CreatedAt   string          `json:"created_at"`
	Attachments []struct {
		FileName         string `json:"file_name"`
		ExtractedContent string `json:"extracted_content"`
	} `json:"attachments"`
	Files []struct {
		FileName string `json:"file_name"`
	} `json:"files"`
}

// ParseClaudeAI parses the conversations.json of a claude.ai data export:
// an array of conversations with chat_messages sent by "human" or
// "assistant". A single conversation object is accepted too.
//
// The content blocks are preferred over the flat text field because newer
// exports put tool use and thinking only there; older exports have no
// content, so text is the fallback. Pasted attachments are part of what the
// human sent, so their extracted text is appended as
// "[attachment NAME]\n..."; uploaded files without text become "[file NAME]".
func ParseClaudeAI(data []byte) ([]Conversation, error) {
	var out []Conversation
	add := func(cv claudeAIConv) {
		c := Conversation{ID: cv.UUID, Title: cv.Name, Format: FormatClaudeAI, Meta: map[string]string{}}
		setMeta(c.Meta, "created_at", cv.CreatedAt)
		setMeta(c.Meta, "summary", cv.Summary)
		for _, cm := range cv.ChatMessages {
			text, _ := renderContent(cm.Content)
			if isBlank(text) {
				text = cm.Text
			}
			for _, a := range cm.Attachments {
				text = joinNonEmpty(text, "[attachment "+a.FileName+"]\n"+a.ExtractedContent)
			}
			for _, f := range cm.Files {
				text = joinNonEmpty(text, "[file "+f.FileName+"]")
			}
			role := RoleUnknown
			switch cm.Sender {
			case "human", "user":
				role = RoleUser
			case "assistant":
				role = RoleAssistant
			}
			c.Messages = appendMsg(c.Messages, Message{Speaker: cm.Sender, Role: role, Time: parseTime(cm.CreatedAt), Text: text})
		}
		if len(c.Messages) > 0 {
			out = append(out, c)
		}
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		// One conversation on its own: stream its messages so a cut-off
		// file still yields the complete ones.
		var cv claudeAIConv
		perr := streamObject(FormatClaudeAI, data, "chat_messages",
			func(k string, raw json.RawMessage) { setMember(&cv, k, raw) },
			func(_ int, raw json.RawMessage) error {
				var m claudeAIMsg
				if err := json.Unmarshal(raw, &m); err != nil {
					return err
				}
				cv.ChatMessages = append(cv.ChatMessages, m)
				return nil
			})
		add(cv)
		if perr != nil {
			return out, perr
		}
		return out, nil
	}
	perr := streamArray(FormatClaudeAI, data, func(_ int, raw json.RawMessage) error {
		var cv claudeAIConv
		if err := json.Unmarshal(raw, &cv); err != nil {
			return err
		}
		add(cv)
		return nil
	})
	if perr != nil {
		return out, perr
	}
	return out, nil
}

func joinNonEmpty(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}
