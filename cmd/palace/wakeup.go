package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

func newWakeUpCmd(g *globals) *cobra.Command {
	var (
		r      ops.WakeUpRequest
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "wake-up",
		Short: "Print the context that opens a session: who the agent is and the project's handoff, within a token budget",
		Long: `Wake-up prints what an agent should know at the start of a session, in at
most --budget tokens; the SessionStart hook, the MCP tool palace_wake_up and
the editors' palace/wakeUp give the same text. Its sections:

  Identity          $PALACE_HOME/identity.md, then $PALACE_HOME/identity/WING.md
                    when --wing is given (either may be missing). Cut at a
                    word when it alone exceeds the budget.
  Decided           the wing's notes in force, most important first
                    (--importance of 'palace remember'), then the newest. A
                    note that a newer close note corrects or changes (a
                    negation, a number, a word; "Correction: ...") is left
                    out and the newer one says "(was: ...)" or "(replaces
                    an earlier note)"; a note said again shows once.
  Facts now         its knowledge-graph facts valid now (read from its
                    drawers or naming the wing).
  Recent sessions   its latest diary entries, newest first.
  Open threads      the "Open: ..." / "TODO: ..." / "Next: ..." items of the
                    newest diary entry listing any.
  Drawers           its mined drawers, newest first: what was said in
                    sessions (without tool calls, tool output or code) and
                    documents. Source code only when nothing else shows.
  Agents            the specialist agents working here or palace-wide.

Items are taken in turn from every section but Drawers, which gets what is
left; an item that does not fit is skipped. Tokens are counted on the
printed text with AAAK's counter: the pieces of a cl100k-style
pre-tokenizer (about one per word, number group or punctuation run). Real
tokenizers split rare words further, so leave some slack.

Without --budget, a project sets its own: the nearest palace.yaml at or
above the working directory, when it is --wing's, may say

  wake_up:
    budget: 800

else the budget is ` + fmt.Sprint(ops.DefaultWakeBudget) + ` tokens.

The output depends only on the palace: the same palace prints the same text.
--format json prints the selection with the text rendering and its token
count.`,
		Example: `  palace wake-up --wing myproject
  palace wake-up --wing myproject --format aaak --budget 400
  palace wake-up --json`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			if asJSON {
				if c.Flags().Changed("format") && strings.ToLower(r.Format) != ops.WakeJSON {
					return usageError{fmt.Errorf("--json and --format %s disagree", r.Format)}
				}
				r.Format = ops.WakeJSON
			}
			if c.Flags().Changed("budget") {
				if err := ops.CheckGiven("budget", r.Budget, ops.MaxWakeBudget); err != nil {
					return flagError(c, err)
				}
			} else if wd, err := os.Getwd(); err == nil {
				// A working directory that is gone has no palace.yaml to read.
				r.Dir = wd
			}
			if err := r.Validate(); err != nil {
				return flagError(c, err)
			}
			res, err := readPalace(g, func(p *palace.Palace) (ops.WakeResult, error) {
				return ops.WakeUp(c.Context(), p, r)
			})
			// The format as the operation read it (any case, spaces).
			return finish(c, res.Format == ops.WakeJSON, res, err, func(out io.Writer, res ops.WakeResult) {
				if res.Text == "" {
					fmt.Fprintln(c.ErrOrStderr(), "palace: nothing to wake up with: write $PALACE_HOME/identity.md, remember notes or mine a project (or raise --budget)")
					return
				}
				// The text quotes drawers verbatim: its own line breaks and
				// tabs stay, other control characters are escaped.
				io.WriteString(out, termsafe.Text(res.Text)+"\n")
			})
		},
	}
	c.Flags().StringVar(&r.Wing, "wing", "", "the wing to wake up in (default: the whole palace); one the palace holds")
	c.Flags().StringVar(&r.Format, "format", ops.WakeText, ops.OneOf(ops.WakeFormats)+" (aaak: one AAAK document; json: the selection and the text)")
	c.Flags().IntVar(&r.Budget, "budget", 0, fmt.Sprintf("the most tokens to print, 1 to %d (default: the project's palace.yaml wake_up.budget, else %d)", ops.MaxWakeBudget, ops.DefaultWakeBudget))
	c.Flags().BoolVar(&asJSON, "json", false, "same as --format json")
	return c
}
