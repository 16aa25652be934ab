package mine

import (
	"runtime/debug"
	"sync"
)

// bulkHeap is the Go heap a bulk mine aims to stay under (a soft limit:
// the collector runs sooner as the heap nears it, never stops the mine).
// A cold mine of Go's src holds 26-31 MB live, and at the collector's
// default the heap grew to twice that between collections, 64 MB at its
// peak: under this limit its peak resident set with batches of 2,000
// drawers was 139 MB, 144-155 MB without (48 MiB made it spend a second
// more collecting).
const bulkHeap = 64 << 20

// heapCaps counts the mines in this process running under bulkHeap (see
// capHeap) and keeps the limit they replaced.
var heapCaps struct {
	sync.Mutex
	n    int
	prev int64
}

// capHeap sets the soft memory limit to bulkHeap while a mine's workers
// are queued, unless a lower one is set (GOMEMLIMIT), and returns what
// restores the previous limit when the last such mine ends.
func capHeap() (release func()) {
	heapCaps.Lock()
	defer heapCaps.Unlock()
	if heapCaps.n == 0 {
		heapCaps.prev = debug.SetMemoryLimit(-1) // reads it
		debug.SetMemoryLimit(min(heapCaps.prev, bulkHeap))
	}
	heapCaps.n++
	return func() {
		heapCaps.Lock()
		defer heapCaps.Unlock()
		if heapCaps.n--; heapCaps.n == 0 {
			debug.SetMemoryLimit(heapCaps.prev)
		}
	}
}
