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
		desc: "Store one self-contained note (a decision and its reason, a user preference, a non-obvious fact or fix) as a drawer, verbatim. " +
			"It first checks the wing for the same text and for near duplicates that differ only in wording (case, punctuation, word order, an inflection, a typo, a filler word): " +
			"if it finds any it writes nothing and lists them (added: false, reason \"not written: ...\", duplicates) — the memory is already there. " +
			"A close note that differs in anything else (a negation, a number, a date, a version, an environment, a name, any other word such as decrease for increase, " +
			"or the same words in swapped roles) is a correction or another fact: it is written (added: true, reason \"kept: differs from ...\") " +
			"and the older one is listed under updates with what differs (differs, was, now); forget the older one if it is now wrong. " +
			"A note repeating an older one that a newer close note changed since is written again, so the decision said last is the newest. " +
			"Do not store chat, secrets, or what the code and git history already say.",
		idempotent: false, // force writes the same text again
		params: []param{
			{name: "content", kind: kString, required: true, maxLen: ops.MaxTextBytes,
				desc: "The note, verbatim: what, why, and where it applies, readable on its own months later. At most 1 MiB."},
			{name: "wing", kind: kString, maxLen: ops.MaxNameBytes,
				desc: "The wing to file it in. Omit it to use this session's project wing (from --wing or the client's workspace roots); palace_status shows which."},
			{name: "room", kind: kString, maxLen: ops.MaxNameBytes,
				desc: "The room (topic), such as decisions or gotchas. Default \"" + ops.DefaultRoom + "\"."},
			{name: "source", kind: kString, maxLen: ops.MaxSourceBytes,
				desc: "Where the note comes from, shown as its citation: a file path, a URL, an issue. Default \"" + ops.DefaultSource + "\"."},
			{name: "importance", kind: kInteger, min: num(ops.MinImportance), max: num(ops.MaxImportance),
				desc: fmt.Sprintf("%d to %d (default %d); wake-up shows the most important notes first. Use %d for what must never be forgotten.",
					ops.MinImportance, ops.MaxImportance, ops.DefaultImportance, ops.MaxImportance)},
			{name: "force", kind: kBoolean,
				desc: "Write it even if the wing already holds it or a near duplicate. Only when the note really says something new."},
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
		Importance: in.Importance, Force: in.Force})
	if err == nil && res.Added {
		s.changed(statusURI)
	}
	return res, input.Rename(err, map[string]string{"text": "content"})
}
