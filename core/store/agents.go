package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Agent is one entry of the palace's registry of specialist agents
// (SettingAgents): who it is, what it looks after, the wing it works in and
// the wing its diary is filed in. core/memory decides the rules (names,
// defaults, duplicates); the store keeps the list.
type Agent struct {
	Name  string `json:"name"`
	Focus string `json:"focus"`
	// Wing is the wing the agent works in; "" is the whole palace.
	Wing string `json:"wing,omitempty"`
	// Diary is the wing its diary entries are filed in.
	Diary string `json:"diary"`
}

// DecodeAgents reads the registry as stored: a JSON array of agents, with no
// field the store does not know (a newer palace's would be lost on the next
// write).
func DecodeAgents(v string) ([]Agent, error) {
	dec := json.NewDecoder(strings.NewReader(v))
	dec.DisallowUnknownFields()
	var list []Agent
	if err := dec.Decode(&list); err != nil {
		return nil, fmt.Errorf("the agent registry is not a JSON array of agents: %w", err)
	}
	if _, err := dec.Token(); list == nil || err != io.EOF {
		return nil, fmt.Errorf("the agent registry is not one JSON array of agents")
	}
	return list, nil
}

// Agents returns the registry as stored; nil when there is none.
func (s *Store) Agents(ctx context.Context) ([]Agent, error) {
	return agents(ctx, s.r)
}

func agents(ctx context.Context, q querier) ([]Agent, error) {
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, SettingAgents).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read agents: %w", err)
	}
	list, err := DecodeAgents(v)
	if err != nil {
		return nil, fmt.Errorf("read agents: meta %s: %w", SettingAgents, err)
	}
	return list, nil
}

// UpdateAgents replaces the registry with update(current) in one audited
// write, logged as op with the agent's id. An error from update
// is the caller refusing the change (a duplicate, an unknown name): nothing
// is written and, the write not being attempted, nothing is logged.
func (s *Store) UpdateAgents(ctx context.Context, op, id string, update func([]Agent) ([]Agent, error)) error {
	return s.audited(ctx, op, func(tx *sql.Tx, rec *auditRec) error {
		rec.IDs = []string{id}
		cur, err := agents(ctx, tx)
		if err != nil {
			return err
		}
		next, err := update(cur)
		if err != nil {
			rec.Skip = true
			return err
		}
		if next == nil {
			next = []Agent{} // the setting's empty value, never null
		}
		b, err := json.Marshal(next)
		if err != nil {
			return fmt.Errorf("store agents: %w", err)
		}
		if err := putMeta(ctx, tx, SettingAgents, string(b)); err != nil {
			return fmt.Errorf("store agents: %w", err)
		}
		return nil
	})
}
