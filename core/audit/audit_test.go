package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestRotationKeepsEverythingReadable(t *testing.T) {
	l, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	l.maxBytes = 2000
	for i := 1; i <= 60; i++ {
		if err := l.Append(Entry{Seq: int64(i), Time: time.Now(), Actor: "cli", Op: "drawer.add", Status: Applied, IDs: []string{fmt.Sprint("d_", i)}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(l.Path() + ".1"); err != nil {
		t.Fatal("no rotation happened")
	}
	if _, err := os.Stat(fmt.Sprintf("%s.%d", l.Path(), Keep+1)); err == nil {
		t.Error("kept more than Keep old files")
	}
	es, err := l.Read(Filter{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(es); i++ {
		if es[i].Seq != es[i-1].Seq+1 {
			t.Fatalf("entries out of order or missing around %d", es[i].Seq)
		}
	}
	if es[len(es)-1].Seq != 60 {
		t.Errorf("last entry %d", es[len(es)-1].Seq)
	}
}

func TestConcurrentAppendsDoNotInterleave(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			l, _ := Open(dir) // separate handles, like separate processes
			for i := 0; i < 50; i++ {
				l.Append(Entry{Time: time.Now(), Actor: fmt.Sprint("w", w), Op: "x", Status: Applied, IDs: []string{string(make([]byte, 300))}})
			}
		}(w)
	}
	wg.Wait()
	l, _ := Open(dir)
	es, err := l.Read(Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 200 {
		t.Errorf("%d entries readable, want 200", len(es))
	}
	if only, _ := l.Read(Filter{Actor: "w1"}); len(only) != 50 {
		t.Errorf("actor filter: %d", len(only))
	}
}

func TestTornLastLineIsSkipped(t *testing.T) {
	l, _ := Open(t.TempDir())
	l.Append(Entry{Seq: 1, Op: "a", Status: Applied})
	f, _ := os.OpenFile(l.Path(), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":2,"op":"b","sta`)
	f.Close()
	es, err := l.Read(Filter{})
	if err != nil || len(es) != 1 {
		t.Fatalf("%+v %v", es, err)
	}
}

// A device in the log's place is refused instead of read forever.
func TestReadRefusesDevice(t *testing.T) {
	l, _ := Open(t.TempDir())
	if err := os.Symlink("/dev/zero", l.Path()); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := l.Uncorrected(0)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("Uncorrected on /dev/zero: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Uncorrected is still reading /dev/zero")
	}
	if _, err := l.Read(Filter{}); err == nil {
		t.Error("Read of /dev/zero succeeded")
	}
}

func TestUncorrected(t *testing.T) {
	l, _ := Open(t.TempDir())
	l.maxBytes = 400 // rotate often: the answer spans every kept file
	for seq := int64(1); seq <= 12; seq++ {
		if err := l.Append(Entry{Seq: seq, Op: "x", Status: Applied}); err != nil {
			t.Fatal(err)
		}
	}
	// The database committed up to 4: 5 to 12 never committed, and only
	// 11 has been corrected.
	l.Append(Entry{Op: "x", Status: Failed, Corrects: 11})
	un, err := l.Uncorrected(4)
	if err != nil {
		t.Fatal(err)
	}
	var seqs []int64
	for _, e := range un {
		seqs = append(seqs, e.Seq)
	}
	if fmt.Sprint(seqs) != "[5 6 7 8 9 10 12]" {
		t.Errorf("uncorrected past 4: %v", seqs)
	}
	if un, _ := l.Uncorrected(12); len(un) != 0 {
		t.Errorf("uncorrected past 12: %+v", un)
	}
}

// A symbolic link in the log's place is refused, not written through: the
// file it points to is left as it was.
func TestAppendRefusesSymlink(t *testing.T) {
	l, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("keep\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, l.Path()); err != nil {
		t.Fatal(err)
	}
	err = l.Append(Entry{Seq: 1, Time: time.Now(), Actor: "cli", Op: "drawer.add", Status: Applied})
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("append through a symlink: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep\n" {
		t.Errorf("the link's target was written: %q", b)
	}
	// A dangling link would have been created at its target.
	dangling := filepath.Join(t.TempDir(), "made")
	os.Remove(l.Path())
	if err := os.Symlink(dangling, l.Path()); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(Entry{Seq: 1, Time: time.Now(), Actor: "cli", Op: "drawer.add", Status: Applied}); err == nil {
		t.Error("append through a dangling symlink succeeded")
	}
	if _, err := os.Stat(dangling); !os.IsNotExist(err) {
		t.Errorf("the dangling link's target was created: %v", err)
	}
}

// Tail finds the applied lines past the committed sequence, in file
// order, through failed lines, corrections and a torn last line, and
// stops at the committed one: a line before it is never returned, even
// one that looks uncommitted (a later write corrected it long ago).
func TestTailFindsLinesPastCommitted(t *testing.T) {
	l, _ := Open(t.TempDir())
	l.Append(
		Entry{Seq: 5, Op: "old", Status: Applied}, // before the committed line: out of reach
		Entry{Seq: 1, Op: "a", Status: Applied},
		Entry{Seq: 2, Op: "b", Status: Applied, IDs: []string{"d_1", "d_2"}},
		Entry{Op: "c", Status: Failed, Error: "no"},
		Entry{Seq: 3, Op: "d", Status: Applied},
		Entry{Op: "d", Status: Failed, Corrects: 9},
		Entry{Seq: 4, Op: "e", Status: Applied},
	)
	f, _ := os.OpenFile(l.Path(), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":7,"op":"f","sta`)
	f.Close()
	for after, want := range map[int64]string{2: "d3 e4", 1: "b2 d3 e4", 4: "", 3: "e4"} {
		es, err := l.Tail(after)
		var got []string
		for _, e := range es {
			got = append(got, fmt.Sprintf("%s%d", e.Op, e.Seq))
		}
		if err != nil || strings.Join(got, " ") != want {
			t.Errorf("Tail(%d) = %v %v, want %q", after, got, err, want)
		}
	}
	// An uncommitted line longer than the first window Tail reads.
	l, _ = Open(t.TempDir())
	l.Append(Entry{Seq: 1, Op: "a", Status: Applied}, Entry{Seq: 2, Op: "mine", Status: Applied, IDs: []string{strings.Repeat("d", tailFirst)}})
	if es, err := l.Tail(1); err != nil || len(es) != 1 || es[0].Seq != 2 {
		t.Errorf("Tail(1) past a long line = %+v %v, want seq 2", es, err)
	}
}

// BenchmarkTail times the check every write makes for uncommitted lines,
// on a log whose last lines are a mine's (thousands of ids) and a save's:
//
//	go test -run '^$' -bench Tail ./core/audit
func BenchmarkTail(b *testing.B) {
	l, _ := Open(b.TempDir())
	ids := make([]string, 5000)
	for i := range ids {
		ids[i] = fmt.Sprintf("d_%024d", i)
	}
	for seq := int64(1); seq <= 20; seq++ {
		l.Append(Entry{Seq: seq, Op: "source.replace", Status: Applied, IDs: ids[:seq*250]})
	}
	l.Append(Entry{Seq: 21, Op: "source.replace", Status: Applied, IDs: ids[:3]})
	b.ResetTimer()
	for range b.N {
		if es, err := l.Tail(21); err != nil || len(es) != 0 {
			b.Fatal(es, err)
		}
	}
}
