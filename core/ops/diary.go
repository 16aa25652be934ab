package ops

import (
	"context"
	"strings"

	"github.com/palace-dev/palace/core/memory"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/route"
)

// Diary defaults and limits.
const (
	DefaultTopic     = memory.DefaultTopic
	DiaryWingPrefix  = memory.DiaryWingPrefix
	DefaultDiaryLast = memory.DefaultDiaryLast
	MaxDiaryLast     = memory.MaxDiaryLast
	MaxAgentBytes    = memory.MaxAgentBytes
)

// DiaryWriteRequest is a diary entry as every front receives it.
type DiaryWriteRequest struct {
	Agent string // whose diary; see memory.AgentID
	Text  string
	Topic string // the room; "": DefaultTopic
	// Wing "" is the diary wing the agent registry gives the agent, else
	// DefaultWing, else DiaryWingPrefix + the agent's id.
	Wing string
	// DefaultWing is the wing of the caller's session (the project the
	// agent works on: ResolveWing of its MCP root), used when Wing is ""
	// and the agent is not registered (a registered specialist keeps the
	// diary wing the user gave it): the entry lands where the project's
	// next wake-up reads it, and stays the agent's (its metadata and
	// source name the agent).
	DefaultWing string
	// Provenance is the session the entry is written in, when known.
	Provenance Provenance
}

// DiaryWriteResult is the entry as written, with the kinds of secret
// redacted from it.
type DiaryWriteResult = memory.WriteResult

func (r DiaryWriteRequest) entry() memory.DiaryEntry {
	return memory.DiaryEntry{Agent: r.Agent, Text: r.Text, Topic: r.Topic, Wing: r.Wing, Provenance: r.Provenance}
}

// Validate names the first bad field.
func (r DiaryWriteRequest) Validate() error {
	if err := r.entry().Validate(); err != nil {
		return err
	}
	if r.DefaultWing != "" {
		return route.CheckName("default_wing", r.DefaultWing)
	}
	return nil
}

// DiaryWrite files an entry in the agent's diary, secrets redacted, waiting
// for a busy palace.
func DiaryWrite(ctx context.Context, p *palace.Palace, r DiaryWriteRequest) (DiaryWriteResult, error) {
	if err := r.Validate(); err != nil {
		return DiaryWriteResult{}, err
	}
	e := r.entry()
	if strings.Trim(e.Wing, " ") == "" {
		var err error
		if e.Wing, err = memory.RegisteredDiary(ctx, p, e.Agent); err != nil {
			return DiaryWriteResult{}, err
		}
		if e.Wing == "" {
			e.Wing = r.DefaultWing
		}
	}
	res, err := retryBusy(ctx, "diary write", func() (DiaryWriteResult, error) {
		return memory.WriteDiary(ctx, p, e)
	})
	if err == nil && res.Added {
		facts, notice := proposeAfterWrite(ctx, p, "", []string{res.ID}, WriteExtractBudget)
		res.Proposed, res.Notice = facts.Proposals, notice
	}
	return res, err
}

// DiaryReadRequest asks for an agent's latest entries.
type DiaryReadRequest struct {
	Agent string
	// Wing narrows to entries filed in one wing, which must exist; "" reads
	// the agent's entries wherever they were filed.
	Wing string
	Last int // 0: DefaultDiaryLast; at most MaxDiaryLast
	// Since keeps entries written from then on: YYYY-MM-DD (that day's
	// start, UTC) or RFC 3339; "" means no bound.
	Since string
}

// DiaryReadResult is the agent's entries, oldest first.
type DiaryReadResult = memory.DiaryRead

func (r DiaryReadRequest) query() memory.DiaryQuery {
	return memory.DiaryQuery{Agent: r.Agent, Wing: r.Wing, Last: r.Last, Since: r.Since}
}

// Validate names the first bad field.
func (r DiaryReadRequest) Validate() error { return r.query().Validate() }

// DiaryRead returns the agent's latest entries, oldest first. An agent with
// no entries is not an error; a wing the palace does not hold is.
func DiaryRead(ctx context.Context, p *palace.Palace, r DiaryReadRequest) (DiaryReadResult, error) {
	q := r.query()
	if err := q.Validate(); err != nil {
		return DiaryReadResult{Entries: []memory.DiaryLine{}}, err
	}
	// Trimmed as memory trims names.
	if err := checkWing(ctx, p, "wing", strings.Trim(q.Wing, " ")); err != nil {
		return DiaryReadResult{Entries: []memory.DiaryLine{}}, err
	}
	return memory.ReadDiary(ctx, p, q)
}
