//go:build unix

package bench

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSSMB is a finished child's rusage maxrss in MB; 0 when there is none.
// See childPeak for when it is the child's own.
func maxRSSMB(ps *os.ProcessState) float64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0
	}
	return rusageMB(float64(ru.Maxrss))
}

// selfMaxRSSMB is this process's own peak resident set so far
// (getrusage(RUSAGE_SELF) maxrss) in MB; 0 when unknown.
func selfMaxRSSMB() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return rusageMB(float64(ru.Maxrss))
}

// rusageMB converts maxrss to MB: it is in kB on Linux and the BSDs, in
// bytes on macOS.
func rusageMB(maxrss float64) float64 {
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return maxrss / (1 << 20)
	}
	return maxrss / 1024
}
