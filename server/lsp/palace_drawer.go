package lsp

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"go.lsp.dev/protocol"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

func init() {
	requests["palace/drawer"] = request{fn: palaceDrawer}
}

// drawerResult is a drawer verbatim with its metadata, as `palace drawer
// show --json` prints it, plus where an editor can open it.
type drawerResult struct {
	ID          string          `json:"id"`
	Wing        string          `json:"wing"`
	Room        string          `json:"room"`
	Kind        string          `json:"kind"`
	Source      string          `json:"source"`
	LineStart   int             `json:"line_start"`
	LineEnd     int             `json:"line_end"`
	Content     string          `json:"content"`
	ContentHash string          `json:"content_hash"`
	CreatedAt   time.Time       `json:"created_at"`
	Time        *time.Time      `json:"time,omitempty"`
	TimeEnd     *time.Time      `json:"time_end,omitempty"`
	Importance  float64         `json:"importance"`
	Metadata    json.RawMessage `json:"metadata"`
	Citation    string          `json:"citation"`
	DeletedAt   *time.Time      `json:"deleted_at,omitempty"`
	URI         string          `json:"uri,omitempty"`
	Range       *protocol.Range `json:"range,omitempty"`
}

// palaceDrawer returns one drawer by id, deleted ones included.
func palaceDrawer(ctx context.Context, s *server, raw json.RawMessage) (any, error) {
	var ps struct {
		ID string `json:"id"`
	}
	if err := decode(raw, &ps); err != nil {
		return nil, err
	}
	if strings.TrimSpace(ps.ID) == "" {
		return nil, input.Invalid("id", "is empty")
	}
	d, err := s.p.Store.GetDrawer(ctx, ps.ID)
	if err != nil {
		return nil, err
	}
	return toDrawer(d), nil
}

func toDrawer(d store.Drawer) drawerResult {
	meta := json.RawMessage(d.Metadata)
	if len(meta) == 0 {
		meta = json.RawMessage("{}")
	}
	r := drawerResult{ID: d.ID, Wing: d.Wing, Room: d.Room, Kind: d.Kind, Source: d.Source,
		LineStart: d.LineStart, LineEnd: d.LineEnd, Content: d.Content, ContentHash: d.ContentHash,
		CreatedAt: d.CreatedAt, Importance: d.Importance, Metadata: meta, Citation: search.Citation(d), DeletedAt: d.DeletedAt}
	if !d.OccurredAt.IsZero() {
		t := d.OccurredAt.UTC()
		r.Time = &t
	}
	if !d.OccurredEnd.IsZero() {
		t := d.OccurredEnd.UTC()
		r.TimeEnd = &t
	}
	r.URI, r.Range = locate(d.Kind, d.Source, d.LineStart, d.LineEnd)
	return r
}
