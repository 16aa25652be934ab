package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/palace"
)

// modelsDir is where `palace model pull` stores models and where `palace
// model use NAME` and `palace model list` look for them.
func modelsDir(home string) string { return filepath.Join(home, "models") }

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

NAME defaults to ` + embed.DefaultModel + ` (384-d, English, ~90 MB).
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
			name := embed.DefaultModel
			if len(a) == 1 {
				name = a[0]
			}
			dirName, err := embed.ModelDirName(name)
			if err != nil {
				return usageError{err}
			}
			home, err := palace.ResolveHome(g.home)
			if err != nil {
				return err
			}
			root, err := filepath.Abs(modelsDir(home))
			if err != nil {
				return err
			}
			_, statErr := os.Stat(filepath.Join(root, dirName))
			already := statErr == nil

			opts := embed.PullOptionsFromEnv()
			opts.Revision = revision
			// A flaky connection resumes a few times before giving up;
			// the next run resumes too.
			opts.Retries = 3
			var bar *progressbar.ProgressBar
			if !already && !noBar && term.IsTerminal(int(os.Stderr.Fd())) {
				opts.Progress = func(done, total int64) {
					if bar == nil {
						bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(os.Stderr),
							progressbar.OptionSetDescription("pull "+name), progressbar.OptionShowBytes(true),
							progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
					}
					bar.Set64(done)
				}
			}
			dir, err := embed.Pull(c.Context(), name, root, opts)
			if bar != nil {
				// Clear, not Finish, so an error starts on a clean line.
				bar.Clear()
			}
			if err != nil {
				return err
			}

			res := pullResult{Name: name, Dir: dir, Already: already}
			if use {
				p, err := g.open()
				if err != nil {
					return err
				}
				defer p.Close()
				choice, err := p.UseModel(c.Context(), dir)
				if err != nil {
					return err
				}
				res.Used, res.Embeddings = true, choice.String()
			}
			if asJSON {
				return printJSON(c.OutOrStdout(), res)
			}
			out := c.OutOrStdout()
			if already {
				fmt.Fprintf(out, "%s is already in %s (delete that folder to pull it again)\n", name, dir)
			} else {
				fmt.Fprintf(out, "pulled %s into %s\n", name, dir)
			}
			if use {
				fmt.Fprintf(out, "model %s recorded; %s\n", dir, res.Embeddings)
				fmt.Fprintf(out, "next: %s reindex\n", palaceInvocation(g))
			} else {
				fmt.Fprintf(out, "next: %s model use %s, then %s reindex\n", palaceInvocation(g), name, palaceInvocation(g))
			}
			return nil
		},
	}
	c.Flags().StringVar(&revision, "revision", "", "branch, tag or commit to pull (default main); ignored if the model is already pulled")
	c.Flags().BoolVar(&use, "use", false, "also record the model for this palace, like 'palace model use'")
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	c.Flags().BoolVar(&noBar, "no-progress", false, "no progress bar")
	return c
}

// pullResult is what `palace model pull --json` prints.
type pullResult struct {
	Name       string `json:"name"`
	Dir        string `json:"dir"`
	Already    bool   `json:"already"`              // pulled before; nothing downloaded
	Used       bool   `json:"used"`                 // recorded for the palace (--use)
	Embeddings string `json:"embeddings,omitempty"` // the backend notice, with --use
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
` + embed.DefaultModel + `) or a folder holding model.onnx or
onnx/model.onnx, tokenizer.json and config.json; an existing folder wins.
PALACE_MODEL_DIR and --model-dir still override it. After a change of model,
run 'palace reindex'.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			p, err := g.open()
			if err != nil {
				return err
			}
			defer p.Close()
			dir, err := modelArg(p.Store.Home(), a[0])
			if err != nil {
				return err
			}
			choice, err := p.UseModel(c.Context(), dir)
			if err != nil {
				return err
			}
			fmt.Fprintf(c.OutOrStdout(), "model %s recorded; %s\n", choice.ModelDir, choice)
			return nil
		},
	}
}

// modelArg resolves `palace model use ARG`: an existing folder as given,
// else a model pulled under home/models, else ARG itself so that UseModel
// reports the missing folder as it always has. A Hugging Face style name
// that is neither gets a hint to pull it instead.
func modelArg(home, arg string) (string, error) {
	if st, err := os.Stat(arg); err == nil && st.IsDir() {
		return arg, nil
	}
	dirName, err := embed.ModelDirName(arg)
	if err != nil {
		return arg, nil
	}
	pulled := filepath.Join(modelsDir(home), dirName)
	if st, err := os.Stat(pulled); err == nil && st.IsDir() {
		return pulled, nil
	}
	if strings.Contains(arg, "/") {
		return "", fmt.Errorf("model %s: no such folder, and not pulled into %s; run 'palace model pull %s'", arg, modelsDir(home), arg)
	}
	return arg, nil
}

// pulledModel is one folder under $PALACE_HOME/models.
type pulledModel struct {
	Name  string `json:"name"`
	Dir   string `json:"dir"`
	InUse bool   `json:"in_use"`
}

func newModelListCmd(g *globals) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   "list",
		Short: "Show the model in use and the models under $PALACE_HOME/models",
		Args:  args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			p, err := g.open()
			if err != nil {
				return err
			}
			defer p.Close()
			inUse := p.EmbedConfig().ModelDir
			models, partial, err := listModels(modelsDir(p.Store.Home()), inUse)
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(c.OutOrStdout(), struct {
					InUse   string        `json:"in_use"`
					Models  []pulledModel `json:"models"`
					Partial []string      `json:"partial"`
				}{inUse, models, partial})
			}
			out := c.OutOrStdout()
			if inUse == "" {
				fmt.Fprintln(out, "in use: none ("+embed.NoModelHint+")")
			} else {
				fmt.Fprintln(out, "in use:", inUse)
			}
			for _, m := range models {
				mark := ""
				if m.InUse {
					mark = " (in use)"
				}
				fmt.Fprintf(out, "available: %s  %s%s\n", m.Name, m.Dir, mark)
			}
			for _, n := range partial {
				fmt.Fprintf(out, "partial: %s (run 'palace model pull %s' to resume)\n", n, n)
			}
			if len(models) == 0 && len(partial) == 0 {
				fmt.Fprintf(out, "none pulled: run 'palace model pull' for %s\n", embed.DefaultModel)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	return c
}

// listModels reads root: the model folders (those with config.json) and the
// names of unfinished pulls. A missing root is an empty list.
func listModels(root, inUse string) (models []pulledModel, partial []string, err error) {
	models, partial = []pulledModel{}, []string{}
	ents, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return models, partial, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("list models: %w", err)
	}
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if _, err := os.Stat(filepath.Join(dir, "config.json")); err != nil {
			continue
		}
		models = append(models, pulledModel{
			Name:  embed.ModelNameFromDir(e.Name()),
			Dir:   dir,
			InUse: inUse != "" && filepath.Clean(inUse) == dir,
		})
	}
	if ents, err := os.ReadDir(embed.PartialDir(root, "")); err == nil {
		for _, e := range ents {
			if e.IsDir() {
				partial = append(partial, embed.ModelNameFromDir(e.Name()))
			}
		}
	}
	return models, partial, nil
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
