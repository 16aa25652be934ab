package mine

import (
	"fmt"
	"syscall"
)

// workerNice is how much lower than the rest of the process the workers'
// threads run. A cold mine's critical path is its one writer: on two
// cores the workers' parsing took CPU from it and it spent most of the
// mine waiting for a core, with the workers then waiting on it. At a
// lower priority the workers take what the writer leaves, and the mine of
// Go's src took about 14 % less time (docs/cli.md, Mining).
const workerNice = 10

// lowerThreadPriority makes the calling OS thread run workerNice lower
// than it does now (at most 19, the lowest). Linux gives each thread its
// own nice value; the caller must hold its thread (runtime.LockOSThread)
// and let it end with the goroutine, so no other goroutine inherits it.
func lowerThreadPriority() error {
	tid := syscall.Gettid()
	// The raw system call returns 20 - nice.
	raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid)
	if err != nil {
		return fmt.Errorf("read thread priority: %w", err)
	}
	nice := min(20-raw+workerNice, 19)
	if err := syscall.Setpriority(syscall.PRIO_PROCESS, tid, nice); err != nil {
		return fmt.Errorf("lower thread priority: %w", err)
	}
	return nil
}
