package mcp

import (
	"context"
	"time"

	"github.com/palace-dev/palace/core/search"
)

func toolForget() *tool {
	return &tool{
		name:  "palace_forget",
		title: "Forget a drawer",
		desc: "Remove one drawer from search by id. The removal is written to the audit log and the drawer stays readable by id with palace_get, " +
			"so nothing is lost for good. Use it when the user asks, or when a drawer is wrong or holds a secret. Forgetting an already forgotten drawer changes nothing.",
		destructive: true, idempotent: true,
		params: []param{
			{name: "id", kind: kString, required: true, maxLen: 200,
				desc: "The drawer id, from a palace_search hit or palace_get."},
		},
		run: runForget,
	}
}

type forgetResult struct {
	ID       string `json:"id"`
	Deleted  bool   `json:"deleted"`
	Wing     string `json:"wing"`
	Room     string `json:"room"`
	Citation string `json:"citation"`
	// AlreadyDeleted: the drawer was forgotten before; nothing changed.
	AlreadyDeleted bool       `json:"already_deleted,omitempty"`
	DeletedAt      *time.Time `json:"deleted_at,omitempty"`
}

func runForget(ctx context.Context, s *Server, a args) (any, error) {
	var in struct {
		ID string `json:"id"`
	}
	if err := a.decode(&in); err != nil {
		return nil, err
	}
	d, err := s.p.Store.GetDrawer(ctx, in.ID)
	if err != nil {
		return nil, err
	}
	res := forgetResult{ID: d.ID, Wing: d.Wing, Room: d.Room, Citation: search.Citation(d)}
	// A second forget is a no-op answer, not an error, so the tool is
	// idempotent as its annotation says.
	if d.DeletedAt != nil {
		res.AlreadyDeleted, res.DeletedAt = true, d.DeletedAt
		return res, nil
	}
	if err := s.p.Store.DeleteDrawer(ctx, d.ID); err != nil {
		return nil, err
	}
	res.Deleted = true
	s.changed(statusURI, drawerURI(d.ID))
	return res, nil
}
