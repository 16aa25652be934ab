package memory

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/dates"
	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/secrets"
	"github.com/palace-dev/palace/core/store"
	"golang.org/x/text/unicode/norm"
)

// Diary defaults and bounds.
const (
	DefaultTopic = "journal"
	// DiaryWingPrefix starts an agent's own wing: "diary-" + its id.
	DiaryWingPrefix = "diary-"
	// diarySourcePrefix starts a diary entry's source, "diary:<agent id>",
	// which is how entries are found again whatever wing they were filed in.
	diarySourcePrefix = "diary:"
	DefaultDiaryLast  = 10
	MaxDiaryLast      = 10000
)

var nonID = regexp.MustCompile(`[^\p{L}\p{N}_.-]+`)

// AgentID is how diaries tell agents apart: the name lower-cased, runs of
// characters other than letters, digits, '_', '.' and '-' turned into '-'
// ("Claude Code" and "claude-code" are one agent). The agent's default
// wing is DiaryWingPrefix + AgentID.
func AgentID(agent string) (string, error) {
	if len(agent) > MaxAgentBytes {
		return "", invalid("agent", "is %d bytes; the limit is %d", len(agent), MaxAgentBytes)
	}
	if err := checkLabel("agent", agent); err != nil {
		return "", err
	}
	if strings.TrimSpace(agent) == "" {
		return "", invalid("agent", "is empty")
	}
	id := strings.Trim(nonID.ReplaceAllString(strings.ToLower(norm.NFC.String(agent)), "-"), "-.")
	if id == "" {
		return "", invalid("agent", "%s has no letter or digit to name it by", quote(agent))
	}
	return id, nil
}

// DiaryEntry is an entry as a front receives it.
type DiaryEntry struct {
	Agent string `json:"agent"`
	Text  string `json:"text"`
	// Topic is the room; "" means DefaultTopic.
	Topic string `json:"topic,omitempty"`
	// Wing defaults to the agent's own wing, DiaryWingPrefix + AgentID.
	Wing string `json:"wing,omitempty"`
	// Provenance is the session the entry was written in, kept in its
	// metadata beside the agent.
	Provenance store.Provenance `json:"provenance,omitzero"`
	// At is when the entry was written; zero means now. Tests set it.
	At time.Time `json:"-"`
}

type diaryEntry struct {
	DiaryEntry
	id string
}

// Validate checks the entry without touching the palace.
func (e DiaryEntry) Validate() error {
	_, err := e.normalize()
	return err
}

func (e DiaryEntry) normalize() (diaryEntry, error) {
	var n diaryEntry
	var err error
	if n.id, err = AgentID(e.Agent); err != nil {
		return n, err
	}
	n.DiaryEntry = e
	n.Agent = strings.TrimSpace(e.Agent)
	if n.Text, err = checkText("text", e.Text); err != nil {
		return n, err
	}
	if n.Topic, err = checkName("topic", e.Topic, true); err != nil {
		return n, err
	}
	if n.Topic == "" {
		n.Topic = DefaultTopic
	}
	if n.Wing, err = checkName("wing", e.Wing, true); err != nil {
		return n, err
	}
	if n.Wing == "" {
		n.Wing = DiaryWingPrefix + n.id
	}
	if field, err := e.Provenance.Check(); err != nil {
		return n, invalid(field, "%v", err)
	}
	return n, nil
}

// DiaryLine is one stored diary entry.
type DiaryLine struct {
	ID      string    `json:"id"`
	Agent   string    `json:"agent"`    // as written
	AgentID string    `json:"agent_id"` // see AgentID
	Wing    string    `json:"wing"`
	Topic   string    `json:"topic"`
	At      time.Time `json:"at"`
	Text    string    `json:"text"`
}

// WriteResult says what WriteDiary did.
type WriteResult struct {
	DiaryLine
	// Added is false only when this very entry (agent, text, instant) was
	// already written: writing it again is a harmless retry.
	Added bool `json:"added"`
	// Redacted lists the kind of each secret replaced by a marker in the
	// entry, in order, as Remember does for notes.
	Redacted []string `json:"redacted"`
	// Proposed are the facts read in the entry, pending review, and
	// Notice what that reading left undone (core/ops reads it after the
	// write).
	Proposed []kg.Proposal `json:"proposed,omitempty"`
	Notice   string        `json:"notice,omitempty"`
}

// diaryMeta is a diary drawer's metadata: whose entry, and the session
// it was written in when known (its keys beside the agent's).
type diaryMeta struct {
	Agent   string `json:"agent"`
	AgentID string `json:"agent_id"`
	store.Provenance
}

// WriteDiary files an entry as a diary drawer: in e.Wing (the agent's own
// wing by default), room e.Topic, stamped with e.At to the second. Secrets
// in the text are redacted first: an agent's journal quotes what it saw.
func WriteDiary(ctx context.Context, p *palace.Palace, e DiaryEntry) (WriteResult, error) {
	n, err := e.normalize()
	if err != nil {
		return WriteResult{}, err
	}
	var found []secrets.Finding
	n.Text, found = secrets.Redact(n.Text)
	full, at := stamp(n.At)
	meta, err := json.Marshal(diaryMeta{Agent: n.Agent, AgentID: n.id, Provenance: n.Provenance})
	if err != nil {
		return WriteResult{}, fmt.Errorf("diary of %s: %w", n.id, err)
	}
	idx, err := p.IndexText(n.Text)
	if err != nil {
		return WriteResult{}, fmt.Errorf("diary of %s: %w", n.id, err)
	}
	source := diarySourcePrefix + n.id
	hash := store.ContentHash(n.Text)
	d := store.Drawer{
		ID:   store.DrawerID(n.Wing, source, int(full.UnixNano()), hash),
		Wing: n.Wing, Room: n.Topic, Kind: store.KindDiary, Source: source,
		Content: n.Text, IndexText: idx, ContentHash: hash,
		CreatedAt: at, OccurredAt: at, Metadata: string(meta),
	}
	existing, err := p.Store.InsertNote(ctx, d, false)
	if err != nil {
		return WriteResult{}, fmt.Errorf("diary of %s: %w", n.id, err)
	}
	return WriteResult{DiaryLine: diaryLine(d), Added: existing == "", Redacted: secrets.Kinds(found)}, nil
}

// DiaryQuery asks for an agent's latest entries.
type DiaryQuery struct {
	Agent string `json:"agent"`
	// Wing narrows to entries filed in one wing; "" reads the agent's
	// entries wherever they were filed.
	Wing string `json:"wing,omitempty"`
	// Last is how many of the latest entries to return; 0 means
	// DefaultDiaryLast.
	Last int `json:"last,omitempty"`
	// Since keeps entries written at or after it: YYYY-MM-DD (that day's
	// start, UTC) or an RFC 3339 time; "" means no bound.
	Since string `json:"since,omitempty"`
}

// DiaryRead is an agent's entries, oldest first, so they read as a journal.
type DiaryRead struct {
	Agent   string      `json:"agent"`
	AgentID string      `json:"agent_id"`
	Entries []DiaryLine `json:"entries"`
	// More is true when older entries matching the query were left out by
	// Last.
	More bool `json:"more"`
}

type diaryQuery struct {
	id, wing string
	last     int
	since    time.Time
}

// Validate checks the query without touching the palace.
func (q DiaryQuery) Validate() error {
	_, err := q.parse()
	return err
}

func (q DiaryQuery) parse() (diaryQuery, error) {
	var n diaryQuery
	var err error
	if n.id, err = AgentID(q.Agent); err != nil {
		return n, err
	}
	if n.wing, err = checkName("wing", q.Wing, true); err != nil {
		return n, err
	}
	switch {
	case q.Last == 0:
		n.last = DefaultDiaryLast
	case q.Last < 0 || q.Last > MaxDiaryLast:
		return n, invalid("last", "%d: want 1 to %d", q.Last, MaxDiaryLast)
	default:
		n.last = q.Last
	}
	if n.since, err = dates.Parse(q.Since, false); err != nil {
		return n, invalid("since", "%s is not a date (%v)", quote(strings.TrimSpace(q.Since)), err)
	}
	return n, nil
}

// ReadDiary returns the agent's latest entries, up to q.Last of them, oldest
// first. An agent with no entries is not an error: Entries is empty.
func ReadDiary(ctx context.Context, p *palace.Palace, q DiaryQuery) (DiaryRead, error) {
	n, err := q.parse()
	if err != nil {
		return DiaryRead{}, err
	}
	ds, err := p.Store.ListDiary(ctx, store.DiaryFilter{Source: diarySourcePrefix + n.id, Wing: n.wing, Since: n.since}, n.last+1)
	if err != nil {
		return DiaryRead{}, fmt.Errorf("diary of %s: %w", n.id, err)
	}
	res := DiaryRead{Agent: strings.TrimSpace(q.Agent), AgentID: n.id, Entries: []DiaryLine{}}
	if len(ds) > n.last {
		ds, res.More = ds[:n.last], true
	}
	for i := len(ds) - 1; i >= 0; i-- {
		l := diaryLine(ds[i])
		res.Entries = append(res.Entries, l)
	}
	// Show the agent's name as its newest entry wrote it.
	if len(ds) > 0 {
		res.Agent = diaryLine(ds[0]).Agent
	}
	return res, nil
}

func diaryLine(d store.Drawer) DiaryLine {
	var m diaryMeta
	// Metadata is written by WriteDiary; an entry whose metadata cannot be
	// read still shows, named by its source.
	if err := json.Unmarshal([]byte(d.Metadata), &m); err != nil || m.AgentID == "" {
		m.AgentID = strings.TrimPrefix(d.Source, diarySourcePrefix)
	}
	if m.Agent == "" {
		m.Agent = m.AgentID
	}
	at := d.OccurredAt
	if at.IsZero() {
		at = d.CreatedAt
	}
	return DiaryLine{ID: d.ID, Agent: m.Agent, AgentID: m.AgentID, Wing: d.Wing, Topic: d.Room, At: at.UTC(), Text: d.Content}
}
