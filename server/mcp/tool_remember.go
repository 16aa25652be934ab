package mcp

import (
	"context"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/memory"
)

func toolRemember() *tool {
	return &tool{
		name:  "palace_remember",
		title: "Remember a note",
		desc: "Store one self-contained note (a decision and its reason, a user preference, a non-obvious fact or fix) as a drawer, verbatim. " +
			"It first checks the wing for the same text and for near duplicates: if it finds any it writes nothing and lists them (added: false) — " +
			"that is an answer, not a failure. Do not store chat, secrets, or what the code and git history already say.",
		idempotent: false, // force writes the same text again
		params: []param{
			{name: "content", kind: kString, required: true, maxLen: memory.MaxTextBytes,
				desc: "The note, verbatim: what, why, and where it applies, readable on its own months later. At most 1 MiB."},
			{name: "wing", kind: kString, maxLen: memory.MaxNameBytes,
				desc: "The wing to file it in. Omit it to use this session's project wing (from --wing or the client's workspace roots); palace_status shows which."},
			{name: "room", kind: kString, maxLen: memory.MaxNameBytes,
				desc: "The room (topic), such as decisions or gotchas. Default \"notes\"."},
			{name: "source", kind: kString, maxLen: memory.MaxSourceBytes,
				desc: "Where the note comes from, shown as its citation: a file path, a URL, an issue. Default \"note\"."},
			{name: "importance", kind: kInteger, min: num(memory.MinImportance), max: num(memory.MaxImportance),
				desc: "1 to 5 (default 3); wake-up shows the most important notes first. Use 5 for what must never be forgotten."},
			{name: "force", kind: kBoolean,
				desc: "Write it even if the wing already holds it or something close. Only when the note really says something new."},
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
	if in.Importance == 0 {
		in.Importance = memory.DefaultImportance
	}
	wing, err := s.wing(ctx, in.Wing)
	if err != nil {
		return nil, err
	}
	res, err := memory.Remember(ctx, s.p, memory.Note{Text: in.Content, Wing: wing, Room: in.Room, Source: in.Source,
		Importance: in.Importance}, memory.RememberOptions{Force: in.Force})
	if err == nil && res.Added {
		s.changed(statusURI)
	}
	return res, input.Rename(err, map[string]string{"text": "content"})
}
