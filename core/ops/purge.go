package ops

import (
	"context"
	"time"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

// PurgeRequest erases one drawer's content for good. Unlike Forget, the
// text cannot be read again, by id or in an export; what is left is a
// tombstone (id, wing, room, source, times) and the audit line, which
// never held content.
type PurgeRequest struct {
	ID string
}

// Validate names the first bad field.
func (r PurgeRequest) Validate() error { return checkText("id", r.ID) }

// PurgeResult says what happened. Purging a purged drawer is not an error:
// Purged is false, AlreadyPurged true, and nothing changes.
type PurgeResult struct {
	ID            string     `json:"id"`
	Purged        bool       `json:"purged"`
	AlreadyPurged bool       `json:"already_purged,omitempty"`
	PurgedAt      *time.Time `json:"purged_at,omitempty"`
	Wing          string     `json:"wing"`
	Room          string     `json:"room"`
	Kind          string     `json:"kind"`
	Citation      string     `json:"citation"`
	// Notice reminds, for a chunk of a mined file, that the file itself
	// still holds the text: the palace skips that chunk when it mines the
	// file again, but a changed chunk is a new one.
	Notice string `json:"notice,omitempty"`
}

// Purge erases r.ID's content from the drawer, the full-text index, the
// vectors and exports (see store.PurgeDrawer), and keeps a mine from
// writing the same chunk of the same source again. An unknown id is
// ErrNotFound.
func Purge(ctx context.Context, p *palace.Palace, r PurgeRequest) (PurgeResult, error) {
	if err := r.Validate(); err != nil {
		return PurgeResult{ID: r.ID}, err
	}
	d, err := p.Store.GetDrawer(ctx, r.ID)
	if err != nil {
		return PurgeResult{ID: r.ID}, err
	}
	res := PurgeResult{ID: d.ID, Wing: d.Wing, Room: d.Room, Kind: d.Kind, Citation: search.Citation(d)}
	if d.Kind == store.KindFile || d.Kind == store.KindConversation {
		res.Notice = "the source file still holds this text: mining it again skips the purged chunk, " +
			"but an edited chunk is mined as new, so remove the secret from " + d.Source + " too"
	}
	if d.PurgedAt != nil {
		res.AlreadyPurged, res.PurgedAt = true, d.PurgedAt
		return res, nil
	}
	type purged struct {
		at      time.Time
		already bool
	}
	out, err := retryBusy(ctx, "purge "+d.ID, func() (purged, error) {
		at, already, err := p.Store.PurgeDrawer(ctx, d.ID)
		return purged{at, already}, err
	})
	if err != nil {
		return res, err
	}
	res.Purged, res.AlreadyPurged, res.PurgedAt = !out.already, out.already, &out.at
	return res, nil
}

// UnpurgeRequest lets the next mine write a purged chunk again: the user
// asks for it back, from its source file, since the palace no longer has
// it. It is a command-line operation only: an agent must not undo a purge.
type UnpurgeRequest struct {
	ID string
}

// Validate names the first bad field.
func (r UnpurgeRequest) Validate() error { return checkText("id", r.ID) }

// UnpurgeResult names the source the next mine reads again.
type UnpurgeResult struct {
	ID     string `json:"id"`
	Wing   string `json:"wing"`
	Source string `json:"source"`
}

// Unpurge removes a purged drawer's tombstone and marks its source so the
// next mine of the wing reads it again, changed or not. A drawer that is
// not purged, or that was a note or diary entry (nothing mines those), is
// invalid; an unknown id is ErrNotFound.
func Unpurge(ctx context.Context, p *palace.Palace, r UnpurgeRequest) (UnpurgeResult, error) {
	if err := r.Validate(); err != nil {
		return UnpurgeResult{ID: r.ID}, err
	}
	d, err := p.Store.GetDrawer(ctx, r.ID)
	if err != nil {
		return UnpurgeResult{ID: r.ID}, err
	}
	res := UnpurgeResult{ID: d.ID, Wing: d.Wing, Source: d.Source}
	switch {
	case d.PurgedAt == nil:
		return res, input.Invalid("id", "%s is not purged", d.ID)
	case d.Kind != store.KindFile && d.Kind != store.KindConversation:
		return res, input.Invalid("id", "%s was a %s: nothing mines it again (remember it anew instead)", d.ID, d.Kind)
	}
	_, err = retryBusy(ctx, "unpurge "+d.ID, func() (struct{}, error) {
		return struct{}{}, p.Store.UnpurgeDrawer(ctx, d.ID)
	})
	return res, err
}
