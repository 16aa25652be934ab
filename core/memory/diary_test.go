package memory

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

func texts(r DiaryRead) []string {
	out := []string{}
	for _, e := range r.Entries {
		out = append(out, e.Text)
	}
	return out
}

func TestAgentID(t *testing.T) {
	for in, want := range map[string]string{
		"Claude Code": "claude-code", "claude-code": "claude-code", " CLAUDE  code ": "claude-code",
		"team/bot": "team-bot", `o'"neil"`: "o-neil", "Café": "café", "助手": "助手", "gpt-5.1": "gpt-5.1",
	} {
		if got, err := AgentID(in); err != nil || got != want {
			t.Errorf("AgentID(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestDiaryWriteAndRead(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	hour := func(h int) time.Time { return t0.Add(time.Duration(h) * time.Hour) }

	first, err := WriteDiary(ctx, p, DiaryEntry{Agent: "Claude Code", Text: "Started on the wake-up budget.", At: hour(0)})
	if err != nil {
		t.Fatal(err)
	}
	if !first.Added || first.Wing != "diary-claude-code" || first.Topic != DefaultTopic || first.AgentID != "claude-code" ||
		first.Agent != "Claude Code" || !first.At.Equal(hour(0)) {
		t.Errorf("first entry %+v", first)
	}
	d, err := p.Store.GetDrawer(ctx, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d.Kind != store.KindDiary || d.Room != DefaultTopic || d.Source != "diary:claude-code" || !d.OccurredAt.Equal(hour(0)) ||
		d.Metadata != `{"agent":"Claude Code","agent_id":"claude-code"}` {
		t.Errorf("stored entry %+v", d)
	}
	for i, e := range []DiaryEntry{
		{Agent: "claude code", Text: "Budget fitting works; AAAK next.", Topic: "wake-up", At: hour(1)},
		{Agent: "CLAUDE-CODE", Text: "Filed in the project wing.", Wing: "proj", At: hour(2)},
		{Agent: "codex", Text: "Another agent's entry.", At: hour(2)},
		{Agent: "claude code", Text: "Wrapped up.", At: hour(3)},
	} {
		if _, err := WriteDiary(ctx, p, e); err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
	}

	read := func(q DiaryQuery) DiaryRead {
		t.Helper()
		r, err := ReadDiary(ctx, p, q)
		if err != nil {
			t.Fatalf("read %+v: %v", q, err)
		}
		return r
	}
	all := read(DiaryQuery{Agent: "Claude Code"})
	want := []string{"Started on the wake-up budget.", "Budget fitting works; AAAK next.", "Filed in the project wing.", "Wrapped up."}
	if got := texts(all); !reflect.DeepEqual(got, want) || all.More {
		t.Errorf("all entries, oldest first: %q (more %v)", got, all.More)
	}
	if all.AgentID != "claude-code" || all.Agent != "claude code" {
		t.Errorf("agent %q id %q", all.Agent, all.AgentID)
	}
	if e := all.Entries[1]; e.Topic != "wake-up" || e.Wing != "diary-claude-code" || !e.At.Equal(hour(1)) {
		t.Errorf("second entry %+v", e)
	}
	if e := all.Entries[2]; e.Wing != "proj" {
		t.Errorf("an entry filed in another wing is still the agent's: %+v", e)
	}
	last2 := read(DiaryQuery{Agent: "claude-code", Last: 2})
	if got := texts(last2); !reflect.DeepEqual(got, want[2:]) || !last2.More {
		t.Errorf("--last 2: %q (more %v)", got, last2.More)
	}
	since := read(DiaryQuery{Agent: "claude-code", Since: "2026-05-01T10:00:00Z"})
	if got := texts(since); !reflect.DeepEqual(got, want[1:]) {
		t.Errorf("--since 10:00: %q", got)
	}
	if got := texts(read(DiaryQuery{Agent: "claude-code", Since: "2026-05-02"})); len(got) != 0 {
		t.Errorf("--since the next day: %q", got)
	}
	if got := texts(read(DiaryQuery{Agent: "claude-code", Since: "2026-05-01", Last: 1})); !reflect.DeepEqual(got, want[3:]) {
		t.Errorf("--since and --last: %q", got)
	}
	if got := texts(read(DiaryQuery{Agent: "claude-code", Wing: "proj"})); !reflect.DeepEqual(got, want[2:3]) {
		t.Errorf("--wing proj: %q", got)
	}
	if got := texts(read(DiaryQuery{Agent: "codex"})); !reflect.DeepEqual(got, []string{"Another agent's entry."}) {
		t.Errorf("codex: %q", got)
	}
	if r := read(DiaryQuery{Agent: "nobody"}); len(r.Entries) != 0 || r.Entries == nil {
		t.Errorf("an agent without entries: %+v", r)
	}

	// Writing the very same entry again is a retry: nothing new.
	before := drawerCount(t, p)
	again, err := WriteDiary(ctx, p, DiaryEntry{Agent: "Claude Code", Text: "Started on the wake-up budget.", At: hour(0)})
	if err != nil || again.Added || again.ID != first.ID || drawerCount(t, p) != before {
		t.Errorf("retry: %+v %v", again, err)
	}
	// The same text later is a new entry (diaries repeat themselves).
	if later, err := WriteDiary(ctx, p, DiaryEntry{Agent: "Claude Code", Text: "Started on the wake-up budget.", At: hour(5)}); err != nil || !later.Added {
		t.Errorf("same text later: %+v %v", later, err)
	}
	// Entries in the same second keep their writing order.
	for _, s := range []string{"one", "two", "three"} {
		if _, err := WriteDiary(ctx, p, DiaryEntry{Agent: "fast", Text: s, At: hour(6)}); err != nil {
			t.Fatal(err)
		}
	}
	if got := texts(read(DiaryQuery{Agent: "fast", Last: 2})); !reflect.DeepEqual(got, []string{"two", "three"}) {
		t.Errorf("same second: %q", got)
	}
}

func TestDiaryBadInput(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	if _, err := WriteDiary(ctx, p, DiaryEntry{Agent: "a", Text: "fine"}); err != nil {
		t.Fatal(err)
	}
	writes := []struct {
		name, field string
		e           DiaryEntry
	}{
		{"empty agent", "agent", DiaryEntry{Agent: "", Text: "x"}},
		{"blank agent", "agent", DiaryEntry{Agent: "  ", Text: "x"}},
		{"agent without letters", "agent", DiaryEntry{Agent: "!!!", Text: "x"}},
		{"agent with a newline", "agent", DiaryEntry{Agent: "a\nb", Text: "x"}},
		{"agent too long", "agent", DiaryEntry{Agent: strings.Repeat("a", MaxAgentBytes+1), Text: "x"}},
		{"empty text", "text", DiaryEntry{Agent: "a", Text: ""}},
		{"invalid UTF-8", "text", DiaryEntry{Agent: "a", Text: "\xc3\x28"}},
		{"10 MB text", "text", DiaryEntry{Agent: "a", Text: strings.Repeat("x", 10<<20)}},
		{"topic with a slash", "topic", DiaryEntry{Agent: "a", Text: "x", Topic: "a/b"}},
		{"wing with a quote", "wing", DiaryEntry{Agent: "a", Text: "x", Wing: `"w"`}},
	}
	for _, c := range writes {
		t.Run(c.name, func(t *testing.T) {
			before := drawerCount(t, p)
			for _, err := range []error{c.e.Validate(), func() error { _, err := WriteDiary(ctx, p, c.e); return err }()} {
				var ie *InputError
				if !errors.As(err, &ie) || ie.Field != c.field || !errors.Is(err, ErrInvalid) {
					t.Errorf("want an input error on %s, got %v", c.field, err)
				}
			}
			if drawerCount(t, p) != before {
				t.Errorf("bad input wrote")
			}
		})
	}
	reads := []struct {
		name, field string
		q           DiaryQuery
	}{
		{"empty agent", "agent", DiaryQuery{}},
		{"unknown date", "since", DiaryQuery{Agent: "a", Since: "2026-02-30"}},
		{"words for a date", "since", DiaryQuery{Agent: "a", Since: "yesterday"}},
		{"slashed date", "since", DiaryQuery{Agent: "a", Since: "2026/05/01"}},
		{"negative last", "last", DiaryQuery{Agent: "a", Last: -1}},
		{"huge last", "last", DiaryQuery{Agent: "a", Last: MaxDiaryLast + 1}},
		{"wing with a slash", "wing", DiaryQuery{Agent: "a", Wing: "../x"}},
	}
	for _, c := range reads {
		t.Run("read "+c.name, func(t *testing.T) {
			_, err := ReadDiary(ctx, p, c.q)
			var ie *InputError
			if !errors.As(err, &ie) || ie.Field != c.field || c.q.Validate() == nil {
				t.Errorf("want an input error on %s, got %v", c.field, err)
			}
		})
	}
}
