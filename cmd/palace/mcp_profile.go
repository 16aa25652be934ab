package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	palacemcp "github.com/palace-dev/palace/server/mcp"
)

// mcpProfileFlag adds `palace serve --profile` and returns a function that
// resolves the profile: the flag, else $PALACE_MCP_PROFILE (for a client
// configuration that sets the environment more easily than arguments),
// else core. An unknown name is a usage error saying where it came from.
func mcpProfileFlag(c *cobra.Command) func() (string, error) {
	var profile string
	c.Flags().StringVar(&profile, "profile", "", "MCP: core (the session loop's tools, about 2,000 tokens) or full (every tool and parameter); default $"+
		palacemcp.ProfileEnv+", else core")
	return func() (string, error) {
		if c.Flags().Changed("profile") {
			if profile == "" {
				return "", usageError{fmt.Errorf("--profile: want %s", strings.Join(palacemcp.Profiles, " or "))}
			}
			if err := palacemcp.CheckProfile(profile); err != nil {
				return "", usageError{fmt.Errorf("--profile: %w", err)}
			}
			return profile, nil
		}
		name := os.Getenv(palacemcp.ProfileEnv)
		if err := palacemcp.CheckProfile(name); err != nil {
			return "", usageError{fmt.Errorf("$%s: %w", palacemcp.ProfileEnv, err)}
		}
		if name == "" {
			return palacemcp.ProfileCore, nil
		}
		return name, nil
	}
}
