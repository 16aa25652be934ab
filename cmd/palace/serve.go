package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/server/lsp"
	palacemcp "github.com/palace-dev/palace/server/mcp"
)

func newServeCmd(g *globals) *cobra.Command {
	var (
		lspMode, mcpMode, remote, instructions bool
		wing, addr                             string
		allow                                  []string
		mcpProfile                             func() (string, error)
	)
	c := &cobra.Command{
		Use:   "serve --mcp | --lsp",
		Short: "Run a server: --mcp for coding agents, --lsp for editors",
		Long: `Serve runs Palace as a server that writes only protocol to stdout (logs go
to stderr).

--mcp is the Model Context Protocol server for coding agents, on stdio, or on
streamable HTTP with --http ADDR (loopback only unless --allow-remote; a bearer
token is generated into $PALACE_HOME/mcp-token). The wing is --wing, else the
client's MCP roots (palace.yaml, else the folder name), never the working
directory. --instructions prints the memory protocol the server gives agents.
--profile core (the default) lists the tools of an agent's session loop;
--profile full (or PALACE_MCP_PROFILE=full) adds mining, the taxonomy, the
typed graph, the review of proposed facts and the rarer parameters.

--lsp is the Language Server Protocol server for editors: it mines each
workspace folder into its wing, re-mines files on save and when they change on
disk, and answers palace/relevant, palace/search, palace/drawer,
palace/remember, palace/forget, palace/mine, palace/status and palace/wakeUp.`,
		Example: `  claude mcp add palace -- palace serve --mcp
  palace serve --mcp --profile full
  palace serve --mcp --http 127.0.0.1:8765
  palace serve --lsp`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			switch {
			case mcpMode && lspMode, !mcpMode && !lspMode:
				return usageError{fmt.Errorf("serve: choose one protocol: --mcp or --lsp")}
			case !instructions:
				stop := followTeam(c, g)
				defer stop()
			}
			switch {
			case lspMode:
				// An exit without shutdown (lsp.ErrNoShutdown) is exit
				// code 1, as LSP asks.
				return lsp.Serve(c.Context(), os.Stdin, os.Stdout, lsp.Options{Home: g.home, ModelDir: g.modelDir, Version: version})
			case instructions:
				fmt.Fprint(c.OutOrStdout(), palacemcp.Instructions())
				return nil
			}
			profile, err := mcpProfile()
			if err != nil {
				return err
			}
			if addr != "" {
				if _, err := palacemcp.CheckAddr(addr, remote); err != nil {
					return usageError{err}
				}
			}
			p, err := ops.Open(c.Context(), g.home, palace.Options{ModelDir: g.modelDir, Actor: "mcp"})
			if err != nil {
				return err
			}
			defer p.Close()
			return palacemcp.Serve(c.Context(), p, palacemcp.Options{Wing: wing, AllowPaths: allow, HTTP: addr,
				AllowRemote: remote, Version: version, Log: c.ErrOrStderr(), Profile: profile})
		},
	}
	c.Flags().BoolVar(&mcpMode, "mcp", false, "serve the Model Context Protocol (coding agents)")
	c.Flags().BoolVar(&lspMode, "lsp", false, "serve the Language Server Protocol on stdio (editors)")
	c.Flags().StringVar(&wing, "wing", "", "MCP: the project wing (default: from the client's roots)")
	c.Flags().StringVar(&addr, "http", "", "MCP: serve streamable HTTP on ADDR (loopback) instead of stdio")
	c.Flags().BoolVar(&remote, "allow-remote", false, "MCP: allow a non-loopback --http address (the token is still required)")
	c.Flags().StringArrayVar(&allow, "allow-path", nil, "MCP: a folder palace_mine may read besides the client's roots (repeatable)")
	c.Flags().BoolVar(&instructions, "instructions", false, "MCP: print the instructions the server gives agents, then exit")
	mcpProfile = mcpProfileFlag(c)
	return c
}

// followTeam keeps a team palace in sync while the server runs (a palace
// that joined no team does nothing), logging to stderr; stop ends it.
func followTeam(c *cobra.Command, g *globals) (stop func()) {
	ctx, cancel := context.WithCancel(c.Context())
	done := make(chan struct{})
	log := c.ErrOrStderr()
	go func() {
		defer close(done)
		err := ops.TeamFollow(ctx, g.home, palace.Options{ModelDir: g.modelDir, Actor: "team"}, func(f string, a ...any) {
			fmt.Fprintf(log, "palace: "+f+"\n", a...)
		})
		if err != nil && ctx.Err() == nil {
			fmt.Fprintf(log, "palace: team sync: %v\n", err)
		}
	}()
	return func() { cancel(); <-done }
}
