package mcp

import (
	"context"

	"github.com/palace-dev/palace/core/ops"
)

func toolForget() *tool {
	return &tool{
		name:        "palace_forget",
		title:       "Forget a drawer",
		desc:        "Forget a drawer the user wants gone or that is wrong: out of search and wake-up, still readable by id. Audited.",
		destructive: true, idempotent: true,
		params: []param{
			{name: "id", kind: kString, required: true, maxLen: ops.MaxIDBytes,
				desc: "The drawer id (d_...)."},
			{name: "purge", kind: kBoolean,
				desc: "Erase it for good (search, vectors, exports, re-mines): for a secret. Chunks overlap: search again and purge each drawer still holding it."},
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
