package convo

import (
	"bytes"
	"encoding/json"
	"math"
	"path"
	"strings"
	"time"
)

// Copilot Chat speakers when the session does not name them.
const (
	copilotUser      = "user"
	copilotAssistant = "GitHub Copilot"
)

// cpSession holds the session-level fields of a VS Code chat session
// (ISerializableChatData: version 3 and the older ones without a version).
type cpSession struct {
	SessionID         string          `json:"sessionId"`
	RequesterUsername string          `json:"requesterUsername"`
	ResponderUsername string          `json:"responderUsername"`
	InitialLocation   json.RawMessage `json:"initialLocation"`
	CreationDate      json.RawMessage `json:"creationDate"`
	CustomTitle       string          `json:"customTitle"`
	ComputedTitle     string          `json:"computedTitle"`
}

// cpRequest is one request and its response. Fields whose type varies
// between VS Code versions, or that a hand-edited file may break, stay raw
// so one of them cannot cost the whole request.
type cpRequest struct {
	Message   json.RawMessage `json:"message"`   // {text, parts}, or a string in old sessions
	Response  json.RawMessage `json:"response"`  // [part, ...]
	Result    json.RawMessage `json:"result"`    // {errorDetails: {message}, ...}
	Timestamp json.RawMessage `json:"timestamp"` // milliseconds since 1970
	ModelID   json.RawMessage `json:"modelId"`
}

// ParseCopilot parses a GitHub Copilot Chat session as VS Code keeps it
// (<user data>/workspaceStorage/<hash>/chatSessions/<id>.json, and the
// same shape from "Chat: Export Chat..."): {requesterUsername,
// responderUsername, initialLocation, requests: [{requestId, message:
// {text, parts}, response: [part, ...], result, timestamp, modelId}],
// sessionId, creationDate, customTitle}.
//
// Each request gives a user message (message.text) and, unless its response
// is empty, an assistant message, both dated by the request's timestamp
// (a response has none of its own). Speakers are requesterUsername and
// responderUsername, else "user" and "GitHub Copilot". A response is
// rendered part by part (see copilotResponse). A truncated or malformed
// file keeps every request before the break.
func ParseCopilot(name string, data []byte) (Conversation, error) {
	c := Conversation{Format: FormatCopilot, Meta: map[string]string{}}
	var s cpSession
	perr := streamObject(FormatCopilot, data, "requests",
		func(k string, raw json.RawMessage) { setMember(&s, k, raw) },
		func(_ int, raw json.RawMessage) error {
			var r cpRequest
			if err := json.Unmarshal(raw, &r); err != nil {
				return err
			}
			at := unixMilli(r.Timestamp)
			c.Messages = appendMsg(c.Messages, Message{Role: RoleUser, Time: at, Text: copilotMessage(r.Message)})
			c.Messages = appendMsg(c.Messages, Message{Role: RoleAssistant, Time: at, Text: copilotResponse(r.Response, r.Result)})
			if model, ok := rawString(r.ModelID); ok {
				setMeta(c.Meta, "model", model)
			}
			return nil
		})
	// The speakers are named after the requests are read: nothing says
	// that the session's fields come first.
	user, assistant := s.RequesterUsername, s.ResponderUsername
	if isBlank(user) {
		user = copilotUser
	}
	if isBlank(assistant) {
		assistant = copilotAssistant
	}
	for i := range c.Messages {
		c.Messages[i].Speaker = user
		if c.Messages[i].Role == RoleAssistant {
			c.Messages[i].Speaker = assistant
		}
	}
	c.ID = s.SessionID
	if c.ID == "" {
		c.ID = stem(name)
	}
	c.Title = s.CustomTitle
	if c.Title == "" {
		c.Title = s.ComputedTitle
	}
	setMeta(c.Meta, "session_id", s.SessionID)
	setMeta(c.Meta, "requester", s.RequesterUsername)
	setMeta(c.Meta, "responder", s.ResponderUsername)
	if loc, ok := rawString(s.InitialLocation); ok {
		setMeta(c.Meta, "location", loc)
	}
	// Dates the requests of old sessions, which have no timestamps (see
	// core/mine's exchangeDrawers).
	if t := unixMilli(s.CreationDate); !t.IsZero() {
		setMeta(c.Meta, "started_at", t.Format(time.RFC3339Nano))
	}
	if perr != nil {
		return c, perr
	}
	return c, nil
}

// unixMilli reads a JavaScript time (milliseconds since 1970); anything
// else, or a time before 1970 or after 9999, is no time.
func unixMilli(raw json.RawMessage) time.Time {
	var ms float64
	if json.Unmarshal(raw, &ms) != nil || ms <= 0 || ms > 253402300799999 || math.IsNaN(ms) {
		return time.Time{}
	}
	return time.UnixMilli(int64(ms)).UTC()
}

// copilotMessage is what the user typed: message.text, or the message
// itself in sessions older than the parsed form.
func copilotMessage(raw json.RawMessage) string {
	if s, ok := rawString(raw); ok {
		return s
	}
	var m struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &m)
	return m.Text
}

// cpPart is the union of the response parts VS Code persists.
type cpPart struct {
	Kind  string          `json:"kind"`
	Value json.RawMessage `json:"value"` // markdown (a part without kind), thinking
	// Content is the markdown of markdownContent, markdownVuln and warning
	// parts.
	Content         json.RawMessage `json:"content"`
	InlineReference json.RawMessage `json:"inlineReference"`
	Name            string          `json:"name"`
	URI             json.RawMessage `json:"uri"`
	ToolID          string          `json:"toolId"`
	InvocationMsg   json.RawMessage `json:"invocationMessage"`
	PastTenseMsg    json.RawMessage `json:"pastTenseMessage"`
}

// copilotSkipped are the parts that hold no content, only the chat view's
// state: a code block's file (the code is in the markdown around it), undo
// points, progress and tool announcements (the invocation follows).
var copilotSkipped = map[string]bool{
	"codeblockUri": true, "undoStop": true, "prepareToolInvocation": true, "progressMessage": true,
	"progressTask": true, "progressTaskSerialized": true, "mcpServersStarting": true,
}

// copilotResponse renders a response: markdown verbatim, an inline
// reference in place (see referenceOf), a tool invocation as "[tool_use
// TOOL] MESSAGE" (its past-tense message: what it did), thinking as
// "[thinking] TEXT", an edit as "[edit PATH]", a warning as "[warning]
// TEXT", the error the request ended with as "[error] MESSAGE", other
// parts as "[KIND]", and parts that are view state not at all.
//
// Markdown arrives in pieces meant to be read as one text, inline
// references between them; a piece of markdown is joined to the one
// before it as is where one of them breaks the line there, else with "\n",
// so no line is made of two pieces, and a block has lines of its own.
func copilotResponse(raw, result json.RawMessage) string {
	var b strings.Builder
	// last is what was written last: markdown and inline references share
	// lines, blocks have their own.
	const (
		none = iota
		md
		ref
		blk
	)
	last := none
	// write adds s, on a new line unless the line open may take it.
	write := func(s string, kind int) {
		open := last == none || strings.HasSuffix(b.String(), "\n") || strings.HasPrefix(s, "\n") ||
			last == ref && kind != blk || last == md && kind == ref
		if !open {
			b.WriteByte('\n')
		}
		b.WriteString(s)
		last = kind
	}
	var parts []json.RawMessage
	if s, ok := rawString(raw); ok {
		write(s, md) // a session older than parts
	} else if json.Unmarshal(raw, &parts) != nil {
		parts = nil
	}
	for _, pr := range parts {
		if s, ok := rawString(pr); ok {
			write(s, md)
			continue
		}
		var p cpPart
		if json.Unmarshal(pr, &p) != nil {
			continue
		}
		switch {
		case p.Kind == "" || p.Kind == "markdownContent" || p.Kind == "markdownVuln":
			s, ok := markdownOf(p.Value)
			if !ok {
				s, _ = markdownOf(p.Content)
			}
			if s != "" {
				write(s, md)
			}
		case p.Kind == "inlineReference":
			if s := referenceOf(p); s != "" {
				write(s, ref)
			}
		case p.Kind == "toolInvocationSerialized" || p.Kind == "toolInvocation":
			msg, ok := markdownOf(p.PastTenseMsg)
			if !ok || isBlank(msg) {
				msg, _ = markdownOf(p.InvocationMsg)
			}
			s := "[tool_use " + p.ToolID + "]"
			if !isBlank(msg) {
				s += " " + msg
			}
			write(s, blk)
		case p.Kind == "thinking":
			if s := thinkingText(p.Value); !isBlank(s) {
				write("[thinking] "+s, blk)
			}
		case p.Kind == "textEditGroup" || p.Kind == "notebookEditGroup":
			if where := uriPath(p.URI); where != "" {
				write("[edit "+where+"]", blk)
			}
		case p.Kind == "warning":
			if s, ok := markdownOf(p.Content); ok && !isBlank(s) {
				write("[warning] "+s, blk)
			}
		case !copilotSkipped[p.Kind]:
			write("["+p.Kind+"]", blk)
		}
	}
	var r struct {
		ErrorDetails struct {
			Message string `json:"message"`
		} `json:"errorDetails"`
	}
	if json.Unmarshal(result, &r) == nil && !isBlank(r.ErrorDetails.Message) {
		write("[error] "+r.ErrorDetails.Message, blk)
	}
	return b.String()
}

// markdownOf reads an IMarkdownString ({value}) or a plain string.
func markdownOf(raw json.RawMessage) (string, bool) {
	if s, ok := rawString(raw); ok {
		return s, true
	}
	var m struct {
		Value *string `json:"value"`
	}
	if json.Unmarshal(raw, &m) != nil || m.Value == nil {
		return "", false
	}
	return *m.Value, true
}

// thinkingText reads a thinking part's value: a string, or a list of them.
func thinkingText(raw json.RawMessage) string {
	if s, ok := rawString(raw); ok {
		return s
	}
	var list []string
	_ = json.Unmarshal(raw, &list)
	return strings.Join(list, "\n")
}

// referenceOf renders an inline reference as the chat view names it: a
// workspace symbol ({name, location}) as "[symbol NAME]", a file (a URI, or
// a location's) as "[file NAME]", NAME being the part's name, else the
// symbol's or the file's base name; "" when it names nothing.
func referenceOf(p cpPart) string {
	var ref struct {
		URI      json.RawMessage `json:"uri"`
		Name     string          `json:"name"`
		Location json.RawMessage `json:"location"`
	}
	_ = json.Unmarshal(p.InlineReference, &ref)
	name := p.Name
	if ref.Location != nil {
		if isBlank(name) {
			name = ref.Name
		}
		if isBlank(name) {
			return ""
		}
		return "[symbol " + name + "]"
	}
	if isBlank(name) {
		where := uriPath(p.InlineReference)
		if where == "" {
			where = uriPath(ref.URI)
		}
		if where == "" {
			return ""
		}
		name = path.Base(strings.ReplaceAll(where, "\\", "/"))
	}
	return "[file " + name + "]"
}

// uriPath is a serialized URI's path (fsPath, else path), or a URI given as
// a string.
func uriPath(raw json.RawMessage) string {
	if s, ok := rawString(raw); ok {
		return s
	}
	var u struct {
		FSPath string `json:"fsPath"`
		Path   string `json:"path"`
	}
	if json.Unmarshal(bytes.TrimSpace(raw), &u) != nil {
		return ""
	}
	if u.FSPath != "" {
		return u.FSPath
	}
	return u.Path
}
