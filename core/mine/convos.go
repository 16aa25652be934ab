package mine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/chunk"
	"github.com/palace-dev/palace/core/convo"
	"github.com/palace-dev/palace/core/dates"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/secrets"
	"github.com/palace-dev/palace/core/store"
)

// headSize is how much of a file format detection reads.
const headSize = 64 << 10

// ReasonMalformed marks an export that was only partly readable; its valid
// part is mined and the file is listed under errors.
const ReasonMalformed = "malformed"

// detect names the chat-export format of a file, or "" for a project file.
// In auto mode only structured exports count, and only files with a JSON
// extension are opened twice for it.
func (m *miner) detect(c candidate) (string, error) {
	switch m.opts.Mode {
	case ModeProjects:
		return "", nil
	case ModeAuto:
		switch strings.ToLower(filepath.Ext(c.path)) {
		case ".json", ".jsonl", ".ndjson":
		default:
			return "", nil
		}
	}
	f, err := os.Open(c.path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, headSize)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", err
	}
	// In ModeConvos the user said the files are conversations: a short
	// transcript with a single "> " line is one.
	detect := convo.Detect
	if m.opts.Mode == ModeConvos {
		detect = convo.DetectNamed
	}
	format := detect(c.path, head[:n])
	if m.opts.Mode == ModeAuto && format == convo.FormatText {
		return "", nil
	}
	return format, nil
}

// conversation turns one export into drawers, one per exchange.
func (m *miner) conversation(ctx context.Context, c candidate, format, text string, src store.Source) result {
	var convs []convo.Conversation
	var perr error
	if format == convo.FormatSlack {
		users, err := m.slackUsers(filepath.Dir(filepath.Dir(c.path)))
		if err != nil {
			return result{c: c, err: err}
		}
		conv, err := convo.ParseSlackFile(c.path, []byte(text), users)
		perr = err
		if len(conv.Messages) > 0 {
			convs = append(convs, conv)
		}
	} else {
		convs, perr = convo.ParseFormat(format, c.path, []byte(text))
	}
	var problem *Skip
	if perr != nil {
		var pe *convo.ParseError
		if !errors.As(perr, &pe) {
			return result{c: c, skip: &Skip{Path: c.path, Reason: ReasonMalformed, Detail: perr.Error()}}
		}
		problem = &Skip{Path: c.path, Reason: ReasonMalformed, Detail: perr.Error() + " (the valid part was mined)"}
	}
	var found []Redaction
	if src.Redacted {
		for i := range convs {
			var fs []Redaction
			convs[i], fs = redactConversation(convs[i], c.path)
			found = append(found, fs...)
		}
	}
	ds, err := conversationDrawers(ctx, m.p, m.router, m.wing, c.path, convs, m.opts.Chunk, src.Mtime)
	if err != nil {
		return result{c: c, err: err}
	}
	return result{c: c, keep: true, problem: problem, update: &store.SourceUpdate{Source: src, Drawers: ds}, redacted: found, parsed: int64(len(text))}
}

// redactConversation returns conv with the secrets of its title, messages
// and source lines replaced, on copies. A plain-text transcript's drawers
// quote its source lines, and its title and messages are lines of it too:
// each secret is reported once, on its line of the source. In the other
// formats a secret is reported on its message's line in a line-based
// export (0 in a JSON document, and for the title).
func redactConversation(conv convo.Conversation, path string) (convo.Conversation, []Redaction) {
	quoted := len(conv.Source) > 0
	var found, fs []Redaction
	conv.Title, fs = redactText(conv.Title, path, func(int) int { return 0 })
	if !quoted {
		found = fs
	}
	if quoted {
		// Redaction keeps every line where it was, so the messages' line
		// numbers still name the same lines.
		var text string
		text, fs = redactText(strings.Join(conv.Source, "\n"), path, func(line int) int { return line })
		conv.Source = strings.Split(text, "\n")
		found = append(found, fs...)
	}
	ms := make([]convo.Message, len(conv.Messages))
	for i, msg := range conv.Messages {
		msg.Text, fs = redactText(msg.Text, path, func(int) int { return msg.Line })
		if !quoted {
			found = append(found, fs...)
		}
		ms[i] = msg
	}
	conv.Messages = ms
	return conv, found
}

// redactText replaces the secrets of text, found in the file path, and
// reports each on the line that line gives for its line in text.
func redactText(text, path string, line func(int) int) (string, []Redaction) {
	text, fs := secrets.Redact(text)
	if len(fs) == 0 {
		return text, nil
	}
	rs := make([]Redaction, len(fs))
	for i, f := range fs {
		rs[i] = Redaction{Path: path, Kind: f.Kind, Line: line(f.Line)}
	}
	return text, rs
}

// conversationDrawers cuts conversations into exchanges and makes one
// drawer of each: verbatim text, noise-free index text, speakers, message
// range and times in its metadata, the room from the taxonomy or the topic.
func conversationDrawers(ctx context.Context, p *palace.Palace, rt *router, wing, source string, convs []convo.Conversation, o chunk.Options, mtime int64) ([]store.Drawer, error) {
	var ds []store.Drawer
	for ci, conv := range convs {
		key := conv.ID
		if key == "" {
			key = strconv.Itoa(ci)
		}
		exs := convo.Exchanges(conv, o)
		room := rt.routeConversation(exchangeHead("", exs))
		more, err := exchangeDrawers(ctx, p, wing, source, key, room, conv, exs, 0, "", mtime)
		if err != nil {
			return nil, err
		}
		ds = append(ds, more...)
	}
	return ds, nil
}

// exchangeDrawers makes the drawers of exs, the exchanges of conv from
// position pos on, in room; prevIndex is the index text of exchange pos-1
// ("" for the first). It stops when ctx is done: the exchanges of one long
// message are many thousands.
func exchangeDrawers(ctx context.Context, p *palace.Palace, wing, source, key, room string, conv convo.Conversation, exs []convo.Exchange, pos int, prevIndex string, mtime int64) ([]store.Drawer, error) {
	now := time.Now()
	// Exports without per-message times (old Codex logs) still say when
	// the session started; that dates its exchanges.
	started, _ := time.Parse(time.RFC3339Nano, conv.Meta["started_at"])
	ds := make([]store.Drawer, 0, len(exs))
	refers := map[int][]dates.Period{}
	for i, ex := range exs {
		if i%checkEvery == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		h := store.ContentHash(ex.Text)
		// Each exchange is indexed together with the one before it, so a
		// reply such as "yes, ship it" is found by what it answered.
		// (Measured on LoCoMo: turn R_all@10 0.607 -> 0.648.) Only the
		// previous one: an export that grows leaves earlier drawers as
		// they were. The context goes after the exchange's own text, so
		// an embedding model that truncates keeps the exchange itself.
		it := ex.IndexText
		switch {
		case i > 0:
			it = it + "\n" + exs[i-1].IndexText
		case pos > 0:
			it = it + "\n" + prevIndex
		}
		idx, err := p.IndexText(it)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", source, err)
		}
		if idx == "" {
			idx = it
		}
		meta := map[string]any{
			"format": conv.Format, "conversation": key, "title": conv.Title,
			"speakers": ex.Speakers, "first_msg": ex.FirstMsg, "last_msg": ex.LastMsg,
		}
		if rs := referred(conv.Messages, ex, started, refers); len(rs) > 0 {
			meta["refers"] = rs
		}
		for k, v := range conv.Meta {
			if _, taken := meta[k]; !taken {
				meta[k] = v
			}
		}
		mj, _ := json.Marshal(meta)
		d := store.Drawer{
			ID: store.DrawerID(wing, source+"#"+key, pos+i, h), Wing: wing, Room: room,
			Kind: store.KindConversation, Source: source, Content: ex.Text, IndexText: idx,
			ContentHash: h, CreatedAt: now, SourceMtime: mtime, Metadata: string(mj),
			OccurredAt: ex.Start, OccurredEnd: ex.End,
		}
		if d.OccurredAt.IsZero() {
			d.OccurredAt = started
		}
		d.LineStart, d.LineEnd = ex.LineStart, ex.LineEnd
		if d.LineStart == 0 {
			d.LineStart, d.LineEnd = lineRange(conv.Messages, ex.FirstMsg, ex.LastMsg)
		}
		ds = append(ds, d)
	}
	return ds, nil
}

// Conversations files conversations that came from somewhere other than a
// file on disk (a benchmark, an agent hook) under source, exactly as mining
// an export would: same exchanges, drawers and routing, secrets redacted.
// The source's earlier drawers are replaced; unchanged exchanges keep their
// ids.
func Conversations(ctx context.Context, p *palace.Palace, wing, source string, convs []convo.Conversation, o chunk.Options) (store.BatchResult, error) {
	if o.Size == 0 {
		o = chunk.Default
	}
	red := make([]convo.Conversation, len(convs))
	for i, conv := range convs {
		red[i], _ = redactConversation(conv, source)
	}
	convs = red
	rooms, err := p.Store.Taxonomy(ctx, wing)
	if err != nil {
		return store.BatchResult{}, err
	}
	ds, err := conversationDrawers(ctx, p, newRouter(rooms), wing, source, convs, o, 0)
	if err != nil {
		return store.BatchResult{}, err
	}
	var hashes strings.Builder
	for _, d := range ds {
		hashes.WriteString(d.ContentHash)
	}
	src := store.Source{Wing: wing, Path: source, Kind: store.KindConversation, ContentHash: store.ContentHash(hashes.String()), Redacted: true}
	return p.Store.ApplySources(ctx, []store.SourceUpdate{{Source: src, Drawers: ds}})
}

// lineRange is where messages first..last start in a line-based export,
// or 0, 0 for JSON documents. Parsers number messages consecutively, so
// the two are found by position: a search per exchange made a long
// session's mine quadratic.
func lineRange(ms []convo.Message, first, last int) (int, int) {
	at := func(index int) int {
		if len(ms) > 0 {
			if i := index - ms[0].Index; i >= 0 && i < len(ms) && ms[i].Index == index {
				return ms[i].Line
			}
		}
		for _, msg := range ms {
			if msg.Index == index {
				return msg.Line
			}
		}
		return 0
	}
	a, b := at(first), at(last)
	if a == 0 || b == 0 {
		return 0, 0
	}
	return a, b
}

// exchangeHead is the text conversation routing reads: the first
// exchanges, up to contentWindow characters. head is that of the
// exchanges before exs, which it goes on from.
func exchangeHead(head string, exs []convo.Exchange) string {
	var b strings.Builder
	b.WriteString(head)
	for _, ex := range exs {
		if b.Len() > contentWindow*2 {
			break
		}
		b.WriteString(ex.IndexText)
		b.WriteString("\n")
	}
	return b.String()
}

// slackUsers loads users.json of a Slack export once per export folder.
func (m *miner) slackUsers(exportDir string) (map[string]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if u, ok := m.slack[exportDir]; ok {
		return u, nil
	}
	path := filepath.Join(exportDir, "users.json")
	b, err := os.ReadFile(path)
	var users map[string]string
	switch {
	case errors.Is(err, os.ErrNotExist):
		// Without users.json speakers stay user ids; nothing is lost.
	case err != nil:
		return nil, fmt.Errorf("read Slack users %s: %w", path, err)
	default:
		if users, err = convo.LoadSlackUsers(b); err != nil {
			return nil, fmt.Errorf("read Slack users %s: %w", path, err)
		}
	}
	if m.slack == nil {
		m.slack = map[string]map[string]string{}
	}
	m.slack[exportDir] = users
	return users, nil
}

// referred lists the days the messages of ex point to with relative
// expressions ("yesterday", "last Saturday", "two weeks ago"), resolved
// against each message's time (else the session's start), as [from,
// until) date pairs, at most dates.MaxReferred. Search finds a drawer by
// them when a query names a period (store.Filter.Refers): "last
// Saturday", said on 7 November 2022, is 5 November. seen holds each
// message's days by index, computed once: a long message is cut into as
// many exchanges as it has pieces, and scanning it whole again for each
// made its mine quadratic in its length (a 200 KB tool output took 31 s).
func referred(ms []convo.Message, ex convo.Exchange, started time.Time, seen map[int][]dates.Period) [][2]string {
	var out [][2]string
	for _, m := range messagesOf(ms, ex.FirstMsg, ex.LastMsg) {
		ps, ok := seen[m.Index]
		if !ok {
			at := m.Time
			if at.IsZero() {
				at = started
			}
			ps = dates.Referred(m.Text, at)
			seen[m.Index] = ps
		}
		for _, p := range ps {
			r := [2]string{p.From.Format(dates.DateLayout), p.Until.Format(dates.DateLayout)}
			if !slices.Contains(out, r) && len(out) < dates.MaxReferred {
				out = append(out, r)
			}
		}
	}
	return out
}

// messagesOf is the messages of ms numbered first..last. Parsers number
// messages consecutively, so they are found by position; scanning all of
// ms for each exchange would make a long session's mine quadratic.
func messagesOf(ms []convo.Message, first, last int) []convo.Message {
	if len(ms) > 0 {
		a, b := first-ms[0].Index, last-ms[0].Index
		if a >= 0 && a <= b && b < len(ms) && ms[a].Index == first && ms[b].Index == last {
			return ms[a : b+1]
		}
	}
	var out []convo.Message
	for _, m := range ms {
		if m.Index >= first && m.Index <= last {
			out = append(out, m)
		}
	}
	return out
}
