package memory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// Where checkpoints are filed. A checkpoint is a diary-kind drawer (what a
// session did and left open, as a diary entry says it, so the wake-up's
// recent sessions and open threads read it with the agents' own entries)
// in the session's wing, room CheckpointRoom, its source naming the
// session: one live checkpoint per session, each new one replacing the
// one before.
const (
	CheckpointRoom         = "checkpoints"
	checkpointSourcePrefix = "checkpoint:"
)

// Checkpoint is a session's checkpoint as core/ops files it.
type Checkpoint struct {
	Wing    string
	Session string
	// Agent is the agent that ran the session (claude-code, codex, ...).
	Agent string
	// Prior is the digest of the session's messages before Messages: the
	// last checkpoint's (CheckpointResult.Digest), or none.
	Prior SessionDigest
	// Messages are the session's messages read since. The last one may
	// still grow (an agent writes its turn block by block), so it is in
	// the text but not in the digest kept: the next checkpoint reads it
	// again.
	Messages []SessionMessage
	Options  DigestOptions
	// Reader is where the reader of the session's log goes on next time,
	// kept with the checkpoint; it is the reader's own data, opaque here.
	Reader json.RawMessage
	// At is when the checkpoint is filed; zero means now. Tests set it.
	At time.Time
}

// checkpointMeta is a checkpoint drawer's metadata: what a diary entry
// keeps (the agent), the session and its turns under the keys every
// drawer's provenance uses (store.Provenance), and what the next
// checkpoint of the session goes on from.
type checkpointMeta struct {
	Agent   string           `json:"agent"`
	AgentID string           `json:"agent_id"`
	Session string           `json:"session"`
	Turns   *store.TurnRange `json:"turns,omitempty"`
	Digest  SessionDigest    `json:"digest"`
	Reader  json.RawMessage  `json:"reader,omitempty"`
}

// CheckpointResult says what FileCheckpoint did, or what LastCheckpoint
// found.
type CheckpointResult struct {
	ID      string `json:"id"`
	Wing    string `json:"wing"`
	Room    string `json:"room"`
	Session string `json:"session"`
	Agent   string `json:"agent"`
	// TurnFrom and TurnTo are the human messages the checkpoint covers
	// (1 to the session's count; 0 and 0 before the first).
	TurnFrom int       `json:"turn_from"`
	TurnTo   int       `json:"turn_to"`
	At       time.Time `json:"at"`
	Text     string    `json:"text"`
	// Added is false when the session's checkpoint already said this.
	Added bool `json:"added"`
	// Partial says the session's log was read only in part (it was too
	// long for the time given): the checkpoint covers the turns read, and
	// the next one goes on from there.
	Partial bool `json:"partial,omitempty"`
	// Replaced are the earlier checkpoints of the session this one
	// replaced (removed from search, kept by id).
	Replaced []string `json:"replaced,omitempty"`
	// SavedTurn is the last turn the agent saved something through
	// Palace's tools in, Saved those saves (the latest few); 0 and none:
	// it saved nothing.
	SavedTurn int             `json:"saved_turn,omitempty"`
	Saved     []string        `json:"saved,omitempty"`
	Digest    SessionDigest   `json:"-"`
	Reader    json.RawMessage `json:"-"`
}

// CheckSession validates a session id as checkpoints name it.
func CheckSession(session string) error {
	switch {
	case strings.TrimSpace(session) == "":
		return invalid("session", "is empty")
	case len(session) > store.MaxSessionBytes:
		return invalid("session", "is %d bytes; the limit is %d", len(session), store.MaxSessionBytes)
	}
	return checkLabel("session", session)
}

// Validate checks c's names without touching the palace.
func (c Checkpoint) Validate() error {
	_, _, err := c.normalize()
	return err
}

func (c Checkpoint) normalize() (Checkpoint, string, error) {
	var err error
	if c.Wing, err = checkName("wing", c.Wing, false); err != nil {
		return c, "", err
	}
	if err := CheckSession(c.Session); err != nil {
		return c, "", err
	}
	id, err := AgentID(c.Agent)
	if err != nil {
		return c, "", err
	}
	return c, id, nil
}

// FileCheckpoint files c as the session's checkpoint: a new drawer, then
// the session's earlier checkpoints removed (a crash between the two
// leaves two, which the next checkpoint removes). A checkpoint that says
// what the session's last one says is not filed again (Added false), so
// a hook that runs with nothing new writes nothing.
func FileCheckpoint(ctx context.Context, p *palace.Palace, c Checkpoint) (CheckpointResult, error) {
	c, agentID, err := c.normalize()
	if err != nil {
		return CheckpointResult{}, err
	}
	source := checkpointSourcePrefix + c.Session
	old, err := p.Store.ListDiary(ctx, store.DiaryFilter{Source: source}, 100)
	if err != nil {
		return CheckpointResult{}, fmt.Errorf("checkpoint of %s: %w", c.Session, err)
	}
	keep := c.Prior.Clone()
	n := len(c.Messages)
	if err := keep.Add(c.Messages[:max(0, n-1)], c.Options); err != nil {
		return CheckpointResult{}, err
	}
	view := keep.Clone()
	if err := view.Add(c.Messages[max(0, n-1):], c.Options); err != nil {
		return CheckpointResult{}, err
	}
	text := view.Text(c.Session, c.Agent)
	meta := checkpointMeta{Agent: strings.TrimSpace(c.Agent), AgentID: agentID, Session: c.Session,
		Digest: keep, Reader: c.Reader}
	if view.Turns > 0 {
		meta.Turns = &store.TurnRange{From: 1, To: view.Turns}
	}
	if len(old) > 0 && old[0].Content == text && old[0].Wing == c.Wing {
		if prev, ok := readCheckpoint(old[0]); ok && string(prev.Reader) == string(c.Reader) {
			return withView(prev, view), nil
		}
	}
	mb, err := json.Marshal(meta)
	if err != nil {
		return CheckpointResult{}, fmt.Errorf("checkpoint of %s: %w", c.Session, err)
	}
	idx, err := p.IndexText(text)
	if err != nil {
		return CheckpointResult{}, fmt.Errorf("checkpoint of %s: %w", c.Session, err)
	}
	full, at := stamp(c.At)
	hash := store.ContentHash(text)
	// It happened when the session's last message did (a session filed
	// late, from an old log, is not a recent one), else when it is filed.
	occurred := at
	if !view.End.IsZero() {
		occurred = view.End.UTC().Truncate(time.Second)
	}
	d := store.Drawer{
		ID:   store.DrawerID(c.Wing, source, int(full.UnixNano()), hash),
		Wing: c.Wing, Room: CheckpointRoom, Kind: store.KindDiary, Source: source,
		Content: text, IndexText: idx, ContentHash: hash,
		CreatedAt: at, OccurredAt: occurred, Metadata: string(mb),
	}
	if _, err := p.Store.InsertNote(ctx, d, false); err != nil {
		return CheckpointResult{}, fmt.Errorf("checkpoint of %s: %w", c.Session, err)
	}
	res, _ := readCheckpoint(d)
	res = withView(res, view)
	res.Added = true
	for _, o := range old {
		if o.ID == d.ID {
			continue
		}
		if err := p.Store.DeleteDrawer(ctx, o.ID); err != nil && !gone(ctx, p, o.ID) {
			return res, fmt.Errorf("checkpoint of %s: replace %s: %w", c.Session, o.ID, err)
		}
		res.Replaced = append(res.Replaced, o.ID)
	}
	return res, nil
}

// gone says a drawer that could not be deleted is deleted anyway: another
// hook of the session replaced it first.
func gone(ctx context.Context, p *palace.Palace, id string) bool {
	d, err := p.Store.GetDrawer(ctx, id)
	return errors.Is(err, store.ErrNotFound) || (err == nil && d.DeletedAt != nil)
}

// LastCheckpoint returns the session's live checkpoint, whatever wing it
// was filed in; found is false when the session has none.
func LastCheckpoint(ctx context.Context, p *palace.Palace, session string) (res CheckpointResult, found bool, err error) {
	if err := CheckSession(session); err != nil {
		return res, false, err
	}
	ds, err := p.Store.ListDiary(ctx, store.DiaryFilter{Source: checkpointSourcePrefix + session}, 1)
	if err != nil {
		return res, false, fmt.Errorf("checkpoint of %s: %w", session, err)
	}
	if len(ds) == 0 {
		return res, false, nil
	}
	res, _ = readCheckpoint(ds[0])
	return res, true, nil
}

// readCheckpoint reads a checkpoint drawer; ok is false when its metadata
// cannot be read (the text is still returned, the digest is empty).
func readCheckpoint(d store.Drawer) (CheckpointResult, bool) {
	var m checkpointMeta
	ok := json.Unmarshal([]byte(d.Metadata), &m) == nil
	res := CheckpointResult{ID: d.ID, Wing: d.Wing, Room: d.Room, Session: strings.TrimPrefix(d.Source, checkpointSourcePrefix),
		Agent: m.Agent, At: d.CreatedAt.UTC(), Text: d.Content, Digest: m.Digest, Reader: m.Reader}
	if m.Turns != nil {
		res.TurnFrom, res.TurnTo = m.Turns.From, m.Turns.To
	}
	return withView(res, m.Digest), ok
}

// withView fills in what the agent saved as the text shows it (view
// holds the last message, which the digest kept may not).
func withView(res CheckpointResult, view SessionDigest) CheckpointResult {
	res.SavedTurn, res.Saved = view.SavedTurn(), nil
	for _, l := range view.Saved[max(0, len(view.Saved)-showSaved):] {
		res.Saved = append(res.Saved, l.Text)
	}
	return res
}
