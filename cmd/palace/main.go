// Command palace is the command-line front of Palace: bulk mining, search,
// status and maintenance of a local-first memory for coding agents.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:]))
}

// run executes one command line and returns the exit code: 0 ok, 1 error,
// 2 usage, 3 a knowledge-graph conflict (nothing written).
func run(ctx context.Context, args []string) int {
	root := newRoot()
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	// Errors can quote stored names and the arguments; lines they break on
	// purpose are kept.
	fmt.Fprintln(os.Stderr, "palace:", termText(err.Error()))
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return 1
}
