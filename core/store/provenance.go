package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode"
)

// MetaUpdates is the drawer metadata key listing the ids of the older
// drawers a note may update (memory.Remember writes it): search and
// wake-up show the newer first.
const MetaUpdates = "updates"

// MaxSessionBytes bounds Provenance.Session: session ids are uuids or
// short names, and it is printed with every item that carries it.
const MaxSessionBytes = 256

// Provenance says where a note, a diary entry or a fact was saved: the
// agent session it came from and, when the caller knows them, the turns
// of that session's transcript. A drawer keeps it in its metadata (the
// keys session and turns), a fact in its provenance column, so an agent
// can tell where a decision was taken.
type Provenance struct {
	// Session names the session: "mcp:<id>" for an MCP connection, the
	// agent's transcript session id for a hook. "" is unknown.
	Session string `json:"session,omitempty"`
	// Turns is the range of the session's turns the item came from,
	// nil when unknown.
	Turns *TurnRange `json:"turns,omitempty"`
}

// TurnRange is a range of a transcript's turns, 1-based and inclusive.
type TurnRange struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// IsZero reports whether nothing is known.
func (p Provenance) IsZero() bool { return p.Session == "" && p.Turns == nil }

// Check says what is wrong with p, naming the field ("session" or
// "turns"), or returns "", nil: a session id on one line of printable
// characters within MaxSessionBytes, a turn range from 1 with its end not
// before its start.
func (p Provenance) Check() (field string, err error) {
	if len(p.Session) > MaxSessionBytes {
		return "session", fmt.Errorf("is %d bytes: at most %d", len(p.Session), MaxSessionBytes)
	}
	for _, r := range p.Session {
		if !unicode.IsPrint(r) || r == unicode.ReplacementChar {
			return "session", fmt.Errorf("holds %q: only printable characters", r)
		}
	}
	if t := p.Turns; t != nil && (t.From < 1 || t.To < t.From) {
		return "turns", fmt.Errorf("%d to %d: want a range from turn 1 on, its end not before its start", t.From, t.To)
	}
	return "", nil
}

// provenanceJSON is p as stored in triples.provenance: NULL when nothing
// is known.
func provenanceJSON(p *Provenance) (any, error) {
	if p == nil || p.IsZero() {
		return nil, nil
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("provenance: %w", err)
	}
	return string(b), nil
}

// ParseProvenance reads a fact's provenance as stored (and exported);
// "" is nil. Unknown keys are refused, so a hand-edited file cannot slip
// other data in.
func ParseProvenance(s string) (*Provenance, error) {
	if s == "" {
		return nil, nil
	}
	var p Provenance
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("provenance %q: %w", s, err)
	}
	return &p, nil
}
