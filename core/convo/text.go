package convo

import (
	"regexp"
	"strings"
)

// Plain-text and Markdown transcripts come in two shapes:
//
//   - Quote style, as Claude Code prints sessions and MemPalace normalizes
//     them: the user's turn is a run of lines starting with ">" (blank lines
//     between quoted lines stay in the turn), the reply is every following
//     line up to the next quoted line. Used when the text has at least
//     minQuoteLines quoted lines (MemPalace's threshold).
//   - Speaker style: a line "Name: text" starts a message, following lines
//     continue it. Used when at least two names each start two or more
//     lines. Common labels ("Note:", "Usage:", "From:") never count as
//     names, and "Name:" with nothing after it counts only for role-like
//     names ("User:", "Assistant:").
//
// Those thresholds are for Detect; ParseText, told that the text is a
// transcript, settles for one quoted line or two distinct speakers.
//
// The style is chosen over the whole text, so message indexes of a growing
// text transcript are stable only while its style stays the same.
//
// Lines inside ``` fences are never turn markers. Text before the first
// marker becomes a message with no speaker. Anything else is one message.
// Message text drops the ">" marker (and one following space) and uses "\n"
// line ends; it is otherwise verbatim (invalid UTF-8 becomes U+FFFD, as it
// does in the JSON formats). Exchanges do not use it: they quote the
// transcript's lines (Conversation.Source) from a message's Line to its
// EndLine, markers and all, so a drawer holds the lines its citation names.

const minQuoteLines = 3

var speakerLine = regexp.MustCompile(`^([\p{L}][\p{L}\p{N} ._'\-]{0,31}):(?:[ \t]+(.*\S.*)|[ \t]*)$`)

// notSpeakers are labels that look like "Name:" but introduce prose.
var notSpeakers = map[string]bool{
	"note": true, "notes": true, "nb": true, "warning": true, "caution": true, "important": true,
	"tip": true, "error": true, "todo": true, "fixme": true, "example": true, "examples": true,
	"usage": true, "summary": true, "output": true, "input": true, "returns": true, "result": true,
	"results": true, "see": true, "source": true, "date": true, "time": true, "subject": true,
	"from": true, "to": true, "cc": true, "title": true, "author": true, "tags": true, "status": true,
	"description": true, "file": true, "path": true, "type": true, "default": true, "name": true,
	"version": true, "http": true, "https": true, "step": true, "update": true, "edit": true,
	"re": true, "fwd": true, "ps": true,
}

// speakerRoles maps role-like speaker names (lower case) to roles.
var speakerRoles = map[string]string{
	"user": RoleUser, "human": RoleUser, "me": RoleUser, "you": RoleUser,
	"assistant": RoleAssistant, "ai": RoleAssistant, "claude": RoleAssistant, "chatgpt": RoleAssistant,
	"gpt": RoleAssistant, "gemini": RoleAssistant, "codex": RoleAssistant, "bot": RoleAssistant,
	"model": RoleAssistant, "system": RoleSystem,
}

type textLine struct {
	text  string // without line ending
	no    int    // 1-based
	fence bool   // inside or delimiting a ``` block
}

func textLines(s string) []textLine {
	raw := strings.Split(s, "\n")
	if len(raw) > 0 && raw[len(raw)-1] == "" {
		raw = raw[:len(raw)-1]
	}
	out := make([]textLine, len(raw))
	in := false
	for i, l := range raw {
		l = strings.TrimSuffix(l, "\r")
		isFence := strings.HasPrefix(strings.TrimSpace(l), "```")
		out[i] = textLine{text: l, no: i + 1, fence: in || isFence}
		if isFence {
			in = !in
		}
	}
	return out
}

func quoteLine(l textLine) bool {
	return !l.fence && strings.HasPrefix(strings.TrimLeft(l.text, " "), ">")
}

func unquote(s string) string {
	s = strings.TrimPrefix(strings.TrimLeft(s, " "), ">")
	return strings.TrimPrefix(s, " ")
}

// speakerOf returns the speaker a line opens, or "".
func speakerOf(l textLine) (name, rest string) {
	if l.fence {
		return "", ""
	}
	m := speakerLine.FindStringSubmatch(l.text)
	if m == nil {
		return "", ""
	}
	name = strings.TrimSpace(m[1])
	low := strings.ToLower(name)
	if notSpeakers[low] || len(strings.Fields(name)) > 3 {
		return "", ""
	}
	if m[2] == "" && speakerRoles[low] == "" {
		return "", ""
	}
	return name, m[2]
}

func hasQuote(ls []textLine) bool {
	for _, l := range ls {
		if quoteLine(l) {
			return true
		}
	}
	return false
}

// textStyle decides how lines are read: 'q' quote, 's' speaker, 0 neither.
// strict applies the thresholds Detect needs to tell transcripts from
// documents; ParseText, told the text is a transcript, settles for one
// quoted line or two distinct speakers.
func textStyle(ls []textLine, strict bool) byte {
	quotes := 0
	counts := map[string]int{}
	for _, l := range ls {
		if quoteLine(l) {
			quotes++
		}
		if n, _ := speakerOf(l); n != "" {
			counts[n]++
		}
	}
	if quotes >= minQuoteLines {
		return 'q'
	}
	frequent := 0
	for _, c := range counts {
		if c >= 2 {
			frequent++
		}
	}
	switch {
	case frequent >= 2:
		return 's'
	case strict:
		return 0
	case quotes > 0:
		return 'q'
	case len(counts) >= 2:
		return 's'
	}
	return 0
}

// ParseText parses a plain-text or Markdown transcript into one
// conversation whose id is name. A leading "# Heading" is the title.
func ParseText(name string, data []byte) Conversation {
	s := strings.ToValidUTF8(string(trimBOM(data)), "\uFFFD")
	ls := textLines(s)
	c := Conversation{ID: name, Format: FormatText, Meta: map[string]string{}, Source: make([]string, len(ls))}
	for i, l := range ls {
		c.Source[i] = l.text
	}
	for _, l := range ls {
		if !isBlank(l.text) {
			if strings.HasPrefix(l.text, "# ") {
				c.Title = strings.TrimSpace(l.text[2:])
			}
			break
		}
	}
	switch textStyle(ls, false) {
	case 'q':
		c.Messages = quoteMessages(ls)
		c.Meta["style"] = "quote"
	case 's':
		c.Messages = speakerMessages(ls)
		c.Meta["style"] = "speaker"
	default:
		c.Messages = appendMsg(nil, block2msg("", RoleUnknown, ls))
	}
	return c
}

// block2msg joins lines into a message trimmed of blank edge lines; Line is
// the first non-blank line, EndLine the last.
func block2msg(speaker, role string, ls []textLine) Message {
	for len(ls) > 0 && isBlank(ls[0].text) {
		ls = ls[1:]
	}
	for len(ls) > 0 && isBlank(ls[len(ls)-1].text) {
		ls = ls[:len(ls)-1]
	}
	if len(ls) == 0 {
		return Message{}
	}
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = l.text
	}
	return Message{Speaker: speaker, Role: role, Text: strings.Join(parts, "\n"), Line: ls[0].no, EndLine: ls[len(ls)-1].no}
}

func quoteMessages(ls []textLine) []Message {
	var ms []Message
	i := 0
	for i < len(ls) && !quoteLine(ls[i]) {
		i++
	}
	ms = appendMsg(ms, block2msg("", RoleUnknown, ls[:i]))
	for i < len(ls) {
		// The user turn: quoted lines, through blank lines that lead to
		// more quoted lines.
		var turn []textLine
		for i < len(ls) {
			if quoteLine(ls[i]) {
				l := ls[i]
				l.text = unquote(l.text)
				turn = append(turn, l)
				i++
				continue
			}
			k := i
			for k < len(ls) && isBlank(ls[k].text) && !ls[k].fence {
				k++
			}
			if k > i && k < len(ls) && quoteLine(ls[k]) {
				turn = append(turn, ls[i:k]...)
				i = k
				continue
			}
			break
		}
		ms = appendMsg(ms, block2msg("user", RoleUser, turn))
		j := i
		for j < len(ls) && !quoteLine(ls[j]) {
			j++
		}
		ms = appendMsg(ms, block2msg("assistant", RoleAssistant, ls[i:j]))
		i = j
	}
	return ms
}

func speakerMessages(ls []textLine) []Message {
	var ms []Message
	cur, role, line := "", RoleUnknown, 0
	var body []textLine
	flush := func() {
		m := block2msg(cur, role, body)
		if line > 0 {
			m.Line = line // the "Name:" line, even when the text starts below it
		}
		ms = appendMsg(ms, m)
	}
	for _, l := range ls {
		name, rest := speakerOf(l)
		if name == "" {
			body = append(body, l)
			continue
		}
		flush()
		cur, role, line = name, speakerRoles[strings.ToLower(name)], l.no
		body = nil
		if rest != "" {
			first := l
			first.text = rest
			body = []textLine{first}
		}
	}
	flush()
	return ms
}
