package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/store"
)

func newModelCmd(g *globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "model",
		Short: "Choose the embedding model (a local sentence-transformers ONNX folder)",
	}
	needsSubcommand(c)
	use := &cobra.Command{
		Use:   "use DIR",
		Short: "Load the model in DIR once to check it, then record it for this palace",
		Long: `Use checks that DIR holds a loadable model (model.onnx or onnx/model.onnx,
tokenizer.json, config.json) and records it, so every later command embeds
with it. PALACE_MODEL_DIR and --model-dir still override it. After a change of
model, run 'palace reindex'.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			p, err := g.open()
			if err != nil {
				return err
			}
			defer p.Close()
			choice, err := p.UseModel(c.Context(), a[0])
			if err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "model %s recorded; %s\n", choice.ModelDir, choice)
			return nil
		},
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "Show the model in use and the model folders under $PALACE_HOME/models",
		Args:  args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			p, err := g.open()
			if err != nil {
				return err
			}
			defer p.Close()
			out := c.OutOrStdout()
			cfg := p.EmbedConfig()
			if cfg.ModelDir == "" {
				fmt.Fprintln(out, "in use: none ("+embed.NoModelHint+")")
			} else {
				fmt.Fprintln(out, "in use:", cfg.ModelDir)
			}
			dirs, _ := filepath.Glob(filepath.Join(p.Store.Home(), "models", "*", "config.json"))
			for _, d := range dirs {
				fmt.Fprintln(out, "available:", filepath.Dir(d))
			}
			return nil
		},
	}
	c.AddCommand(use, list)
	return c
}

func newSetupCmd(g *globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "setup",
		Short: "Install optional parts",
	}
	needsSubcommand(c)
	ort := &cobra.Command{
		Use:   "ort [LIB_DIR]",
		Short: "Install ONNX Runtime (from the npm package onnxruntime-node, pinned and checksummed) for fast embeddings",
		Long: `Setup ort installs libonnxruntime into LIB_DIR (default $PALACE_HOME/lib, where
palace looks for it) from the npm package onnxruntime-node at a pinned version,
verifying its SHA-256 and its C API version. It needs bash, npm and tar;
'npm pack' is its only network access. Without the library palace embeds with
its pure-Go backend, about 30 times slower.`,
		Args: args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			home := g.home
			if home == "" {
				var err error
				if home, err = store.DefaultHome(); err != nil {
					return err
				}
			}
			dir := filepath.Join(home, "lib")
			if len(a) == 1 {
				dir = a[0]
			}
			cmd := exec.CommandContext(c.Context(), "bash", "-s", "--", dir)
			cmd.Stdin = strings.NewReader(embed.SetupScript)
			cmd.Stdout, cmd.Stderr = c.OutOrStdout(), c.ErrOrStderr()
			cmd.Env = append(os.Environ(), "PALACE_HOME="+home)
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("setup ort: %w", err)
			}
			return nil
		},
	}
	c.AddCommand(ort)
	return c
}
