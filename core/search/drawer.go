package search

import (
	"encoding/json"
	"time"

	"github.com/palace-dev/palace/core/store"
)

// Drawer is one drawer verbatim with its metadata, as every front shows it
// (`palace drawer show --json`, palace_get, palace/drawer).
type Drawer struct {
	ID          string          `json:"id"`
	Wing        string          `json:"wing"`
	Room        string          `json:"room"`
	Kind        string          `json:"kind"`
	Source      string          `json:"source"`
	LineStart   int             `json:"line_start"`
	LineEnd     int             `json:"line_end"`
	Citation    string          `json:"citation"`
	Content     string          `json:"content"`
	ContentHash string          `json:"content_hash"`
	CreatedAt   time.Time       `json:"created_at"`
	Time        *time.Time      `json:"time,omitempty"`     // when the content happened
	TimeEnd     *time.Time      `json:"time_end,omitempty"` // end of a conversation's range
	Importance  float64         `json:"importance"`
	Metadata    json.RawMessage `json:"metadata"`
	DeletedAt   *time.Time      `json:"deleted_at,omitempty"`
	// PurgedAt is set when the content was erased (the drawer is then a
	// tombstone: Content and Metadata are empty).
	PurgedAt *time.Time `json:"purged_at,omitempty"`
}

// DrawerOf shapes a stored drawer for output.
func DrawerOf(d store.Drawer) Drawer {
	meta := json.RawMessage(d.Metadata)
	if !json.Valid(meta) {
		meta = json.RawMessage("{}")
	}
	return Drawer{ID: d.ID, Wing: d.Wing, Room: d.Room, Kind: d.Kind, Source: d.Source,
		LineStart: d.LineStart, LineEnd: d.LineEnd, Citation: Citation(d), Content: d.Content,
		ContentHash: d.ContentHash, CreatedAt: d.CreatedAt, Time: optTime(d.OccurredAt), TimeEnd: optTime(d.OccurredEnd),
		Importance: d.Importance, Metadata: meta, DeletedAt: d.DeletedAt, PurgedAt: d.PurgedAt}
}
