package memory

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/extract"
	"github.com/palace-dev/palace/core/secrets"
)

// A checkpoint is what a session leaves behind without the agent's help:
// a short extractive summary of its transcript (what the user asked, the
// files the agent touched, the decisions and facts the extractor reads,
// what the agent saved itself, what was left open), filed by the hooks at
// every stop, compaction and session end. Every line of it is text the
// session said, cut; nothing is paraphrased.

// Checkpoint bounds: how much of each part the text shows, and how much
// of it a digest keeps to show later (the digest is folded message by
// message, so what it keeps must stay small whatever the session's length).
const (
	showRequests  = 4 // the first request and the last ones
	showEdited    = 10
	showRead      = 6
	showDecided   = 5
	showSaved     = 4
	showOpen      = 3
	keepFiles     = 200
	keepDecided   = 20
	keepSaved     = 20
	cpLineRunes   = 160
	keepReplyByte = 4 << 10
	// extractBytes bounds the text of one message the extractor reads: a
	// reply that pastes a file holds no decision past its first lines.
	extractBytes = 8 << 10
)

// SessionMessage is one message of a session as a checkpoint reads it.
// Role is "user" for what a person typed, "assistant" for the agent's
// text and tool calls (rendered "[tool_use NAME] INPUT", one per line, as
// core/convo renders them); other roles (tool output, injected context,
// compaction summaries) only move the clock.
type SessionMessage struct {
	Role string
	Text string
	Time time.Time
}

// Roles a SessionMessage reads.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// CheckpointLine is one line a checkpoint quotes, with the turn (the
// ordinal of the human message it belongs to, from 1) it was said in.
type CheckpointLine struct {
	Turn int    `json:"turn"`
	Text string `json:"text"`
}

// FileTouch is a file the agent's tools named: Edited when a tool wrote
// it, Turn the last turn it was touched in.
type FileTouch struct {
	Path   string `json:"path"`
	Edited bool   `json:"edited,omitempty"`
	Turn   int    `json:"turn"`
}

// SessionDigest is a session's checkpoint before it is written out: Add
// folds messages into it in order, so a session that grows is read from
// where the last checkpoint stopped, and Text renders it.
type SessionDigest struct {
	// Turns counts the human messages read.
	Turns int       `json:"turns"`
	Start time.Time `json:"start,omitzero"`
	End   time.Time `json:"end,omitzero"`
	// First is the session's first request, Recent the latest ones.
	First  *CheckpointLine  `json:"first,omitempty"`
	Recent []CheckpointLine `json:"recent,omitempty"`
	// Files, most recently touched last.
	Files []FileTouch `json:"files,omitempty"`
	// Decided are the sentences the extractor read a fact in.
	Decided []CheckpointLine `json:"decided,omitempty"`
	// Saved are the agent's own saves through Palace's tools (notes,
	// diary entries, facts).
	Saved []CheckpointLine `json:"saved,omitempty"`
	// Reply is the agent's last text after the latest request, and
	// Replied says it wrote any: together they say what is still open.
	Reply   string `json:"reply,omitempty"`
	Replied bool   `json:"replied,omitempty"`
}

// DigestOptions say how to read a session's messages.
type DigestOptions struct {
	// Root is the session's working folder: files under it are shown by
	// their path inside it.
	Root string
	// We is who "we" is for the extractor: the session's wing.
	We string
	// Extractor reads decisions and facts; nil reads none.
	Extractor *extract.Extractor
}

// Clone returns a copy of d that Add can change without changing d.
func (d SessionDigest) Clone() SessionDigest {
	c := d
	if d.First != nil {
		f := *d.First
		c.First = &f
	}
	c.Recent = slices.Clone(d.Recent)
	c.Files = slices.Clone(d.Files)
	c.Decided = slices.Clone(d.Decided)
	c.Saved = slices.Clone(d.Saved)
	return c
}

// Add folds ms, the session's next messages, into d. Secrets in what it
// keeps are redacted as they are read.
func (d *SessionDigest) Add(ms []SessionMessage, o DigestOptions) error {
	for _, m := range ms {
		if !m.Time.IsZero() {
			if d.Start.IsZero() {
				d.Start = m.Time.UTC()
			}
			d.End = m.Time.UTC()
		}
		switch m.Role {
		case RoleUser:
			d.Turns++
			d.Reply, d.Replied = "", false
			if req := request(m.Text); req != "" {
				l := CheckpointLine{Turn: d.Turns, Text: req}
				if d.First == nil {
					d.First = &l
				} else {
					d.Recent = append(d.Recent, l)
					d.Recent = d.Recent[max(0, len(d.Recent)-(showRequests-1)):]
				}
			}
			if err := d.decide(m, o); err != nil {
				return err
			}
		case RoleAssistant:
			text := d.tools(m.Text, o.Root)
			if strings.TrimSpace(text) == "" {
				continue
			}
			d.Reply, d.Replied = cutBytes(redact(strings.TrimSpace(text)), keepReplyByte), true
			if err := d.decide(SessionMessage{Text: text, Time: m.Time}, o); err != nil {
				return err
			}
		}
	}
	return nil
}

// decide keeps the sentences of m's text that the extractor reads a fact
// in, each once.
func (d *SessionDigest) decide(m SessionMessage, o DigestOptions) error {
	if o.Extractor == nil {
		return nil
	}
	ps, err := o.Extractor.Extract(extract.Drawer{Text: cutBytes(m.Text, extractBytes), Time: m.Time, We: o.We}, extract.DefaultMinConfidence)
	if err != nil {
		return fmt.Errorf("checkpoint: read decisions: %w", err)
	}
	for _, p := range ps {
		s := cutRunes(oneLine(redact(p.Sentence)), cpLineRunes)
		if slices.ContainsFunc(d.Decided, func(l CheckpointLine) bool { return strings.EqualFold(l.Text, s) }) {
			continue
		}
		d.Decided = append(d.Decided, CheckpointLine{Turn: d.Turns, Text: s})
	}
	d.Decided = d.Decided[max(0, len(d.Decided)-keepDecided):]
	return nil
}

// toolCall is a "[tool_use NAME] INPUT" line.
var toolCall = regexp.MustCompile(`^\[tool_use ([^\]]+)\] ?(.*)$`)

// patchFile is a file an apply_patch input names (Codex's edits).
var patchFile = regexp.MustCompile(`(?m)^\*\*\* (Add|Update|Delete) File: (.+?)\s*$`)

// searchTool names the tools whose path is a folder searched, not a file
// touched; editTool those that write what they name.
var (
	searchTool = regexp.MustCompile(`(?i)grep|glob|search|find|^ls$|list`)
	editTool   = regexp.MustCompile(`(?i)edit|write|patch|create|replace|insert|delete|move|rename`)
)

// fileKeys are the input fields agents' tools name a file in (Claude
// Code's file_path and notebook_path, Gemini's absolute_path, Cursor's
// target_file, and the generic path).
var fileKeys = []string{"file_path", "notebook_path", "absolute_path", "filePath", "target_file", "path"}

// tools records what the tool calls in an assistant message did (files
// touched, Palace saves) and returns the message's text without them and
// without thinking: what the agent said.
func (d *SessionDigest) tools(text, root string) string {
	for _, m := range patchFile.FindAllStringSubmatch(text, -1) {
		d.touch(m[2], true, root)
	}
	var said []string
	// A thinking block, a tool's output or a tool input that is not one
	// line of JSON (an apply_patch) runs on to the next empty line: the
	// blocks of a message are joined by single line breaks, so that is
	// the nearest end the text shows.
	skip := false
	for line := range strings.SplitSeq(text, "\n") {
		if m := toolCall.FindStringSubmatch(line); m != nil {
			skip = !d.tool(m[1], m[2], root)
			continue
		}
		switch {
		case strings.HasPrefix(line, "[thinking]") || strings.HasPrefix(line, "[tool_result"):
			skip = true
		case strings.TrimSpace(line) == "":
			skip = false
			said = append(said, "")
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			// "[image]" and the other block markers
		case !skip:
			said = append(said, line)
		}
	}
	return strings.Join(said, "\n")
}

// tool records one tool call and says whether its input was one line of
// JSON (else it goes on over the next lines, which patchFile has read).
func (d *SessionDigest) tool(name, in, root string) bool {
	var args map[string]any
	if json.Unmarshal([]byte(in), &args) != nil {
		return false
	}
	if kind := palaceSave(name); kind != "" {
		if s := savedLine(kind, args); s != "" {
			d.Saved = append(d.Saved, CheckpointLine{Turn: d.Turns, Text: s})
			d.Saved = d.Saved[max(0, len(d.Saved)-keepSaved):]
		}
		return true
	}
	for _, v := range args {
		if s, ok := v.(string); ok {
			for _, m := range patchFile.FindAllStringSubmatch(s, -1) {
				d.touch(m[2], true, root)
			}
		}
	}
	if searchTool.MatchString(name) {
		return true
	}
	for _, k := range fileKeys {
		if p, ok := args[k].(string); ok && p != "" {
			d.touch(p, editTool.MatchString(name), root)
			break
		}
	}
	return true
}

// palaceSave says which of Palace's saving tools name is ("remember",
// "diary", "kg"), whatever prefix the agent gives MCP tools
// (mcp__palace__palace_remember, palace.palace_remember), or "".
func palaceSave(name string) string {
	for _, k := range []string{"remember", "diary", "kg"} {
		if strings.HasSuffix(name, "palace_"+k) {
			return k
		}
	}
	return ""
}

// savedLine is one save of the agent's, or "" for a call that saves
// nothing (a diary read, a fact query).
func savedLine(kind string, args map[string]any) string {
	str := func(k string) string { s, _ := args[k].(string); return s }
	switch {
	case kind == "remember" && str("text") != "":
		return `note "` + cutRunes(oneLine(redact(str("text"))), 100) + `"`
	case kind == "diary" && str("action") == "write" && str("text") != "":
		return `diary "` + cutRunes(oneLine(redact(str("text"))), 100) + `"`
	case kind == "kg" && str("action") == "add" && str("subject") != "":
		return "fact " + cutRunes(oneLine(redact(str("subject")+" "+str("predicate")+" "+str("object"))), 100)
	}
	return ""
}

// touch records a file; a file touched again moves to the end.
func (d *SessionDigest) touch(path string, edited bool, root string) {
	path = strings.TrimSpace(path)
	if path == "" || strings.ContainsFunc(path, unicode.IsControl) {
		return
	}
	if root != "" && filepath.IsAbs(path) {
		if rel, err := filepath.Rel(root, path); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			path = rel
		}
	}
	path = redact(filepath.ToSlash(filepath.Clean(path)))
	if i := slices.IndexFunc(d.Files, func(f FileTouch) bool { return f.Path == path }); i >= 0 {
		edited = edited || d.Files[i].Edited
		d.Files = slices.Delete(d.Files, i, i+1)
	}
	d.Files = append(d.Files, FileTouch{Path: path, Edited: edited, Turn: d.Turns})
	if len(d.Files) > keepFiles {
		// What was only read goes first: an edit is what the next
		// session needs to know of.
		drop := slices.IndexFunc(d.Files, func(f FileTouch) bool { return !f.Edited })
		if drop < 0 {
			drop = 0
		}
		d.Files = slices.Delete(d.Files, drop, drop+1)
	}
}

// injected are the parts of a human message the agent added: Claude
// Code's system reminders and slash-command wrappers.
var injected = regexp.MustCompile(`(?s)<system-reminder>.*?</system-reminder>|<command-(?:message|args|stdout|stderr)>.*?</command-(?:message|args|stdout|stderr)>|<local-command-std(?:out|err)>.*?</local-command-std(?:out|err)>`)

var commandName = regexp.MustCompile(`<command-name>\s*(.*?)\s*</command-name>`)

// request is what a human message asks, on one line and cut: injected
// context left out, a slash command by its name, an interruption marker
// nothing.
func request(text string) string {
	text = commandName.ReplaceAllString(text, "$1")
	text = strings.TrimSpace(injected.ReplaceAllString(text, ""))
	if strings.HasPrefix(text, "[Request interrupted") {
		return ""
	}
	return cutRunes(oneLine(redact(text)), cpLineRunes)
}

// openCue marks a sentence of the agent's last reply as something left
// to do.
var openCue = regexp.MustCompile(`(?i)\b(?:todo|fixme|tbd|next steps?|still (?:need|needs|have|has|to|fails?|failing)|remaining|left to|not yet|follow[- ]?up|pending|blocked|unresolved|could(?:n't| not)|can(?:'t|not)|did(?:n't| not) get to|open question)\b`)

// Open lists what the session left open, by a rule simple enough to
// check: the latest request when the agent has not answered it yet; else
// the sentences of the agent's last reply that ask the user something
// (end in '?') or name something left to do (openCue), at most showOpen.
func (d SessionDigest) Open() []string {
	if d.Turns == 0 {
		return nil
	}
	if !d.Replied {
		if last := d.lastRequest(); last != nil {
			return []string{last.Text + " (not answered yet)"}
		}
		return nil
	}
	var out []string
	for _, s := range sentences(d.Reply) {
		if strings.HasSuffix(s, "?") || openCue.MatchString(s) {
			out = append(out, cutRunes(s, cpLineRunes))
			if len(out) == showOpen {
				break
			}
		}
	}
	return out
}

func (d SessionDigest) lastRequest() *CheckpointLine {
	if n := len(d.Recent); n > 0 {
		return &d.Recent[n-1]
	}
	return d.First
}

// sentenceEnd ends a sentence: '.', '!' or '?' before a space.
var sentenceEnd = regexp.MustCompile(`[.!?](?:\s+|$)`)

// sentences cuts text at line breaks and sentence ends, leaving out code
// blocks (a reply's code is not a thread) and list markers.
func sentences(text string) []string {
	var out []string
	fence := false
	for line := range strings.SplitSeq(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") {
			fence = !fence
			continue
		}
		if fence || t == "" {
			continue
		}
		t = strings.TrimSpace(strings.TrimLeft(t, "-*•#>0123456789.) "))
		start := 0
		for _, loc := range sentenceEnd.FindAllStringIndex(t, -1) {
			if s := strings.TrimSpace(t[start : loc[0]+1]); s != "" {
				out = append(out, s)
			}
			start = loc[1]
		}
		if s := strings.TrimSpace(t[start:]); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Text is the checkpoint as filed: one part a line, each line text the
// session said (cut), so a search or a wake-up quotes the session itself.
//
//	Asked in turns 1–42: <first request>; …; <latest requests>.
//	Files edited: a.go, b.go; read: c.md.
//	Decisions and facts: <sentence> | <sentence>
//	Saved by the agent: note "…"; fact …
//	Open: <thread>                     (one line each, as wake-up reads them)
//	Session <id> (<agent>), <day> <from> to <to> UTC.
func (d SessionDigest) Text(session, agent string) string {
	var b strings.Builder
	if d.Turns > 0 {
		fmt.Fprintf(&b, "Asked in %s: ", turnRange(1, d.Turns))
		var reqs []string
		if d.First != nil {
			reqs = append(reqs, d.First.Text)
		}
		if d.First != nil && len(d.Recent) > 0 && d.Recent[0].Turn > d.First.Turn+1 {
			reqs = append(reqs, "…")
		}
		for _, r := range d.Recent {
			reqs = append(reqs, r.Text)
		}
		for i, r := range reqs {
			reqs[i] = strings.TrimRight(r, ".")
		}
		if len(reqs) == 0 {
			reqs = append(reqs, "nothing in words")
		}
		line := strings.Join(reqs, "; ")
		if !strings.HasSuffix(line, "?") && !strings.HasSuffix(line, "!") {
			line += "."
		}
		b.WriteString(line + "\n")
	}
	var edited, read []string
	for i := len(d.Files) - 1; i >= 0; i-- {
		f := d.Files[i]
		switch {
		case f.Edited && len(edited) < showEdited:
			edited = append(edited, f.Path)
		case !f.Edited && len(read) < showRead:
			read = append(read, f.Path)
		}
	}
	switch {
	case len(edited) > 0 && len(read) > 0:
		fmt.Fprintf(&b, "Files edited: %s; read: %s.\n", strings.Join(edited, ", "), strings.Join(read, ", "))
	case len(edited) > 0:
		fmt.Fprintf(&b, "Files edited: %s.\n", strings.Join(edited, ", "))
	case len(read) > 0:
		fmt.Fprintf(&b, "Files read: %s.\n", strings.Join(read, ", "))
	}
	if n := len(d.Decided); n > 0 {
		var ss []string
		for _, l := range d.Decided[max(0, n-showDecided):] {
			ss = append(ss, l.Text)
		}
		fmt.Fprintf(&b, "Decisions and facts: %s\n", strings.Join(ss, " | "))
	}
	if n := len(d.Saved); n > 0 {
		var ss []string
		for _, l := range d.Saved[max(0, n-showSaved):] {
			ss = append(ss, l.Text)
		}
		more := ""
		if n > showSaved {
			more = fmt.Sprintf(" (and %d before)", n-showSaved)
		}
		fmt.Fprintf(&b, "Saved by the agent: %s%s.\n", strings.Join(ss, "; "), more)
	}
	for _, o := range d.Open() {
		fmt.Fprintf(&b, "Open: %s\n", o)
	}
	fmt.Fprintf(&b, "Session %s (%s)", session, agent)
	if !d.Start.IsZero() {
		fmt.Fprintf(&b, ", %s %s to %s UTC", d.Start.Format("2006-01-02"), d.Start.Format("15:04"), d.End.Format("15:04"))
		if d.End.Format("2006-01-02") != d.Start.Format("2006-01-02") {
			b.WriteString(" on " + d.End.Format("2006-01-02"))
		}
	}
	b.WriteString(".")
	return b.String()
}

// SavedTurn is the last turn the agent saved something in through
// Palace's tools; 0: never.
func (d SessionDigest) SavedTurn() int {
	if n := len(d.Saved); n > 0 {
		return d.Saved[n-1].Turn
	}
	return 0
}

// turnRange names turns a to b: "turn 3", "turns 1–42".
func turnRange(a, b int) string {
	if a == b {
		return fmt.Sprintf("turn %d", a)
	}
	return fmt.Sprintf("turns %d–%d", a, b)
}

func redact(s string) string {
	out, _ := secrets.Redact(s)
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// cutRunes cuts s to max runes, with '…' when cut.
func cutRunes(s string, max int) string {
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return strings.TrimRightFunc(string(r[:max-1]), unicode.IsSpace) + "…"
}

// cutBytes cuts s to at most max bytes at a rune boundary.
func cutBytes(s string, max int) string {
	if len(s) <= max {
		return s
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return s[:max]
}
