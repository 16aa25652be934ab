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

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/ops"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "0.1.0-dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:]))
}

// run executes one command line and returns the exit code (exitCode).
func run(ctx context.Context, args []string) int {
	root := newRoot()
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return 0
	}
	// Errors can quote stored names and the arguments; lines they break on
	// purpose are kept.
	fmt.Fprintln(os.Stderr, "palace:", termsafe.Text(err.Error()))
	return exitCode(err)
}

// exitCode is the exit code of a command's error, by its outcome class
// (ops.Classify, as every front maps errors): 2 a usage mistake or input
// an operation refused, 3 a knowledge-graph conflict (nothing written),
// else 1.
func exitCode(err error) int {
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	switch ops.Classify(err) {
	case ops.OK:
		return 0
	case ops.Invalid:
		return 2
	case ops.Conflict:
		return 3
	}
	return 1
}
