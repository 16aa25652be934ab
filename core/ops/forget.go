package ops

import (
	"context"
	"time"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/search"
)

// ForgetRequest removes one drawer from search (a soft delete: the row
// stays readable by id and in exports, for the record). To remove the
// content itself, use Purge.
type ForgetRequest struct {
	ID string
}

// Validate names the first bad field.
func (r ForgetRequest) Validate() error { return checkText("id", r.ID) }

// ForgetResult says what happened. Forgetting a forgotten drawer is not an
// error: Deleted is false, AlreadyDeleted true, and nothing changes.
type ForgetResult struct {
	ID             string     `json:"id"`
	Deleted        bool       `json:"deleted"`
	AlreadyDeleted bool       `json:"already_deleted,omitempty"`
	DeletedAt      *time.Time `json:"deleted_at,omitempty"`
	Wing           string     `json:"wing"`
	Room           string     `json:"room"`
	Citation       string     `json:"citation"`
}

// Forget soft-deletes r.ID. An unknown id is ErrNotFound.
func Forget(ctx context.Context, p *palace.Palace, r ForgetRequest) (ForgetResult, error) {
	if err := r.Validate(); err != nil {
		return ForgetResult{ID: r.ID}, err
	}
	d, err := p.Store.GetDrawer(ctx, r.ID)
	if err != nil {
		return ForgetResult{ID: r.ID}, err
	}
	res := ForgetResult{ID: d.ID, Wing: d.Wing, Room: d.Room, Citation: search.Citation(d)}
	if d.DeletedAt != nil {
		res.AlreadyDeleted, res.DeletedAt = true, d.DeletedAt
		return res, nil
	}
	if _, err := retryBusy(ctx, "forget "+d.ID, func() (struct{}, error) {
		return struct{}{}, p.Store.DeleteDrawer(ctx, d.ID)
	}); err != nil {
		return res, err
	}
	res.Deleted = true
	return res, nil
}
