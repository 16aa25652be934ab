package convo

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/chunk"
)

// Exchange is one drawer's worth of a conversation.
type Exchange struct {
	// Text is what the drawer shows. In a plain-text transcript it is the
	// transcript's lines LineStart..LineEnd, verbatim ("> " markers,
	// "Name:" labels and the blank lines between messages included). In
	// the other formats, which are JSON, it renders each message as
	// "Speaker: text" (just the text when the speaker is unknown),
	// messages joined by a blank line. IndexText renders messages that
	// way in every format, with IndexText applied to each; messages that
	// are nothing but noise are left out of it.
	Text, IndexText   string
	FirstMsg, LastMsg int // message indexes covered, inclusive
	// LineStart and LineEnd are the 1-based lines of a plain-text
	// transcript that Text holds; 0 in the other formats.
	LineStart, LineEnd int
	Speakers           []string  // distinct, in order of appearance
	Start, End         time.Time // earliest and latest message time; zero if none known
}

const msgSep = "\n\n"

// Exchanges cuts a conversation into exchanges of at most o.Size characters
// (runes; o is sanitized as chunk.Split does).
//
// Grouping. When any message has Role "user", an exchange is a user message
// plus everything after it up to the next user message, and the messages
// before the first user message form their own exchange. Otherwise (Slack,
// "Name:" transcripts) consecutive messages are packed greedily, each
// joining the current exchange while the rendering stays within o.Size.
//
// Splitting. A group longer than o.Size is packed greedily at message
// boundaries into pieces of at most o.Size; a single message longer than
// o.Size is cut by chunk.Split (line, then whitespace boundaries, with
// o.Overlap) into pieces that each cover just that message. The first piece
// of a cut message starts with "Speaker: " (in a plain-text transcript, with
// the message's first line), the others are bare continuations. Sizes are
// those of Text: in a plain-text transcript, of the lines quoted.
//
// Stability. Every decision depends only on the messages already seen, so
// the same messages always give the same exchanges, and appending messages
// to a conversation leaves every exchange identical except the last one,
// which may grow (more messages, same start) before new exchanges follow.
// (A first user message arriving late changes nothing before it: messages
// with no user turn are packed exactly as a roleless conversation is.)
// Re-mining a growing session therefore rewrites only its last drawer.
func Exchanges(c Conversation, o chunk.Options) []Exchange {
	if o.Size <= 0 {
		o = chunk.Default
	}
	if o.Overlap < 0 || o.Overlap >= o.Size/2 {
		o.Overlap = o.Size / 8
	}
	ms := c.Messages
	if len(ms) == 0 {
		return nil
	}
	verbatim := quotable(c)
	rs := make([]rendering, len(ms))
	for i, m := range ms {
		r := &rs[i]
		if verbatim {
			r.text = strings.Join(c.Source[m.Line-1:m.EndLine], "\n")
			r.line, r.endLine = m.Line, m.EndLine
			if i > 0 {
				// The blank lines between two messages, as the file has them.
				var sep strings.Builder
				sep.WriteString("\n")
				for _, l := range c.Source[ms[i-1].EndLine : m.Line-1] {
					sep.WriteString(l + "\n")
				}
				r.sep = sep.String()
			}
		} else {
			r.text, r.sep = render(m.Speaker, m.Text), msgSep
		}
		r.size = utf8.RuneCountInString(r.text)
		r.sepSize = utf8.RuneCountInString(r.sep)
		if t := IndexText(m.Text); t != "" {
			r.index = render(m.Speaker, t)
		}
	}
	var out []Exchange
	for _, g := range groups(ms) {
		out = append(out, pieces(ms[g[0]:g[1]], rs[g[0]:g[1]], o)...)
	}
	return out
}

// quotable reports whether c's exchanges can quote its source lines:
// every message knows its lines, in order, within the source.
func quotable(c Conversation) bool {
	if c.Source == nil {
		return false
	}
	prev := 0
	for _, m := range c.Messages {
		if m.Line <= prev || m.EndLine < m.Line || m.EndLine > len(c.Source) {
			return false
		}
		prev = m.EndLine
	}
	return true
}

// rendering is a message as it appears in an exchange, computed once.
type rendering struct {
	text          string // the source lines, or "Speaker: text"
	size          int    // runes in text
	sep           string // what joins it to the message before it
	sepSize       int    // runes in sep
	index         string // "Speaker: " + IndexText(text), "" when all noise
	line, endLine int    // the source lines text is; 0 when rendered
}

func render(speaker, text string) string {
	if speaker == "" {
		return text
	}
	return speaker + ": " + text
}

// groups returns [from, to) message ranges: one per user turn (plus the
// messages before the first), or the whole conversation when nobody is a
// user, which pieces then packs by size.
func groups(ms []Message) [][2]int {
	var out [][2]int
	from := 0
	for i := range ms {
		if i > from && ms[i].Role == RoleUser {
			out = append(out, [2]int{from, i})
			from = i
		}
	}
	return append(out, [2]int{from, len(ms)})
}

// pieces splits one group into exchanges of at most o.Size.
func pieces(ms []Message, rs []rendering, o chunk.Options) []Exchange {
	var out []Exchange
	from, n := 0, 0
	flush := func(to int) {
		if to > from {
			out = append(out, exchange(ms[from:to], rs[from:to]))
		}
		from, n = to, 0
	}
	for i := range ms {
		if rs[i].size > o.Size {
			flush(i)
			for _, ch := range chunk.Split(rs[i].text, o) {
				// Index text per piece: the message's own would repeat
				// the whole message in every piece.
				part := rendering{text: ch.Text, index: IndexText(ch.Text)}
				if rs[i].line > 0 {
					part.line, part.endLine = rs[i].line+ch.LineStart-1, rs[i].line+ch.LineEnd-1
				}
				out = append(out, exchange(ms[i:i+1], []rendering{part}))
			}
			from = i + 1
			continue
		}
		if i > from && n+rs[i].sepSize+rs[i].size > o.Size {
			flush(i)
		}
		if i > from {
			n += rs[i].sepSize
		}
		n += rs[i].size
	}
	flush(len(ms))
	return out
}

func exchange(ms []Message, rs []rendering) Exchange {
	e := Exchange{FirstMsg: ms[0].Index, LastMsg: ms[len(ms)-1].Index,
		LineStart: rs[0].line, LineEnd: rs[len(rs)-1].endLine}
	var text strings.Builder
	var idx []string
	for i, r := range rs {
		if i > 0 {
			text.WriteString(r.sep)
		}
		text.WriteString(r.text)
		if r.index != "" {
			idx = append(idx, r.index)
		}
	}
	e.Text = text.String()
	e.IndexText = strings.Join(idx, msgSep)
	seen := map[string]bool{}
	for _, m := range ms {
		if m.Speaker != "" && !seen[m.Speaker] {
			seen[m.Speaker] = true
			e.Speakers = append(e.Speakers, m.Speaker)
		}
		if !m.Time.IsZero() {
			if e.Start.IsZero() || m.Time.Before(e.Start) {
				e.Start = m.Time
			}
			if m.Time.After(e.End) {
				e.End = m.Time
			}
		}
	}
	return e
}
