package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

func newModelCmd(g *globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "model",
		Short: "Choose the embedding model: pull one from Hugging Face or use a local sentence-transformers ONNX folder",
	}
	needsSubcommand(c)
	c.AddCommand(newModelPullCmd(g), newModelUseCmd(g), newModelListCmd(g))
	return c
}

func newModelPullCmd(g *globals) *cobra.Command {
	var (
		revision string
		use      bool
		asJSON   bool
		noBar    bool
	)
	c := &cobra.Command{
		Use:   "pull [NAME]",
		Short: "Download a sentence-transformers ONNX model from Hugging Face into $PALACE_HOME/models",
		Long: `Pull downloads the ONNX export of a sentence-transformers model (onnx/model.onnx
or model.onnx, tokenizer.json, config.json and sentence_bert_config.json if
present) from Hugging Face into $PALACE_HOME/models/OWNER__MODEL, loads it
once to check it, and only then moves it into place: an interrupted pull
leaves no half model, and running it again resumes where it stopped.

NAME defaults to ` + ops.DefaultModel + ` (384-d, English, ~90 MB).
For Chinese or mixed-language palaces use
sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2 (384-d, 50+
languages, ~470 MB).

HF_ENDPOINT selects a mirror (e.g. https://hf-mirror.com) and HF_TOKEN is
sent as a bearer token for gated or private models. A model already pulled
is not fetched again (delete its folder to re-pull). Without network the
pull fails with one line and nothing else changes.

Then 'palace model use NAME' (or --use) records it for this palace, and
'palace reindex' embeds what the palace already holds.`,
		Args: args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			req := ops.ModelPullRequest{Revision: revision}
			if len(a) == 1 {
				req.Name = a[0]
			}
			home, err := palace.ResolveHome(g.home)
			if err != nil {
				return err
			}
			var bar *progressbar.ProgressBar
			if !noBar && term.IsTerminal(int(os.Stderr.Fd())) {
				req.Progress = func(done, total int64) {
					if bar == nil {
						bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(os.Stderr),
							progressbar.OptionSetDescription("pull "+req.Model()), progressbar.OptionShowBytes(true),
							progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
					}
					bar.Set64(done)
				}
			}
			res, err := ops.ModelPull(c.Context(), home, req)
			if bar != nil {
				// Clear, not Finish, so an error starts on a clean line.
				bar.Clear()
			}
			if err == nil && use {
				var u ops.ModelUseResult
				u, err = withPalace(g, func(p *palace.Palace) (ops.ModelUseResult, error) {
					return ops.ModelUse(c.Context(), p, ops.ModelUseRequest{Model: res.Dir})
				})
				res.Used, res.Embeddings = err == nil, u.Embeddings
			}
			return finish(c, asJSON, res, err, func(out io.Writer, res ops.ModelPullResult) {
				if res.Already {
					fmt.Fprintf(out, "%s is already in %s (delete that folder to pull it again)\n", res.Name, res.Dir)
				} else {
					fmt.Fprintf(out, "pulled %s into %s\n", res.Name, res.Dir)
				}
				if use {
					fmt.Fprintf(out, "model %s recorded; %s\n", res.Dir, res.Embeddings)
					fmt.Fprintf(out, "next: %s reindex\n", palaceInvocation(g))
				} else {
					fmt.Fprintf(out, "next: %s model use %s, then %s reindex\n", palaceInvocation(g), res.Name, palaceInvocation(g))
				}
			})
		},
	}
	c.Flags().StringVar(&revision, "revision", "", "branch, tag or commit to pull (default main); ignored if the model is already pulled")
	c.Flags().BoolVar(&use, "use", false, "also record the model for this palace, like 'palace model use'")
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	c.Flags().BoolVar(&noBar, "no-progress", false, "no progress bar")
	return c
}

// palaceInvocation is "palace", with --home when one was given, so a
// printed next step works when pasted.
func palaceInvocation(g *globals) string {
	if g.home == "" {
		return "palace"
	}
	return "palace --home " + shellQuote(g.home)
}

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func newModelUseCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "use NAME|DIR",
		Short: "Load a pulled model or a model folder once to check it, then record it for this palace",
		Long: `Use checks that the model loads and records it, so every later command embeds
with it. The argument is a model pulled with 'palace model pull' (e.g.
` + ops.DefaultModel + `) or a folder holding model.onnx or
onnx/model.onnx, tokenizer.json and config.json; an existing folder wins.
PALACE_MODEL_DIR and --model-dir still override it. After a change of model,
run 'palace reindex'.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			return writeOp(c, g, false, func(ctx context.Context, p *palace.Palace) (ops.ModelUseResult, error) {
				return ops.ModelUse(ctx, p, ops.ModelUseRequest{Model: a[0]})
			}, func(out io.Writer, res ops.ModelUseResult) {
				fmt.Fprintf(out, "model %s recorded; %s\n", res.Dir, res.Embeddings)
			})
		},
	}
}

func newModelListCmd(g *globals) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "list",
		Short: "Show the model in use and the models under $PALACE_HOME/models",
		Args:  args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			return writeOp(c, g, asJSON, ops.ModelList, func(out io.Writer, res ops.ModelListResult) {
				if res.InUse == "" {
					fmt.Fprintln(out, "in use: none ("+ops.NoModelHint+")")
				} else {
					fmt.Fprintln(out, "in use:", res.InUse)
				}
				for _, m := range res.Models {
					mark := ""
					if m.InUse {
						mark = " (in use)"
					}
					fmt.Fprintf(out, "available: %s  %s%s\n", m.Name, m.Dir, mark)
				}
				for _, n := range res.Partial {
					fmt.Fprintf(out, "partial: %s (run 'palace model pull %s' to resume)\n", n, n)
				}
				if len(res.Models) == 0 && len(res.Partial) == 0 {
					fmt.Fprintf(out, "none pulled: run 'palace model pull' for %s\n", ops.DefaultModel)
				}
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
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
			home, err := palace.ResolveHome(g.home)
			if err != nil {
				return err
			}
			dir := filepath.Join(home, "lib")
			if len(a) == 1 {
				dir = a[0]
			}
			cmd := exec.CommandContext(c.Context(), "bash", "-s", "--", dir)
			cmd.Stdin = strings.NewReader(ops.SetupScript)
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
