package main

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/ops"
)

func newMineCmd(g *globals) *cobra.Command {
	var (
		r      ops.MineRequest
		asJSON bool
		noBar  bool
	)
	c := &cobra.Command{
		Use:   "mine PATH",
		Short: "Mine a project folder or conversation exports into the palace (incremental)",
		Long: `Mine walks DIR honouring .gitignore (nested, with negations), .git/info/exclude
and .palaceignore, skips VCS and dependency folders, binary files, files over
--max-size and files that are not UTF-8, and stores the rest verbatim as
drawers of about 800 characters. Unchanged files are skipped; changed files
are replaced atomically; deleted or newly ignored files are pruned.
palace.yaml and .palaceignore configure the mine and are never drawers.

Chat exports (Claude Code and Codex session JSONL, Claude.ai and ChatGPT
conversations.json, Gemini CLI sessions, VS Code's GitHub Copilot Chat
sessions in workspaceStorage/*/chatSessions, Slack exports) are recognised by
their content and stored verbatim as conversation drawers, one per exchange
(a user turn with its replies), with speakers and times; a Slack export's
users.json and channels.json name its speakers and channels and are not
drawers. --mode convos also reads plain-text transcripts ("> " user lines or
"Name: text" lines; one "> " line is enough, as the mode says the files are
conversations), whose drawers hold the transcript's lines as they are.
PATH may be a single file. Your home folder, a folder holding it (/home,
/Users) and the file system root are refused (they hold every dotfile and
project) unless --allow-home-or-root; a project inside them is fine. The
wing is --wing, else palace.yaml in PATH, else the folder name. An export
that is only partly readable is reported (file and line or byte offset), its
valid part is still mined, and the exit code is 1.

Secrets are redacted before anything is stored: private key blocks, provider
tokens (AWS, GitHub, GitLab, Slack, Stripe, OpenAI, Anthropic, Google, npm,
PyPI, Hugging Face, SendGrid), JWTs, bearer and basic credentials, passwords
in URLs, values of secret-named keys (DB_PASSWORD=..., "apiKey": "...") and
random-looking values in assignments become a marker such as
[REDACTED:github-token], on the same line. The summary lists each (file, kind,
line). --keep-secrets stores files as they are, for this run: files mined in
the other mode are mined again even if unchanged.`,
		Example: `  palace mine ~/src/myproject
  palace mine . --wing myproject --json
  palace mine ~/.claude/projects --mode convos --wing sessions
  palace mine ~/Downloads/chatgpt/conversations.json --wing chats`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			// Bad flags are refused before the palace is opened or created.
			r.Path = a[0]
			if err := r.Validate(); err != nil {
				// Named as the flags the user typed, not as ops' fields.
				return input.Rename(mineOverride(err), map[string]string{"max_size": "--max-size", "max_convo_size": "--max-convo-size"})
			}
			p, err := g.open()
			if err != nil {
				return err
			}
			defer p.Close()
			r.Progress = progressFunc("mining", !noBar)
			r.EmbedProgress = progressFunc("embedding", !noBar)
			res, err := ops.Mine(c.Context(), p, r)
			// Not finish: a mine that stopped part way (cancelled, an
			// export partly readable) still prints what it did.
			if res.Summary != nil {
				if asJSON {
					if jerr := termsafe.WriteJSON(c.OutOrStdout(), res); jerr != nil && err == nil {
						err = jerr
					}
				} else {
					printSummary(c.OutOrStdout(), res.Summary)
					printMinedFacts(c.OutOrStdout(), res.Facts)
					if res.Vectors != nil {
						printVectorSummary(c.OutOrStdout(), *res.Vectors)
					}
				}
			}
			// A partly readable export is mined, but a script must notice.
			if err == nil && len(res.Errors) > 0 {
				err = fmt.Errorf("mine %s: %s", a[0], res.Notice)
			}
			return err
		},
	}
	c.Flags().StringVar(&r.Wing, "wing", "", "wing to mine into (default: palace.yaml's wing, else the folder name)")
	c.Flags().Int64Var(&r.MaxSize, "max-size", ops.DefaultMaxSize, "skip project files larger than this many bytes")
	c.Flags().Int64Var(&r.MaxConvoSize, "max-convo-size", ops.DefaultMaxConvoSize, "skip conversation exports larger than this many bytes")
	c.Flags().StringVar(&r.Mode, "mode", ops.MineAuto, "what to mine: "+ops.OneOf(ops.MineModes)+
		" (auto: files, plus JSON chat exports; projects: every text file as a file; convos: conversations only, text transcripts included)")
	c.Flags().BoolVar(&asJSON, "json", false, "print the summary as JSON")
	c.Flags().BoolVar(&noBar, "no-progress", false, "do not draw a progress bar")
	c.Flags().BoolVar(&r.NoVectors, "no-vectors", false, "skip the embedding phase (run 'palace reindex' later)")
	c.Flags().BoolVar(&r.KeepSecrets, "keep-secrets", false, "store secrets as found instead of redacting them (this run only)")
	c.Flags().BoolVar(&r.AllowHomeOrRoot, allowHomeOrRoot, false,
		"mine PATH even if it is your home folder, a folder holding it or the file system root (refused otherwise: it would store everything below it)")
	return c
}

// allowHomeOrRoot names what it allows, so a script that passes it says
// what it means; the MCP and LSP servers have no such switch.
const allowHomeOrRoot = "allow-home-or-root"

// mineOverride adds to a refusal of a home folder or the file system root
// the flag that mines it anyway.
func mineOverride(err error) error {
	if errors.Is(err, ops.ErrBroadFolder) {
		return fmt.Errorf("%w (--%s mines it anyway)", err, allowHomeOrRoot)
	}
	return err
}

func printSummary(w io.Writer, s *ops.MineSummary) {
	fmt.Fprintf(w, "wing %s <- %s\n", termsafe.Line(s.Wing), termsafe.Line(s.Root))
	fmt.Fprintf(w, "files: %d seen, %d mined, %d unchanged\n", s.FilesSeen, s.FilesMined, s.FilesUnchanged)
	reasons := make([]string, 0, len(s.SkippedBy))
	for r := range s.SkippedBy {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		fmt.Fprintf(w, "skipped %-12s %d\n", r+":", s.SkippedBy[r])
	}
	shown := 0
	for _, k := range s.Skipped {
		switch k.Reason {
		case ops.SkipUnreadable, ops.SkipInvalidUTF8, ops.SkipTooLarge:
			if shown < 10 {
				fmt.Fprintf(w, "  %s: %s (%s)\n", k.Reason, termsafe.Line(k.Path), termsafe.Line(k.Detail))
			}
			shown++
		}
	}
	for _, e := range s.Errors {
		fmt.Fprintf(w, "error: %s: %s\n", termsafe.Line(e.Path), termsafe.Line(e.Detail))
	}
	if shown > 10 {
		fmt.Fprintf(w, "  ... and %d more (see --json)\n", shown-10)
	}
	printRedactions(w, s)
	if s.ParseFallbacks > 0 {
		fmt.Fprintf(w, "parse fallbacks: %d source files did not parse and were cut by lines\n", s.ParseFallbacks)
	}
	fmt.Fprintf(w, "drawers: %d added, %d removed; %d sources pruned; %.1f MB in %.2fs\n",
		s.DrawersAdded, s.DrawersRemoved, s.SourcesPruned, float64(s.Bytes)/1e6, s.Seconds)
}

// printRedactions says what was redacted: counts by kind on one line, then
// the first places.
func printRedactions(w io.Writer, s *ops.MineSummary) {
	if s.KeepSecrets {
		fmt.Fprintln(w, "secrets: kept as found (--keep-secrets)")
		return
	}
	if len(s.Redactions) == 0 {
		return
	}
	kinds := make([]string, 0, len(s.RedactedByKind))
	for k := range s.RedactedByKind {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%s %d", k, s.RedactedByKind[k])
	}
	fmt.Fprintf(w, "redacted: %d secrets (%s); --keep-secrets stores them\n", len(s.Redactions), strings.Join(parts, ", "))
	for i, r := range s.Redactions {
		if i == 10 {
			fmt.Fprintf(w, "  ... and %d more (see --json)\n", len(s.Redactions)-10)
			break
		}
		fmt.Fprintf(w, "  %s: %s:%d\n", r.Kind, termsafe.Line(r.Path), r.Line)
	}
}
