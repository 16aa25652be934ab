// Command lspmain runs the Palace LSP server on stdio, as `palace serve
// --lsp` will once the CLI wires it: tests and editors can use it until
// then. Flags: --home DIR, --model-dir DIR (the CLI's global flags).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/palace-dev/palace/server/lsp"
)

func main() {
	var opts lsp.Options
	flag.StringVar(&opts.Home, "home", "", "palace directory (overrides initializationOptions.home and PALACE_HOME)")
	flag.StringVar(&opts.ModelDir, "model-dir", "", "embedding model folder")
	flag.Parse()
	opts.Version = "dev"
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := lsp.Serve(ctx, os.Stdin, os.Stdout, opts)
	switch {
	case err == nil:
	case errors.Is(err, lsp.ErrNoShutdown):
		os.Exit(1)
	default:
		fmt.Fprintln(os.Stderr, "palace lsp:", err)
		os.Exit(1)
	}
}
