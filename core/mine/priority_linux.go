package mine

import (
	"fmt"
	"os"
	"runtime"
	"sync"
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

// writerProcs counts the mines in this process running with an extra P
// (see writerProc) and keeps the GOMAXPROCS they raised.
var writerProcs struct {
	sync.Mutex
	n, prev int
}

// writerProc gives the Go scheduler one P more than there are cores while
// a mine's workers are queued, and returns what takes it back when the
// last such mine ends. The workers' threads run at a lower priority than
// the writer's (lowerThreadPriority), but priority only decides among
// threads the kernel can run: with go/parser cutting Go in Go, the two
// workers held both of the scheduler's Ps, and the writer, back from each
// call into SQLite, waited for one. With a third P its thread is always
// runnable and the kernel gives it the core first (Go's src, GOMAXPROCS 3
// against 2, alternating: cold mine 10.6 and 11.3 s against 11.5 and 12.5 s).
func writerProc() (release func()) {
	writerProcs.Lock()
	defer writerProcs.Unlock()
	if writerProcs.n == 0 {
		writerProcs.prev = runtime.GOMAXPROCS(runtime.NumCPU() + 1)
	}
	writerProcs.n++
	return func() {
		writerProcs.Lock()
		defer writerProcs.Unlock()
		if writerProcs.n--; writerProcs.n > 0 {
			return
		}
		if os.Getenv("GOMAXPROCS") == "" {
			runtime.SetDefaultGOMAXPROCS() // and the runtime's own updates with it
		} else {
			runtime.GOMAXPROCS(writerProcs.prev)
		}
	}
}
