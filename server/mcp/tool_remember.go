package mcp

import (
	"context"
	"fmt"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/ops"
)

func toolRemember() *tool {
	return &tool{
		name:  "palace_remember",
		title: "Remember a note",
		desc: "Store one self-contained note verbatim: a decision and its reason, a preference, a non-obvious fact or fix. Not chat, secrets, or what code and git say. " +
			"A reworded duplicate is not written. A close note differing in a word (a negation, number, date, name...) is written, the older listed under updates: palace_forget it if now wrong.",
		idempotent: false, // force writes the same text again
		params: []param{
			{name: "content", kind: kString, required: true, maxLen: ops.MaxTextBytes,
				desc: "What, why and where it applies, readable alone months later."},
			{name: "wing", kind: kString, maxLen: ops.MaxNameBytes,
				desc: "Default this session's project wing."},
			{name: "room", kind: kString, maxLen: ops.MaxNameBytes,
				desc: "The topic, such as decisions (default " + ops.DefaultRoom + ")."},
			{name: "source", kind: kString, maxLen: ops.MaxSourceBytes, full: true,
				desc: "Where the note comes from, shown as its citation: a file path, a URL, an issue. Default \"" + ops.DefaultSource + "\"."},
			{name: "importance", kind: kInteger, min: num(ops.MinImportance), max: num(ops.MaxImportance),
				desc: fmt.Sprintf("Default %d; %d: never forget.", ops.DefaultImportance, ops.MaxImportance)},
			{name: "force", kind: kBoolean,
				desc: "Write despite a duplicate, when it says something new."},
		},
		run: runRemember,
	}
}

type rememberArgs struct {
	Content    string `json:"content"`
	Wing       string `json:"wing"`
	Room       string `json:"room"`
	Source     string `json:"source"`
	Importance int    `json:"importance"`
	Force      bool   `json:"force"`
}

func runRemember(ctx context.Context, s *Server, a args) (any, error) {
	var in rememberArgs
	if err := a.decode(&in); err != nil {
		return nil, err
	}
	// The schema refuses an importance of 0, so 0 here means none given.
	if in.Importance == 0 {
		in.Importance = ops.DefaultImportance
	}
	wing, err := s.wing(ctx, in.Wing)
	if err != nil {
		return nil, err
	}
	res, err := ops.Remember(ctx, s.p, ops.RememberRequest{Text: in.Content, Wing: wing, Room: in.Room, Source: in.Source,
		Importance: in.Importance, Force: in.Force, Provenance: s.provenance(ctx)})
	if err == nil && res.Added {
		s.changed(statusURI)
	}
	return res, input.Rename(err, map[string]string{"text": "content"})
}
