package mine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/convo"
	"github.com/palace-dev/palace/core/store"
)

// pieceBytes is how much of an append-only session log one transaction
// mines: a long session is stored piece by piece, in order, so a mine cut
// short (an agent hook's deadline, an interrupt) keeps every piece it
// committed and the next one goes on from there. A piece takes about a
// tenth of a second, which is how far a mine overruns a deadline.
const pieceBytes = 256 << 10

// checkpoint is where the next mine of an append-only session log (Claude
// Code, Codex) goes on, kept as the source's resume JSON. The drawers
// before Position are final: appending to a log changes only its last
// exchange (see convo.Exchanges), so the next mine parses from the first
// line of that exchange's first message (Resume.Offset) and replaces only
// the drawers from there on.
type checkpoint struct {
	convo.Resume
	Format string `json:"format"`
	// End is how much of the log was read: whole lines, up to the start
	// of a last line still being written.
	End int64 `json:"end"`
	// Head hashes the log's first min(End, headSize) bytes and Tail its
	// bytes Offset..End: a log whose start or last exchange changed was
	// rewritten, not appended to, and is mined whole again.
	Head string `json:"head"`
	Tail string `json:"tail"`
	// Key is the conversation's key in its drawer ids, Position the
	// position of the first drawer from Offset on.
	Key      string `json:"key"`
	Position int    `json:"position"`
	// Room is the conversation's room, RouteHead the routing text of the
	// exchanges before Position (exchangeHead), PrevIndex the index text
	// of the exchange before Position: what the drawers from Position on
	// need of the exchanges before it.
	Room      string `json:"room"`
	RouteHead string `json:"route_head,omitempty"`
	PrevIndex string `json:"prev_index,omitempty"`
	// Drawers are the ids of the drawers from Position on, which the next
	// mine replaces; Total counts all the log's drawers.
	Drawers []string `json:"drawers"`
	Total   int      `json:"total"`
}

// errRewritten says a log cannot be mined on from its checkpoint: it is
// mined whole instead, which gives what a first mine gives.
var errRewritten = errors.New("not a continuation of what was mined")

// piece is one parsed part of a log, ready to write.
type piece struct {
	drawers  []store.Drawer
	next     checkpoint
	problem  *convo.ParseError
	redacted []Redaction
}

// logPiece mines data, the log's bytes from cp.Offset on, on from cp.
// head is the log's first bytes (up to headSize). A part that changes
// what was mined before (a new conversation key, a new room for drawers
// already filed, a Codex log changing message stream) gives errRewritten.
func (m *miner) logPiece(ctx context.Context, c candidate, format string, cp checkpoint, data, head []byte, redact bool, mtime int64) (piece, error) {
	// Only whole lines count as read: a last line still being written is
	// read again next time.
	end := cp.Offset + int64(bytes.LastIndexByte(data, '\n')+1)
	conv, next, err := convo.ParseFrom(format, c.path, data, cp.Resume)
	var pe *convo.ParseError
	switch {
	case errors.Is(err, convo.ErrNotResumable):
		return piece{}, errRewritten
	case err != nil && !errors.As(err, &pe):
		return piece{}, fmt.Errorf("%s: %w", c.path, err)
	}
	var p piece
	p.problem = pe
	if redact {
		conv, p.redacted = redactConversation(conv, c.path)
	}
	filed := cp.Position > 0 || len(cp.Drawers) > 0
	key := conv.ID
	if key == "" {
		key = "0" // as conversationDrawers keys a single conversation without id
	}
	if filed && key != cp.Key {
		return piece{}, errRewritten
	}
	exs := convo.Exchanges(conv, m.opts.Chunk)
	room := m.router.routeConversation(exchangeHead(cp.RouteHead, exs))
	if filed && room != cp.Room {
		return piece{}, errRewritten
	}
	if p.drawers, err = exchangeDrawers(ctx, m.p, m.wing, c.path, key, room, conv, exs, cp.Position, cp.PrevIndex, mtime); err != nil {
		return piece{}, err
	}
	// The next mine starts at the last exchange's first message (at the
	// first piece of it when it was cut), or at the end when there is no
	// message yet.
	n := cp
	n.Resume, n.Key, n.Room, n.End = next, key, room, end
	n.Head = store.ContentHash(string(head[:min(end, int64(len(head)))]))
	n.Total = cp.Position + len(p.drawers)
	n.Offset, n.Line, n.Index, n.Drawers = end, cp.Line+bytes.Count(data, []byte("\n")), cp.Index, []string{}
	if len(exs) > 0 {
		first := exs[len(exs)-1].FirstMsg
		at := len(exs) - 1
		for at > 0 && exs[at-1].FirstMsg == first {
			at--
		}
		msg := conv.Messages[first-conv.Messages[0].Index]
		n.Offset, n.Line, n.Index = msg.Offset, msg.Line-1, first
		n.Position = cp.Position + at
		n.RouteHead = exchangeHead(cp.RouteHead, exs[:at])
		if at > 0 {
			n.PrevIndex = exs[at-1].IndexText
		}
		for _, d := range p.drawers[at:] {
			n.Drawers = append(n.Drawers, d.ID)
		}
	}
	n.Tail = store.ContentHash(string(data[n.Offset-cp.Offset : n.End-cp.Offset]))
	p.next = n
	return p, nil
}

// wholeLog mines a log read whole (text, size bytes as on disk) and records
// where the next mine goes on.
func (m *miner) wholeLog(ctx context.Context, c candidate, format, text string, src store.Source) result {
	data := []byte(text)
	if int64(len(data)) != src.Size || bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return m.conversation(ctx, c, format, text, src) // decoded: offsets are not the file's
	}
	p, err := m.logPiece(ctx, c, format, checkpoint{Format: format}, data, data[:min(len(data), headSize)], src.Redacted, src.Mtime)
	if err != nil {
		return result{c: c, err: err}
	}
	src.Resume = p.next.encode()
	return m.pieceResult(c, p, src, false, false, nil, int64(len(data)))
}

// pieceResult turns a mined piece into what the writer commits.
func (m *miner) pieceResult(c candidate, p piece, src store.Source, more, appending bool, drop []string, parsed int64) result {
	r := result{c: c, keep: true, more: more, parsed: parsed, redacted: p.redacted,
		update: &store.SourceUpdate{Source: src, Drawers: p.drawers, Append: appending, Drop: drop}}
	if appending {
		r.update.Source.Drawers = p.next.Total
	}
	if p.problem != nil {
		r.problem = &Skip{Path: c.path, Reason: ReasonMalformed, Detail: p.problem.Error() + " (the valid part was mined)"}
	}
	return r
}

func (cp checkpoint) encode() string {
	b, _ := json.Marshal(cp)
	return string(b)
}

// resumeLog mines an append-only session log on from its checkpoint, or a
// log never mined from its start, piece by piece: each piece is sent as its
// own update, in order, and ctx is checked between pieces. It reports false
// when the log must be mined whole instead (rewritten, never mined this
// way, or not plain UTF-8 JSONL); pieces sent before that are then replaced
// by the whole mine.
func (m *miner) resumeLog(ctx context.Context, c candidate, format string, src store.Source, emit func(result)) bool {
	prev, known := m.known[c.path]
	var cp checkpoint
	switch {
	case known && prev.Resume != "" && prev.Redacted == src.Redacted:
		if err := json.Unmarshal([]byte(prev.Resume), &cp); err != nil || cp.Format != format {
			return false
		}
	case !known || prev.Drawers == 0:
		cp = checkpoint{Format: format, Drawers: []string{}}
	default:
		return false // mined before resume points, or in the other secrets mode
	}
	f, err := os.Open(c.path)
	if err != nil {
		return false
	}
	defer f.Close()
	size := src.Size
	if cp.End > size || cp.Offset > cp.End {
		return false
	}
	head := make([]byte, min(size, headSize))
	if _, err := f.ReadAt(head, 0); err != nil {
		return false
	}
	// What the whole mine's decoding would change or refuse is left to it.
	if bytes.HasPrefix(head, []byte("\xef\xbb\xbf")) || bytes.HasPrefix(head, []byte{0xFF, 0xFE}) ||
		bytes.HasPrefix(head, []byte{0xFE, 0xFF}) || binary(head) != nil {
		return false
	}
	if cp.End > 0 {
		if store.ContentHash(string(head[:min(cp.End, headSize)])) != cp.Head {
			return false
		}
		tail := make([]byte, cp.End-cp.Offset)
		if _, err := f.ReadAt(tail, cp.Offset); err != nil || store.ContentHash(string(tail)) != cp.Tail {
			return false
		}
	}
	seen := map[Redaction]bool{}
	reported := false
	from := cp.End // where the last mine stopped reading
	for {
		if ctx.Err() != nil {
			return true // the writer reports the interruption
		}
		data, final, err := readPiece(f, cp.Offset, from, size)
		if err != nil || !utf8.Valid(data) {
			return false
		}
		p, err := m.logPiece(ctx, c, format, cp, data, head, src.Redacted, src.Mtime)
		if errors.Is(err, errRewritten) {
			return false
		}
		if err != nil {
			emit(result{c: c, err: err})
			return true
		}
		if !final && len(p.next.RouteHead) <= contentWindow*2 {
			// The exchanges before the resume point do not yet fill the
			// head routing reads, so the next piece could move the
			// conversation to another room, and the whole log would be
			// mined again (a short prompt, then a long tool output). Read
			// on, twice as far each time, so a log of lines without
			// messages is still read in time linear in its length.
			from = cp.Offset + 2*int64(len(data))
			continue
		}
		// Pieces overlap by the exchange each goes on from: report each
		// secret and the first parse problem once.
		var found []Redaction
		for _, r := range p.redacted {
			if !seen[r] {
				seen[r] = true
				found = append(found, r)
			}
		}
		p.redacted = found
		if reported {
			p.problem = nil
		}
		reported = reported || p.problem != nil
		piecesrc := src
		piecesrc.Resume, piecesrc.ContentHash = p.next.encode(), p.next.Tail
		if !final {
			// Not yet the whole file: the next mine must not take it as
			// unchanged.
			piecesrc.Size = p.next.End
		}
		emit(m.pieceResult(c, p, piecesrc, !final, true, cp.Drawers, int64(len(data))))
		if final {
			return true
		}
		cp, from = p.next, p.next.End
	}
}

// readPiece reads f from off, where the last mine went on from, to about
// pieceBytes past from, where it stopped reading: whole lines, or to size
// (final) when that is near. A line longer than a piece is read whole, with
// up to pieceBytes of the lines after it; looking for its end, each part is
// read once, in parts of growing size: reading the whole buffer again for
// each further 256 KB made a 10 MB line cost 40 reads of up to 10 MB.
func readPiece(f *os.File, off, from, size int64) (data []byte, final bool, err error) {
	read := func(to int64) error {
		have := off + int64(len(data))
		if to = min(to, size); to <= have {
			return nil
		}
		data = append(data, make([]byte, to-have)...)
		if _, err := f.ReadAt(data[have-off:], have); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		return nil
	}
	limit := from + pieceBytes
	next := from - off // where the search for the first line end past from goes on
	for {
		if err := read(limit); err != nil {
			return nil, false, err
		}
		if limit >= size && next == from-off {
			return data, true, nil // the rest is less than a piece
		}
		nl := bytes.IndexByte(data[next:], '\n')
		if nl < 0 {
			if limit >= size {
				return data, true, nil
			}
			next = int64(len(data))
			limit += max(pieceBytes, limit-off)
			continue
		}
		if end := off + next + int64(nl); end >= from+pieceBytes {
			// A long line: the piece goes on to about pieceBytes past it.
			limit = end + 1 + pieceBytes
			if err := read(limit); err != nil {
				return nil, false, err
			}
			if limit >= size {
				return data, true, nil
			}
		}
		cut := bytes.LastIndexByte(data[from-off:limit-off], '\n')
		return data[:from-off+int64(cut)+1], false, nil
	}
}
