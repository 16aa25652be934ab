package mcp

import (
	"context"
	"fmt"

	"github.com/palace-dev/palace/core/ops"
)

const (
	diaryWrite = "write"
	diaryRead  = "read"
)

func toolDiary() *tool {
	return &tool{
		name:  "palace_diary",
		title: "Agent diary",
		desc: "Your own dated journal, kept across sessions. action write adds an entry: at the end of a task or session, and before context is compacted, " +
			"note what you did, what is left and what to watch out for. action read returns your latest entries, oldest first, at the start of a session. " +
			"Entries go to your own wing (diary-<agent>, or the diary wing palace_status lists for you as a registered agent) unless wing names another.",
		idempotent: false, // each write is a new entry
		params: []param{
			{name: "action", kind: kString, required: true, enum: []string{diaryWrite, diaryRead},
				desc: "write: add an entry (needs text); read: your latest entries, oldest first."},
			{name: "agent", kind: kString, maxLen: ops.MaxAgentBytes,
				desc: "Whose diary. Omit it to use your client's name (as it introduced itself to the server); give the same name every session."},
			{name: "text", kind: kString, maxLen: ops.MaxTextBytes, actions: []string{diaryWrite}, requiredFor: []string{diaryWrite},
				desc: "The entry, verbatim, in plain prose."},
			{name: "topic", kind: kString, maxLen: ops.MaxNameBytes, actions: []string{diaryWrite},
				desc: "The entry's topic, filed as its room (default \"" + ops.DefaultTopic + "\")."},
			{name: "wing", kind: kString, maxLen: ops.MaxNameBytes,
				desc: "write: file the entry in this wing instead of your own diary wing. read: only entries filed in this wing, which must exist (default: wherever they were filed)."},
			{name: "last", kind: kInteger, min: num(1), max: num(ops.MaxDiaryLast), actions: []string{diaryRead},
				desc: fmt.Sprintf("How many of the latest entries to return (default %d).", ops.DefaultDiaryLast)},
			{name: "since", kind: kString, maxLen: 64, actions: []string{diaryRead},
				desc: "Only entries written from this time on: YYYY-MM-DD (that day's start, UTC) or RFC 3339."},
		},
		run: runDiary,
	}
}

type diaryArgs struct {
	Action string `json:"action"`
	Agent  string `json:"agent"`
	Text   string `json:"text"`
	Topic  string `json:"topic"`
	Wing   string `json:"wing"`
	Last   int    `json:"last"`
	Since  string `json:"since"`
}

func runDiary(ctx context.Context, s *Server, a args) (any, error) {
	var in diaryArgs
	if err := a.decode(&in); err != nil {
		return nil, err
	}
	if in.Agent == "" {
		if in.Agent = clientName(ctx); in.Agent == "" {
			return nil, invalidf("agent", "is needed: your client did not give its name, so pass \"agent\" (the same name every session)")
		}
	}
	if in.Action == diaryWrite {
		res, err := ops.DiaryWrite(ctx, s.p, ops.DiaryWriteRequest{Agent: in.Agent, Text: in.Text, Topic: in.Topic, Wing: in.Wing})
		if err == nil && res.Added {
			s.changed(statusURI)
		}
		return res, err
	}
	return ops.DiaryRead(ctx, s.p, ops.DiaryReadRequest{Agent: in.Agent, Wing: in.Wing, Last: in.Last, Since: in.Since})
}
