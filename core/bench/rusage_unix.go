//go:build unix

package bench

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSSMB is a finished child's peak resident set from its rusage: kB on
// Linux and the BSDs, bytes on macOS. 0 when there is none.
func maxRSSMB(ps *os.ProcessState) float64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return float64(ru.Maxrss) / (1 << 20)
	}
	return float64(ru.Maxrss) / 1024
}
