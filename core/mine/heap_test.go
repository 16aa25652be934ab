package mine

import (
	"runtime/debug"
	"testing"
)

// A bulk mine caps the heap while it runs, never raises a lower limit,
// and the last of two overlapping mines puts the old limit back.
func TestCapHeap(t *testing.T) {
	limit := func() int64 { return debug.SetMemoryLimit(-1) }
	was := limit()
	defer debug.SetMemoryLimit(was)

	debug.SetMemoryLimit(1 << 40)
	first := capHeap()
	if got := limit(); got != bulkHeap {
		t.Fatalf("limit during a mine %d, want %d", got, bulkHeap)
	}
	second := capHeap()
	first()
	if got := limit(); got != bulkHeap {
		t.Fatalf("limit after the first of two mines ended %d, want %d", got, bulkHeap)
	}
	second()
	if got := limit(); got != 1<<40 {
		t.Fatalf("limit after both mines %d, want %d back", got, int64(1<<40))
	}

	debug.SetMemoryLimit(bulkHeap / 2)
	release := capHeap()
	if got := limit(); got != bulkHeap/2 {
		t.Fatalf("a lower limit was raised to %d", got)
	}
	release()
}
