//go:build !unix

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// runBench runs palace-bench with this process's standard streams and
// exits with its exit code.
func runBench(exe string, args, env []string) error {
	cmd := exec.Command(exe, args...)
	cmd.Env, cmd.Stdin, cmd.Stdout, cmd.Stderr = env, os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		os.Exit(ee.ExitCode())
	}
	if err != nil {
		return fmt.Errorf("bench: run %s: %w", exe, err)
	}
	os.Exit(0)
	return nil
}
