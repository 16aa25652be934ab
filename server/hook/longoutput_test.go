package hook

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
)

// bigToolOutput is a Claude Code log line of the session longSession
// writes: a tool result of about size bytes of log lines.
func bigToolOutput(tb testing.TB, size int) []byte {
	var out strings.Builder
	for i := 0; out.Len() < size; i++ {
		fmt.Fprintf(&out, "%07d deploy index vector schema query router budget commit branch merge\n", i)
	}
	l := map[string]any{"type": "user", "sessionId": longSessionID, "cwd": "/work/shop", "version": "2.0.1",
		"timestamp": time.Date(2026, 3, 1, 1, 0, 0, 0, time.UTC).Format(time.RFC3339),
		"message": map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "content": out.String()}}}}
	b, err := json.Marshal(l)
	if err != nil {
		tb.Fatal(err)
	}
	return append(b, '\n')
}

// stopWithin is one Stop run with the hook's own deadline, failing the test
// if it takes much longer than that deadline: more than four times base
// past it, base being what a Stop of the session's first 600 lines took
// on this machine in the same test (none when base is 0). A run still
// going well past it (the old quadratic mine of one long message) is left
// behind: the test fails at once rather than wait for it.
func (s *sessionSetup) stopWithin(t *testing.T, run int, base time.Duration) (Result, time.Duration) {
	t.Helper()
	start := time.Now()
	type ran struct {
		res Result
		err error
	}
	done := make(chan ran, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), DefaultTimeout)
		defer cancel()
		res, err := Run(ctx, s.p, s.in, s.o)
		done <- ran{res, err}
	}()
	var r ran
	select {
	case r = <-done:
	case <-time.After(DefaultTimeout + 10*time.Second):
		t.Fatalf("Stop %d has not returned %v after its %v deadline", run, 10*time.Second, DefaultTimeout)
	}
	if r.err != nil {
		t.Fatalf("Stop %d: %v", run, r.err)
	}
	took := time.Since(start)
	t.Logf("Stop %d: %v, partial %v, %d drawers added, mine %.2fs, %d bytes parsed", run, took.Round(time.Millisecond),
		r.res.Partial, r.res.Summary.DrawersAdded, r.res.Summary.Seconds, r.res.Summary.BytesParsed)
	// The hook's deadline plus room in proportion to this machine's speed
	// now; the CLI's runHook allows 500 ms past it.
	if base > 0 && took > DefaultTimeout+4*base {
		t.Errorf("Stop %d took %v against the %v budget (a Stop of 600 lines took %v)", run, took, DefaultTimeout, base)
	}
	return r.res, took
}

// A session whose transcript gains one 10 MB tool output is stored whole
// by Stop runs that each keep to the hook's budget: what was said after
// the output is searchable, the palace holds exactly what one clean mine
// of the transcript gives (each run went on where the last one stopped),
// and a Stop after two more lines reads only those. (Mining a long
// message was quadratic in its length: every Stop timed out on the output
// and nothing after it was ever stored.)
func TestRunStoresSessionWithHugeToolOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("mines a session with 10 MB of tool output (about 15 s)")
	}
	before := palacetest.ClaudeSession(t, longSessionID, 0, 600)
	output := append(bigToolOutput(t, 10<<20), palacetest.ClaudeSession(t, longSessionID, 600, 600)...)
	s := newSessionSetup(t, before)
	s.o.NoProjectMine = true
	first, base := s.stopWithin(t, 1, 0)
	if first.Partial || first.Summary.DrawersAdded == 0 {
		t.Fatalf("Stop 1, before the output: %+v", first.Summary)
	}
	s.appendLines(t, output)
	const most = 8
	run := 1
	for {
		if run++; run > most+1 {
			t.Fatalf("the session is still not stored whole after %d Stop runs past the output", most)
		}
		if res, _ := s.stopWithin(t, run, base); !res.Partial {
			break
		}
	}
	// The last prompt of the session, said after the output.
	q := "step 1194"
	res, err := ops.Search(context.Background(), s.p, ops.SearchRequest{Query: q, Wing: WingFor(s.in.CWD), Mode: "lexical"})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, h := range res.Hits {
		found = found || strings.Contains(h.Content, q)
	}
	if !found {
		t.Fatalf("%q, said after the tool output, is not found: %d hits", q, len(res.Hits))
	}

	clean := *s
	clean.p = palacetest.OpenPalace(t, palace.Options{Actor: "hook", Client: AgentClaudeCode})
	if res := clean.run(t, 10*time.Minute); res.Partial || res.Summary.FilesMined != 1 {
		t.Fatalf("clean mine: %+v", res.Summary)
	}
	got, want := s.drawers(t), clean.drawers(t)
	if len(got) != len(want) {
		t.Fatalf("the Stop runs stored %d drawers, a clean mine of the transcript %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("the Stop runs' drawers differ from a clean mine's:\n got %.300s\nwant %.300s", got[i], want[i])
		}
	}

	if got, want := s.checkpointText(t), clean.checkpointText(t); got != want {
		t.Fatalf("the checkpoint read over the Stop runs differs from one read at once:\n got %s\nwant %s", got, want)
	}

	more := palacetest.ClaudeSession(t, longSessionID, 1200, 2)
	s.appendLines(t, more)
	if res, _ := s.stopWithin(t, run+1, base); res.Partial || res.Summary.DrawersAdded == 0 || res.Summary.BytesParsed > int64(len(more))+16<<10 {
		t.Fatalf("two lines appended after the output: %+v", res.Summary)
	}
}
