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
		name:       "palace_diary",
		title:      "Agent diary",
		desc:       "Your dated journal across sessions, in this project's wing: what you did, what is left, what to watch out for.",
		idempotent: false, // each write is a new entry
		params: []param{
			{name: "action", kind: kString, required: true, enum: []string{diaryWrite, diaryRead},
				desc: "write: at the end of a task and before compaction. read: at the start, your latest entries."},
			{name: "agent", kind: kString, maxLen: ops.MaxAgentBytes,
				desc: "Default your client's name; a registered agent (see palace_status) gives its own."},
			{name: "text", kind: kString, maxLen: ops.MaxTextBytes, actions: []string{diaryWrite}, requiredFor: []string{diaryWrite},
				desc: "The entry."},
			{name: "topic", kind: kString, maxLen: ops.MaxNameBytes, actions: []string{diaryWrite}, full: true,
				desc: "The entry's topic, filed as its room (default \"" + ops.DefaultTopic + "\")."},
			{name: "wing", kind: kString, maxLen: ops.MaxNameBytes,
				desc: "write: file it here (default: this project's wing). read: only entries filed here."},
			{name: "last", kind: kInteger, min: num(1), max: num(ops.MaxDiaryLast), actions: []string{diaryRead},
				desc: fmt.Sprintf("How many (default %d).", ops.DefaultDiaryLast)},
			{name: "since", kind: kString, maxLen: ops.MaxDateBytes, actions: []string{diaryRead}, full: true,
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
		req := ops.DiaryWriteRequest{Agent: in.Agent, Text: in.Text, Topic: in.Topic, Wing: in.Wing, Provenance: s.provenance(ctx)}
		if in.Wing == "" {
			// The project's next wake-up reads its wing's diary: an entry
			// filed in the agent's own wing would not come back there.
			req.DefaultWing = s.knownWing(ctx)
		}
		res, err := ops.DiaryWrite(ctx, s.p, req)
		if err == nil && res.Added {
			s.changed(statusURI)
		}
		return res, err
	}
	return ops.DiaryRead(ctx, s.p, ops.DiaryReadRequest{Agent: in.Agent, Wing: in.Wing, Last: in.Last, Since: in.Since})
}
