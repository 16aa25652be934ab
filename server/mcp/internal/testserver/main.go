// Command testserver stands in for `palace serve --mcp` until the CLI wires
// it: it accepts the same command line ([--home H] [--model-dir D] serve
// --mcp [--wing W] [--http ADDR] [--allow-remote] [--allow-path DIR]...
// [--instructions]) and calls the same function, mcpserver.Serve, so the
// integration tests run unchanged against either binary (PALACE_BIN).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
	mcpserver "github.com/palace-dev/palace/server/mcp"
)

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "palace:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, argv []string) error {
	fs := flag.NewFlagSet("palace", flag.ContinueOnError)
	var (
		home, modelDir, wing, addr string
		mcpFlag, remote, instr     bool
		allow                      multi
	)
	fs.StringVar(&home, "home", "", "palace directory")
	fs.StringVar(&modelDir, "model-dir", "", "embedding model folder")
	fs.BoolVar(&mcpFlag, "mcp", false, "serve MCP")
	fs.StringVar(&wing, "wing", "", "project wing")
	fs.StringVar(&addr, "http", "", "streamable HTTP address")
	fs.BoolVar(&remote, "allow-remote", false, "allow a non-loopback --http address")
	fs.BoolVar(&instr, "instructions", false, "print the server instructions and exit")
	fs.Var(&allow, "allow-path", "folder palace_mine may read besides the client's roots")
	var rest []string
	for _, a := range argv {
		if a != "serve" {
			rest = append(rest, a)
		}
	}
	if err := fs.Parse(rest); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if !mcpFlag {
		return fmt.Errorf("serve needs --mcp")
	}
	if instr {
		_, err := fmt.Fprint(os.Stdout, mcpserver.Instructions())
		return err
	}
	if home == "" {
		var err error
		if home, err = store.DefaultHome(); err != nil {
			return err
		}
	}
	p, err := palace.Open(home, palace.Options{ModelDir: modelDir, Actor: "mcp"})
	if err != nil {
		return err
	}
	defer p.Close()
	return mcpserver.Serve(ctx, p, mcpserver.Options{Wing: wing, AllowPaths: allow, HTTP: addr, AllowRemote: remote, Version: "test"})
}
