//go:build unix

package main

import (
	"fmt"
	"syscall"
)

// runBench replaces this process with palace-bench: the same process, so
// its standard streams, signals and exit code are palace-bench's own.
func runBench(exe string, args, env []string) error {
	err := syscall.Exec(exe, append([]string{exe}, args...), env)
	return fmt.Errorf("bench: run %s: %w", exe, err)
}
