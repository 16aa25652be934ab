package convo

import (
	"errors"
	"fmt"
)

// Resume is a point an append-only session log (Claude Code, Codex,
// Copilot CLI) can be parsed on from, with what the lines before it said.
// Agents only ever append to these logs, so a log mined before needs only
// its new part parsed (see ParseFrom).
type Resume struct {
	// Offset is the byte offset of the line to start at: the first line of
	// a message, or the end of the part read so far.
	Offset int64 `json:"offset"`
	// Line is the number of lines before Offset.
	Line int `json:"line"`
	// Index is the Index of the first message from Offset on.
	Index int `json:"index"`
	// Meta and Title are the session's as read before Offset; as in a whole
	// parse, a value read first stays.
	Meta  map[string]string `json:"meta,omitempty"`
	Title string            `json:"title,omitempty"`
	// Stream says which records a Codex log's messages came from so far:
	// response items, event messages (a log without response items), or
	// "" before its first message.
	Stream string `json:"stream,omitempty"`
}

// Codex message streams (Resume.Stream).
const (
	streamItems  = "items"
	streamEvents = "events"
)

// ErrNotResumable says the part after a resume point changes what was
// parsed before it (a Codex log whose first response item comes after the
// event messages that stood in for them): parse the whole file instead.
var ErrNotResumable = errors.New("convo: the log cannot be parsed on from where it was left: parse it whole")

// Resumable reports whether format's logs can be parsed on with ParseFrom.
// Whole documents (ChatGPT, Claude.ai, Gemini, Slack JSON) and plain-text
// transcripts, whose speaker style is read from the whole file, cannot.
func Resumable(format string) bool {
	return format == FormatClaudeCode || format == FormatCodex || format == FormatCopilotCLI
}

// ParseFrom parses data, the bytes of a log in a Resumable format from
// r.Offset to its end, as the rest of the log r describes. The messages are
// those starting at or after r.Offset, numbered from r.Index, with the
// file's line numbers and offsets; Meta and Title merge r's with the new
// part's. When r.Offset is the start of a message's first line (Message.
// Offset), they are exactly the messages a parse of the whole file has
// from that message on. The Resume returned carries the merged Meta, Title
// and Stream; its Offset, Line and Index are the caller's to set to the
// message it will resume at next.
func ParseFrom(format, name string, data []byte, r Resume) (Conversation, Resume, error) {
	switch format {
	case FormatClaudeCode:
		return parseClaudeCode(name, data, r)
	case FormatCodex:
		return parseCodex(name, data, r)
	case FormatCopilotCLI:
		return parseCopilotCLI(name, data, r)
	}
	return Conversation{}, Resume{}, fmt.Errorf("convo: %s logs cannot be parsed in parts", format)
}

// copyMeta returns a copy of meta the parser may add to.
func copyMeta(meta map[string]string) map[string]string {
	out := make(map[string]string, len(meta))
	for k, v := range meta {
		out[k] = v
	}
	return out
}

// renumber shifts the indexes of messages parsed after index others.
func renumber(ms []Message, base int) {
	for i := range ms {
		ms[i].Index += base
	}
}
