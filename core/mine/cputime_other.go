//go:build !linux

package mine

import "time"

// threadCPU is 0 where the thread's own CPU time is not read: a mine then
// reports no parse CPU.
func threadCPU() time.Duration { return 0 }
