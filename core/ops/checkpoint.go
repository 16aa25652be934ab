package ops

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/palace-dev/palace/core/convo"
	"github.com/palace-dev/palace/core/extract"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/memory"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// CheckpointRoom is the room of the wing checkpoints are filed in.
const CheckpointRoom = memory.CheckpointRoom

// CheckpointRequest asks for a session's checkpoint: a short extractive
// summary of its transcript filed in its wing, replacing the session's
// earlier checkpoint (see memory.SessionDigest).
type CheckpointRequest struct {
	// Transcript is the session's log, an absolute path the caller has
	// checked (the hooks accept only the agent's own folders).
	Transcript string
	// Format is the log's core/convo format; "" detects it.
	Format string
	Wing   string
	// Session is the agent's session id; Agent the agent (claude-code,
	// codex, ...).
	Session string
	Agent   string
	// Root is the session's working folder: files under it are named by
	// their path inside it. "" is the folder the log names, if any.
	Root string
}

// CheckpointResult is the checkpoint as filed (Added) or as it already
// stood.
type CheckpointResult = memory.CheckpointResult

func (r CheckpointRequest) checkpoint() memory.Checkpoint {
	return memory.Checkpoint{Wing: r.Wing, Session: r.Session, Agent: r.Agent}
}

// Validate names the first bad field.
func (r CheckpointRequest) Validate() error {
	switch {
	case r.Transcript == "":
		return input.Invalid("transcript", "is empty")
	case !filepath.IsAbs(r.Transcript):
		return input.Invalid("transcript", "%s is not absolute", input.Quote(r.Transcript))
	}
	return r.checkpoint().Validate()
}

// checkpointReader is where the reader of a session's log goes on: kept
// with the checkpoint (memory.Checkpoint.Reader), so the next one reads
// only what the agent appended. The log's first bytes are hashed to tell
// a log rewritten from one that grew.
type checkpointReader struct {
	Format   string       `json:"format"`
	Resume   convo.Resume `json:"resume"`
	HeadLen  int          `json:"head_len"`
	HeadHash string       `json:"head_hash"`
}

// Checkpoint reading bounds. readerHead is how much of a log's start the
// reader hashes; readerPiece how much of a log is parsed at once (a
// checkpoint reads pieces while its time lasts, so it stops at most a
// piece's parse past it), and foldBatch how many messages it folds between
// looks at the clock.
const (
	readerHead  = 4 << 10
	readerPiece = 1 << 20
	foldBatch   = 64
)

// Checkpoint files the session's checkpoint in r.Wing. A log in a format
// agents append to (Claude Code, Codex, Copilot CLI) is read from where
// the session's last checkpoint stopped, so a checkpoint costs what was
// appended; another is read whole. A log rewritten since (shorter, or
// another start) is read again from its start. When ctx has a deadline,
// the reading takes about a quarter of the time left at most (the caller
// has more to do: a hook mines the transcript after), and a log too long
// for that is read piece by piece: the checkpoint filed covers the turns
// read so far (Partial), and the next one goes on from there. Secrets are
// redacted from everything the checkpoint keeps; a busy palace is waited
// for.
func Checkpoint(ctx context.Context, p *palace.Palace, r CheckpointRequest) (CheckpointResult, error) {
	if err := r.Validate(); err != nil {
		return CheckpointResult{}, err
	}
	prev, found, err := memory.LastCheckpoint(ctx, p, r.Session)
	if err != nil {
		return CheckpointResult{}, err
	}
	var rd checkpointReader
	if found {
		_ = json.Unmarshal(prev.Reader, &rd) // unreadable: read the log again
	}
	f, err := os.Open(r.Transcript)
	if err != nil {
		return CheckpointResult{}, fmt.Errorf("checkpoint: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return CheckpointResult{}, fmt.Errorf("checkpoint: %w", err)
	}
	head := make([]byte, min(fi.Size(), readerHead))
	if _, err := io.ReadFull(f, head); err != nil {
		return CheckpointResult{}, fmt.Errorf("checkpoint: read %s: %w", r.Transcript, err)
	}
	if bytes.IndexByte(head, '\n') < 0 && fi.Size() <= readerHead && filepath.Ext(r.Transcript) == ".jsonl" {
		// Not one whole line yet: nothing to sum up.
		return CheckpointResult{Wing: r.Wing, Room: CheckpointRoom, Session: r.Session, Agent: r.Agent}, nil
	}
	format := r.Format
	if format == "" {
		format = convo.Detect(r.Transcript, head)
	}
	if format == "" {
		return CheckpointResult{}, input.Invalid("transcript", "%s is not a session log Palace reads", input.Quote(r.Transcript))
	}
	c := r.checkpoint()
	if found && rd.Format == format && rd.HeadLen <= len(head) && rd.Resume.Offset <= fi.Size() &&
		rd.HeadHash == store.ContentHash(string(head[:rd.HeadLen])) && convo.Resumable(format) {
		c.Prior = prev.Digest
	} else {
		rd = checkpointReader{Format: format}
	}
	var until time.Time
	if dl, ok := ctx.Deadline(); ok {
		until = time.Now().Add(time.Until(dl) / 4)
	}
	root := r.Root
	partial := false
	for {
		began := time.Now()
		msgs, more, err := readSession(f, r.Transcript, &rd)
		if errors.Is(err, convo.ErrNotResumable) {
			c.Prior, rd = memory.SessionDigest{}, checkpointReader{Format: format}
			msgs, more, err = readSession(f, r.Transcript, &rd)
		}
		if err != nil {
			return CheckpointResult{}, err
		}
		if root == "" {
			root = rd.Resume.Meta["cwd"]
		}
		// Chinese sentences are left to `palace kg extract`: loading the
		// segmenter costs more than a hook may take.
		c.Options = memory.DigestOptions{Root: root, We: r.Wing, Extractor: extract.New(nil)}
		// Every message but the last goes into the digest kept, while
		// time allows (a batch at least, so every run moves on); the
		// first one left out is shown, and read again next time (the
		// last may still grow).
		folded := 0
		for ; folded < len(msgs)-1; folded++ {
			if folded > 0 && folded%foldBatch == 0 && !until.IsZero() && time.Now().After(until) && convo.Resumable(format) {
				break
			}
			if err := c.Prior.Add(sessionMessages(msgs[folded:folded+1]), c.Options); err != nil {
				return CheckpointResult{}, err
			}
		}
		c.Messages = nil
		if folded < len(msgs) {
			c.Messages = sessionMessages(msgs[folded : folded+1])
			if convo.Resumable(format) {
				m := msgs[folded]
				rd.Resume.Offset, rd.Resume.Line, rd.Resume.Index = m.Offset, m.Line-1, m.Index
			}
		}
		// Another piece only when the time left would hold this one's.
		stopped := folded < len(msgs)-1
		if !more || stopped || (!until.IsZero() && time.Until(until) < time.Since(began)) {
			partial = more || stopped
			break
		}
	}
	rd.HeadLen = int(min(int64(len(head)), rd.Resume.Offset))
	rd.HeadHash = store.ContentHash(string(head[:rd.HeadLen]))
	if c.Reader, err = json.Marshal(rd); err != nil {
		return CheckpointResult{}, fmt.Errorf("checkpoint: %w", err)
	}
	// What was read is filed even when the deadline came while reading:
	// it is one short write, and the next checkpoint goes on from it.
	wctx := context.WithoutCancel(ctx)
	res, err := retryBusy(wctx, "checkpoint", func() (CheckpointResult, error) {
		return memory.FileCheckpoint(wctx, p, c)
	})
	res.Partial = partial
	return res, err
}

func sessionMessages(ms []convo.Message) []memory.SessionMessage {
	out := make([]memory.SessionMessage, len(ms))
	for i, m := range ms {
		out[i] = memory.SessionMessage{Role: m.Role, Text: m.Text, Time: m.Time}
	}
	return out
}

// LastCheckpoint returns the session's checkpoint; found is false when it
// has none.
func LastCheckpoint(ctx context.Context, p *palace.Palace, session string) (res CheckpointResult, found bool, err error) {
	return memory.LastCheckpoint(ctx, p, session)
}

// readSession reads the session's messages from where rd stands, at most
// readerPiece bytes of whole lines (more says the log goes on), and moves
// rd to the end of what was read (the caller moves it back to the first
// message it did not fold). A log in a format that cannot be read in parts
// is read whole, rd left at its start.
func readSession(f *os.File, name string, rd *checkpointReader) (msgs []convo.Message, more bool, err error) {
	if !convo.Resumable(rd.Format) {
		data, _, err := readPiece(f, 0, -1)
		if err != nil {
			return nil, false, fmt.Errorf("checkpoint: read %s: %w", name, err)
		}
		cs, err := convo.ParseFormat(rd.Format, name, data)
		if err != nil && !isParseError(err) {
			return nil, false, fmt.Errorf("checkpoint: %s: %w", name, err)
		}
		if len(cs) == 0 {
			return nil, false, nil
		}
		// One session a file; a file of several is summed up by its last.
		return cs[len(cs)-1].Messages, false, nil
	}
	// A piece holding less than two messages is read again twice as
	// long: the first is read again next time, so the reader would not
	// move on.
	var whole []byte
	var conv convo.Conversation
	var next convo.Resume
	for size := int64(readerPiece); ; size *= 2 {
		var data []byte
		if data, more, err = readPiece(f, rd.Resume.Offset, size); err != nil {
			return nil, false, fmt.Errorf("checkpoint: read %s: %w", name, err)
		}
		whole = data[:bytes.LastIndexByte(data, '\n')+1]
		conv, next, err = convo.ParseFrom(rd.Format, name, whole, rd.Resume)
		if errors.Is(err, convo.ErrNotResumable) {
			return nil, false, err
		}
		if err != nil && !isParseError(err) {
			return nil, false, fmt.Errorf("checkpoint: %s: %w", name, err)
		}
		if !more || len(conv.Messages) > 1 {
			break
		}
	}
	at := rd.Resume
	next.Offset, next.Line, next.Index = at.Offset+int64(len(whole)), at.Line+bytes.Count(whole, []byte("\n")), at.Index+len(conv.Messages)
	rd.Resume = next
	return conv.Messages, more, nil
}

// readPiece reads f from offset: size bytes, on to the end of the line
// they stop in (a line longer than a piece, a pasted file, is one
// message), or to the end of the file when it comes first; more says it
// may go on. size < 0 reads it all.
func readPiece(f *os.File, offset int64, size int64) (data []byte, more bool, err error) {
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return nil, false, err
	}
	if size < 0 {
		data, err = io.ReadAll(f)
		return data, false, err
	}
	if data, err = io.ReadAll(io.LimitReader(f, size)); err != nil || int64(len(data)) < size {
		return data, false, err
	}
	if bytes.IndexByte(data, '\n') >= 0 {
		return data, true, nil
	}
	rest, err := bufio.NewReader(f).ReadBytes('\n')
	if err != nil && err != io.EOF {
		return nil, false, err
	}
	return append(data, rest...), err == nil, nil
}

// isParseError says err is a log's bad or cut line: what was read before
// it still counts, as a mine counts it.
func isParseError(err error) bool {
	var pe *convo.ParseError
	return errors.As(err, &pe)
}
