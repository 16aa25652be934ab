package mcp

import (
	"context"

	"github.com/palace-dev/palace/core/ops"
)

func toolForget() *tool {
	return &tool{
		name:  "palace_forget",
		title: "Forget or purge a drawer",
		desc: "Forget one drawer by id: it leaves search and wake-up, but stays readable by id with palace_get and is kept in exports, so nothing is lost for good. " +
			"Use it when the user asks, or when a drawer is wrong or outdated. " +
			"With purge: true the drawer's content is erased for good instead: from the drawer (palace_get then shows an empty tombstone), search, vectors and exports, " +
			"and mining the unchanged source again will not bring it back. Use purge for a secret or anything that must not be kept; the result's notice says when the source file still holds the text. " +
			"Both are written to the audit log, without content. Doing either again changes nothing (already_deleted or already_purged).",
		destructive: true, idempotent: true,
		params: []param{
			{name: "id", kind: kString, required: true, maxLen: 200,
				desc: "The drawer id, from a palace_search hit or palace_get."},
			{name: "purge", kind: kBoolean,
				desc: "Erase the content for good instead of only forgetting it: for secrets. It cannot be undone from the palace. Chunks of a file overlap, so search again afterwards and purge each drawer that still holds the text."},
		},
		run: runForget,
	}
}

type forgetArgs struct {
	ID    string `json:"id"`
	Purge bool   `json:"purge"`
}

func runForget(ctx context.Context, s *Server, a args) (any, error) {
	var in forgetArgs
	if err := a.decode(&in); err != nil {
		return nil, err
	}
	if in.Purge {
		res, err := ops.Purge(ctx, s.p, ops.PurgeRequest{ID: in.ID})
		if err != nil {
			return nil, err
		}
		if res.Purged {
			s.changed(statusURI, drawerURI(res.ID))
		}
		return res, nil
	}
	res, err := ops.Forget(ctx, s.p, ops.ForgetRequest{ID: in.ID})
	if err != nil {
		return nil, err
	}
	if res.Deleted {
		s.changed(statusURI, drawerURI(res.ID))
	}
	return res, nil
}
