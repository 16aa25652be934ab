//go:build !unix

package bench

import "os"

// maxRSSMB is unknown without rusage.
func maxRSSMB(*os.ProcessState) float64 { return 0 }

// selfMaxRSSMB is unknown without rusage.
func selfMaxRSSMB() float64 { return 0 }
