package hook

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

const longSessionID = "5b0c2e7a-long-session"

// sessionSetup is a transcript folder, a project and a palace for hook runs.
type sessionSetup struct {
	transcript string
	in         Input
	o          RunOptions
	p          *palace.Palace
}

func newSessionSetup(tb testing.TB, data []byte) *sessionSetup {
	tb.Helper()
	root := filepath.Join(tb.TempDir(), "projects")
	dir := filepath.Join(root, "-work-shop")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		tb.Fatal(err)
	}
	s := &sessionSetup{transcript: filepath.Join(dir, longSessionID+".jsonl")}
	if err := os.WriteFile(s.transcript, data, 0o600); err != nil {
		tb.Fatal(err)
	}
	cwd := filepath.Join(tb.TempDir(), "shop")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		tb.Fatal(err)
	}
	s.in = Input{SessionID: longSessionID, TranscriptPath: s.transcript, CWD: cwd, HookEventName: "Stop"}
	s.o = RunOptions{Agent: AgentClaudeCode, Event: EventStop, Roots: []string{root}, Home: tb.TempDir()}
	s.p = palacetest.OpenPalace(tb, palace.Options{Actor: "hook", Client: AgentClaudeCode})
	return s
}

// run is one hook run with the given deadline.
func (s *sessionSetup) run(tb testing.TB, deadline time.Duration) Result {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	res, err := Run(ctx, s.p, s.in, s.o)
	if err != nil {
		tb.Fatalf("hook run: %v", err)
	}
	return res
}

func (s *sessionSetup) appendLines(tb testing.TB, data []byte) {
	tb.Helper()
	f, err := os.OpenFile(s.transcript, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		tb.Fatal(err)
	}
}

// drawers lists the palace's drawers, all a mine decides about each but
// when it ran.
func (s *sessionSetup) drawers(tb testing.TB) []string {
	tb.Helper()
	ds, err := s.p.Store.ListDrawers(context.Background(), store.Filter{}, 1<<30)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, d := range ds {
		if d.Room == ops.CheckpointRoom {
			continue // filed at each run's time: checkpointText compares them
		}
		out = append(out, fmt.Sprintf("%s %s/%s %d-%d %q %q %s %s", d.ID, d.Wing, d.Room, d.LineStart, d.LineEnd,
			d.Content, d.IndexText, d.OccurredAt, d.Metadata))
	}
	sort.Strings(out)
	return out
}

// checkpointText runs the hook until the session's checkpoint covers the
// whole transcript and returns its text. A checkpoint read over many runs
// must say what one read at once says: the digest of what each run read
// is kept, and the next run goes on from the message it stopped at.
func (s *sessionSetup) checkpointText(tb testing.TB) string {
	tb.Helper()
	for range 40 {
		if res := s.run(tb, DefaultTimeout); !res.CheckpointPartial {
			cp, found, err := ops.LastCheckpoint(context.Background(), s.p, s.in.SessionID)
			if err != nil || !found {
				tb.Fatalf("no checkpoint after a whole run: %v", err)
			}
			return cp.Text
		}
	}
	tb.Fatal("the checkpoint still covers part of the session after 40 runs")
	return ""
}

// A session too long to mine before the hook's deadline (#16: from about
// 40,000 lines one was never stored) is stored piece by piece: each run
// stores what it can and returns on time, the next goes on from there,
// and in the end the palace holds exactly what a clean mine gives. Then
// two appended lines cost a run a few kilobytes of parsing.
func TestRunStoresLongSessionAcrossRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("mines a 24,000-line session twice (about 13 s)")
	}
	data := palacetest.ClaudeSession(t, longSessionID, 0, 24000)
	s := newSessionSetup(t, data)
	// The clean mine: the same transcript into a palace of its own.
	clean := *s
	clean.p = palacetest.OpenPalace(t, palace.Options{Actor: "hook", Client: AgentClaudeCode})
	began := time.Now()
	res := clean.run(t, 10*time.Minute)
	whole := time.Since(began)
	if res.Partial || res.Summary.FilesMined != 1 {
		t.Fatalf("clean mine: %+v", res.Summary)
	}
	// A deadline a quarter of what mining the whole session takes on this
	// machine: a few pieces per run. The mine's own time, not the run's:
	// the run also counts the human messages and reads the new drawers
	// for facts, work a partial run cuts short.
	deadline := max(time.Duration(res.Summary.Seconds*float64(time.Second))/4, 200*time.Millisecond)
	want := clean.drawers(t)

	stored, runs := 0, 0
	for {
		runs++
		if runs > 40 {
			t.Fatalf("the session is still not stored whole after %d runs (%d of %d drawers)", runs-1, stored, len(want))
		}
		start := time.Now()
		res := s.run(t, deadline)
		// The mine stops between pieces; the piece in hand is written
		// after the deadline. A run that kept to it ends well before the
		// clean run of the whole session would have (four deadlines): the
		// margin is half of that run, measured above.
		if took := time.Since(start); took > deadline+whole/2 {
			t.Errorf("run %d took %v against a %v deadline (the whole session's run took %v)", runs, took, deadline, whole)
		}
		n := len(s.drawers(t))
		if res.Partial && n <= stored && runs > 1 {
			t.Fatalf("run %d stored nothing new (%d drawers): %+v", runs, n, res.Summary)
		}
		stored = n
		if !res.Partial {
			break
		}
	}
	if runs < 3 {
		t.Fatalf("the session was stored in %d run(s) against a %v deadline, a quarter of a whole mine: a run ignored its deadline", runs, deadline)
	}
	got := s.drawers(t)
	if len(got) != len(want) {
		t.Fatalf("after %d runs: %d drawers, a clean mine has %d", runs, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("after %d runs the drawers differ from a clean mine's:\n got %.300s\nwant %.300s", runs, got[i], want[i])
		}
	}
	t.Logf("%d-byte session stored whole in %d runs of %v", len(data), runs, deadline)
	if got, want := s.checkpointText(t), clean.checkpointText(t); got != want {
		t.Fatalf("the checkpoint read over %d runs differs from one read at once:\n got %s\nwant %s", runs, got, want)
	}

	more := palacetest.ClaudeSession(t, longSessionID, 24000, 2)
	s.appendLines(t, more)
	res = s.run(t, DefaultTimeout)
	if res.Partial || res.Summary.DrawersAdded == 0 || res.Summary.BytesParsed > int64(len(more))+16<<10 {
		t.Fatalf("two appended lines: %+v", res.Summary)
	}
}

// BenchmarkSession times hook runs on 20k, 80k and 320k-line Claude Code
// sessions: full mines a session no run has seen (with no deadline), and
// append adds two lines (a prompt and its reply) to a session already
// stored and runs the hook. Append should not grow with the session;
// full should grow linearly.
//
//	go test -bench 'Session/full' -benchtime 1x -run '^$' ./server/hook
//	go test -bench 'Session/append' -benchtime 20x -run '^$' ./server/hook
func BenchmarkSession(b *testing.B) {
	for _, n := range []int{20000, 80000, 320000} {
		data := palacetest.ClaudeSession(b, longSessionID, 0, n)
		name := fmt.Sprintf("%dk", n/1000)
		b.Run("full/"+name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				s := newSessionSetup(b, data)
				b.StartTimer()
				if res := s.run(b, time.Hour); res.Partial || res.Summary.FilesMined != 1 {
					b.Fatalf("full mine: %+v", res.Summary)
				}
			}
		})
		b.Run("append/"+name, func(b *testing.B) {
			s := newSessionSetup(b, data)
			s.run(b, time.Hour)
			var parsed int64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				s.appendLines(b, palacetest.ClaudeSession(b, longSessionID, n+2*i, 2))
				b.StartTimer()
				res := s.run(b, DefaultTimeout)
				if res.Partial || res.Summary.DrawersAdded == 0 {
					b.Fatalf("append: %+v", res.Summary)
				}
				parsed += res.Summary.BytesParsed
			}
			b.ReportMetric(float64(parsed)/float64(b.N), "parsed-B/op")
		})
	}
}
