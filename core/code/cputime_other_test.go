//go:build !unix

package code

import "time"

// cpuTime is unknown here: no benchmark reports MB per CPU second.
func cpuTime() time.Duration { return 0 }
