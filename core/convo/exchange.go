package convo

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/chunk"
)

// Exchange is one drawer's worth of a conversation.
type Exchange struct {
	// Text renders each message as "Speaker: text" (just the text when the
	// speaker is unknown), messages joined by a blank line. IndexText is
	// the same with IndexText applied to every message; messages that are
	// nothing but noise are left out of it.
	Text, IndexText   string
	FirstMsg, LastMsg int       // message indexes covered, inclusive
	Speakers          []string  // distinct, in order of appearance
	Start, End        time.Time // earliest and latest message time; zero if none known
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
// of a cut message starts with "Speaker: ", the others are bare
// continuations.
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
	rs := make([]rendering, len(ms))
	for i, m := range ms {
		rs[i].text = render(m.Speaker, m.Text)
		rs[i].size = utf8.RuneCountInString(rs[i].text)
		if t := IndexText(m.Text); t != "" {
			rs[i].index = render(m.Speaker, t)
		}
	}
	var out []Exchange
	for _, g := range groups(ms) {
		out = append(out, pieces(ms[g[0]:g[1]], rs[g[0]:g[1]], o)...)
	}
	return out
}

// rendering is a message as it appears in an exchange, computed once.
type rendering struct {
	text  string // "Speaker: text"
	size  int    // runes in text
	index string // "Speaker: " + IndexText(text), "" when all noise
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
				out = append(out, exchange(ms[i:i+1], []rendering{part}))
			}
			from = i + 1
			continue
		}
		if i > from && n+len(msgSep)+rs[i].size > o.Size {
			flush(i)
		}
		if i > from {
			n += len(msgSep)
		}
		n += rs[i].size
	}
	flush(len(ms))
	return out
}

func exchange(ms []Message, rs []rendering) Exchange {
	e := Exchange{FirstMsg: ms[0].Index, LastMsg: ms[len(ms)-1].Index}
	texts := make([]string, 0, len(rs))
	var idx []string
	for _, r := range rs {
		texts = append(texts, r.text)
		if r.index != "" {
			idx = append(idx, r.index)
		}
	}
	e.Text = strings.Join(texts, msgSep)
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
