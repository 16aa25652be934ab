package audit

import (
	"path/filepath"
	"testing"
)

// Committed counts the writes the log records as committed, across every
// kept file: applied lines with a sequence number that no later line
// corrects. Failed writes and writes a correction marks failed are no
// evidence of a palace.
func TestCommitted(t *testing.T) {
	home := t.TempDir()
	if n, _, err := ReadOnly(home).Committed(); err != nil || n != 0 {
		t.Fatalf("a home without a log: %d committed, %v; want 0, no error", n, err)
	}
	l, err := Open(home)
	if err != nil {
		t.Fatal(err)
	}
	l.maxBytes = 300 // rotate often: the count spans every kept file
	for seq := int64(1); seq <= 9; seq++ {
		if err := l.Append(Entry{Seq: seq, Op: "drawer.add", Status: Applied}); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Append(
		Entry{Op: "drawer.add", Status: Failed, Error: "disk full"},
		Entry{Op: "repair", Status: Failed, Corrects: 9},
		Entry{Seq: 10, Op: "kg.add", Status: Applied},
	); err != nil {
		t.Fatal(err)
	}
	if m, _ := filepath.Glob(filepath.Join(home, DirName, FileName+".*")); len(m) == 0 {
		t.Fatal("the log never rotated: the test does not span files")
	}
	n, last, err := ReadOnly(home).Committed()
	if err != nil || n != 9 || last.Seq != 10 || last.Op != "kg.add" {
		t.Errorf("committed: %d, last %+v, %v; want 9 (1 to 8 and 10), the last kg.add seq 10", n, last, err)
	}

	fresh := t.TempDir()
	f, _ := Open(fresh)
	if err := f.Append(Entry{Op: "drawer.add", Status: Failed, Error: "locked"}, Entry{Seq: 1, Op: "drawer.add", Status: Applied}, Entry{Op: "repair", Status: Failed, Corrects: 1}); err != nil {
		t.Fatal(err)
	}
	if n, _, err := ReadOnly(fresh).Committed(); err != nil || n != 0 {
		t.Errorf("a log of failed and corrected writes only: %d committed, %v; want 0", n, err)
	}
}
