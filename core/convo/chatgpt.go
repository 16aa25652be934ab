package convo

import (
	"bytes"
	"encoding/json"
	"strings"
)

type gptConv struct {
	ID             string             `json:"id"`
	ConversationID string             `json:"conversation_id"`
	Title          string             `json:"title"`
	CreateTime     float64            `json:"create_time"`
	CurrentNode    string             `json:"current_node"`
	DefaultModel   string             `json:"default_model_slug"`
	Mapping        map[string]gptNode `json:"mapping"`
}

type gptNode struct {
	Message  *gptMsg  `json:"message"`
	Parent   *string  `json:"parent"`
	Children []string `json:"children"`
}

type gptMsg struct {
	Author struct {
		Role string `json:"role"`
		Name string `json:"name"`
	} `json:"author"`
	CreateTime float64 `json:"create_time"`
	Content    struct {
		ContentType string            `json:"content_type"`
		Parts       []json.RawMessage `json:"parts"`
		Text        json.RawMessage   `json:"text"`
		Result      string            `json:"result"`
		Thoughts    []struct {
			Summary string `json:"summary"`
			Content string `json:"content"`
		} `json:"thoughts"`
	} `json:"content"`
	Metadata struct {
		Hidden bool `json:"is_visually_hidden_from_conversation"`
	} `json:"metadata"`
}

// ParseChatGPT parses the conversations.json of a ChatGPT data export (or a
// single conversation object). A conversation is a tree of nodes because
// every edit or regeneration forks it; only the branch the user last saw is
// kept: walk from current_node up through the parents, then reverse. When
// current_node is missing or dangling, the newest branch (the last child at
// every fork) is taken instead, since ChatGPT appends forks in order.
// Nodes without a message, hidden nodes (the system prompt, custom
// instructions) and empty messages are skipped.
func ParseChatGPT(data []byte) ([]Conversation, error) {
	var out []Conversation
	add := func(_ int, raw json.RawMessage) error {
		var cv gptConv
		if err := json.Unmarshal(raw, &cv); err != nil {
			return err
		}
		c := Conversation{ID: cv.ConversationID, Title: cv.Title, Format: FormatChatGPT, Meta: map[string]string{}}
		if c.ID == "" {
			c.ID = cv.ID
		}
		setMeta(c.Meta, "model", cv.DefaultModel)
		if t := unixFloat(cv.CreateTime); !t.IsZero() {
			c.Meta["created_at"] = t.Format("2006-01-02T15:04:05.999999Z07:00")
		}
		for _, id := range gptBranch(cv) {
			m := cv.Mapping[id].Message
			if m == nil || m.Metadata.Hidden {
				continue
			}
			speaker := m.Author.Role
			if m.Author.Name != "" {
				speaker = m.Author.Name
			}
			role := m.Author.Role
			switch role {
			case RoleUser, RoleAssistant, RoleSystem, RoleTool:
			default:
				role = RoleUnknown
			}
			c.Messages = appendMsg(c.Messages, Message{Speaker: speaker, Role: role, Time: unixFloat(m.CreateTime), Text: gptText(m)})
		}
		if len(c.Messages) > 0 {
			out = append(out, c)
		}
		return nil
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		if err := add(0, data); err != nil {
			return nil, decodeErr(FormatChatGPT, data, skipWS(data, 0), err)
		}
		return out, nil
	}
	if perr := streamArray(FormatChatGPT, data, add); perr != nil {
		return out, perr
	}
	return out, nil
}

// gptBranch returns the node ids of the current branch, root first.
func gptBranch(cv gptConv) []string {
	leaf := cv.CurrentNode
	if _, ok := cv.Mapping[leaf]; !ok || leaf == "" {
		leaf = gptNewestLeaf(cv.Mapping)
	}
	var ids []string
	seen := map[string]bool{}
	for id := leaf; id != "" && !seen[id]; {
		n, ok := cv.Mapping[id]
		if !ok {
			break
		}
		seen[id] = true
		ids = append(ids, id)
		if n.Parent == nil {
			break
		}
		id = *n.Parent
	}
	for i, j := 0, len(ids)-1; i < j; i, j = i+1, j-1 {
		ids[i], ids[j] = ids[j], ids[i]
	}
	return ids
}

// gptNewestLeaf follows the last child from the root. Map iteration order is
// random, so the root is chosen deterministically (smallest id among
// parentless nodes) to keep re-parses identical. The empty id means "no
// node" throughout (as a parent, and to end a walk), so a node keyed ""
// is never the root: it would make the choice depend on that order.
func gptNewestLeaf(mapping map[string]gptNode) string {
	root := ""
	for id, n := range mapping {
		if id == "" {
			continue
		}
		if n.Parent == nil || *n.Parent == "" || !hasNode(mapping, *n.Parent) {
			if root == "" || id < root {
				root = id
			}
		}
	}
	seen := map[string]bool{}
	id := root
	for id != "" && !seen[id] {
		seen[id] = true
		n := mapping[id]
		next := ""
		for i := len(n.Children) - 1; i >= 0; i-- {
			if hasNode(mapping, n.Children[i]) {
				next = n.Children[i]
				break
			}
		}
		if next == "" {
			return id
		}
		id = next
	}
	return id
}

func hasNode(mapping map[string]gptNode, id string) bool {
	_, ok := mapping[id]
	return ok
}

// gptText renders the content types ChatGPT stores: text and
// multimodal_text parts (strings; images as "[image]"), code and
// execution_output text, browsing results and thoughts.
func gptText(m *gptMsg) string {
	ct := m.Content
	var parts []string
	for _, p := range ct.Parts {
		if s, ok := rawString(p); ok {
			parts = append(parts, s)
			continue
		}
		var obj struct {
			ContentType string `json:"content_type"`
			Text        string `json:"text"`
		}
		if json.Unmarshal(p, &obj) != nil {
			continue
		}
		switch {
		case obj.Text != "":
			parts = append(parts, obj.Text)
		case strings.Contains(obj.ContentType, "image"):
			parts = append(parts, "[image]")
		case obj.ContentType != "":
			parts = append(parts, "["+obj.ContentType+"]")
		}
	}
	if s, ok := rawString(ct.Text); ok {
		parts = append(parts, s)
	}
	if ct.Result != "" {
		parts = append(parts, ct.Result)
	}
	for _, t := range ct.Thoughts {
		parts = append(parts, "[thinking] "+joinNonEmpty(t.Summary, t.Content))
	}
	return strings.Join(parts, "\n")
}
