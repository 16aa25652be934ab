package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/vectors"
)

func newMineCmd(g *globals) *cobra.Command {
	var (
		o         mine.Options
		asJSON    bool
		noBar     bool
		noVectors bool
		maxBytes  int64
	)
	c := &cobra.Command{
		Use:   "mine PATH",
		Short: "Mine a project folder or conversation exports into the palace (incremental)",
		Long: `Mine walks DIR honouring .gitignore (nested, with negations), .git/info/exclude
and .palaceignore, skips VCS and dependency folders, binary files, files over
--max-size and files that are not UTF-8, and stores the rest verbatim as
drawers of about 800 characters. Unchanged files are skipped; changed files
are replaced atomically; deleted or newly ignored files are pruned.

Chat exports (Claude Code and Codex session JSONL, Claude.ai and ChatGPT
conversations.json, Gemini CLI sessions, Slack exports) are recognised by
their content and stored verbatim as conversation drawers, one per exchange
(a user turn with its replies), with speakers and times. --mode convos also
reads plain-text transcripts ("> " user lines or "Name: text" lines).
PATH may be a single file. The wing is --wing, else palace.yaml in PATH,
else the folder name. An export that is only partly readable is reported
(file and line or byte offset) and its valid part is still mined.

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
			p, err := g.open()
			if err != nil {
				return err
			}
			defer p.Close()
			o.MaxSize = maxBytes
			o.Progress = progressFunc("mining", !noBar)
			sum, err := mine.Run(c.Context(), p, a[0], o)
			// The lexical index is committed; vectors follow as a second
			// phase, resumable, for what has none yet.
			var vec *vectors.Summary
			if err == nil && !noVectors {
				v, verr := fillVectors(c, p, 0, !noBar)
				if verr != nil {
					err = verr
				}
				vec = &v
			}
			if err == nil && sum != nil && len(sum.Errors) > 0 {
				err = fmt.Errorf("mine %s: %d export(s) only partly readable (their valid part was mined): %s: %s",
					a[0], len(sum.Errors), sum.Errors[0].Path, sum.Errors[0].Detail)
			}
			if sum != nil {
				if asJSON {
					if jerr := printJSON(c.OutOrStdout(), struct {
						*mine.Summary
						Vectors *vectors.Summary `json:"vectors,omitempty"`
					}{sum, vec}); jerr != nil {
						return jerr
					}
				} else {
					printSummary(c.OutOrStdout(), sum)
					if vec != nil {
						printVectorSummary(c.OutOrStdout(), *vec)
					}
				}
			}
			return inputErr(err)
		},
	}
	c.Flags().StringVar(&o.Wing, "wing", "", "wing to mine into (default: palace.yaml's wing, else the folder name)")
	c.Flags().Int64Var(&maxBytes, "max-size", mine.DefaultMaxSize, "skip project files larger than this many bytes")
	c.Flags().Int64Var(&o.MaxConvoSize, "max-convo-size", mine.DefaultMaxConvoSize, "skip conversation exports larger than this many bytes")
	c.Flags().StringVar(&o.Mode, "mode", mine.ModeAuto, "auto (files, plus JSON chat exports), projects (every text file as a file) or convos (conversations only, text transcripts included)")
	c.Flags().BoolVar(&asJSON, "json", false, "print the summary as JSON")
	c.Flags().BoolVar(&noBar, "no-progress", false, "do not draw a progress bar")
	c.Flags().BoolVar(&noVectors, "no-vectors", false, "skip the embedding phase (run 'palace reindex' later)")
	c.Flags().BoolVar(&o.KeepSecrets, "keep-secrets", false, "store secrets as found instead of redacting them (this run only)")
	return c
}

func printSummary(w io.Writer, s *mine.Summary) {
	fmt.Fprintf(w, "wing %s <- %s\n", s.Wing, s.Root)
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
		case mine.ReasonUnreadable, mine.ReasonInvalidUTF8, mine.ReasonTooLarge:
			if shown < 10 {
				fmt.Fprintf(w, "  %s: %s (%s)\n", k.Reason, k.Path, k.Detail)
			}
			shown++
		}
	}
	for _, e := range s.Errors {
		fmt.Fprintf(w, "error: %s: %s\n", e.Path, e.Detail)
	}
	if shown > 10 {
		fmt.Fprintf(w, "  ... and %d more (see --json)\n", shown-10)
	}
	printRedactions(w, s)
	fmt.Fprintf(w, "drawers: %d added, %d removed; %d sources pruned; %.1f MB in %.2fs\n",
		s.DrawersAdded, s.DrawersRemoved, s.SourcesPruned, float64(s.Bytes)/1e6, s.Seconds)
}

// printRedactions says what was redacted: counts by kind on one line, then
// the first places.
func printRedactions(w io.Writer, s *mine.Summary) {
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
		fmt.Fprintf(w, "  %s: %s:%d\n", r.Kind, r.Path, r.Line)
	}
}
