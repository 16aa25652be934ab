//go:build unix

package code

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used: what a benchmark on a
// machine others load too measures itself by, beside the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
