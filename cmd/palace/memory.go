package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

// textArg is the text of a note or diary entry: the arguments joined by
// spaces, or standard input when the only argument is "-".
func textArg(c *cobra.Command, a []string) (string, error) {
	if len(a) == 1 && a[0] == "-" {
		return ops.ReadText(c.InOrStdin())
	}
	return strings.Join(a, " "), nil
}

// printRedacted tells, when a note or diary entry had secrets, that they
// were replaced by markers before it was stored, and their kinds.
func printRedacted(out io.Writer, kinds []string) {
	if len(kinds) > 0 {
		fmt.Fprintf(out, "redacted %d secret(s) before storing: %s\n", len(kinds), strings.Join(kinds, ", "))
	}
}

// flagNames are the flags that set a note's or diary query's fields, for
// naming them in errors ("--wing is empty" tells what to add; "wing is
// empty" did not).
var flagNames = map[string]string{"wing": "--wing", "room": "--room", "source": "--source", "importance": "--importance",
	"topic": "--topic", "last": "--last", "since": "--since"}

func newRememberCmd(g *globals) *cobra.Command {
	var (
		r      ops.RememberRequest
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "remember TEXT... --wing WING",
		Short: "Add a note to a wing, unless the wing already holds it",
		Long: `Remember files TEXT (the arguments joined by spaces, or standard input when
TEXT is "-") as a note drawer in WING, room --room (default "notes").

Before writing, it looks for duplicates in the wing: the same text (surrounding
white space aside), then near drawers, sharing most of the note's content words
(cosine of the two word sets 0.8 or more; one word in ten changed scores 0.9)
or, when the palace has vectors, with an embedding cosine of 0.9 or more.

A near drawer is a duplicate only when it differs from the note in wording
alone: case, punctuation, word order, stop words, an inflection (database and
databases, use and using), a typo (databse, recieve) or a filler word (also,
really, please, now). Then the note is not written, unless --force: palace
prints "not written: ..." with the duplicates and exits 0 (the wing already
says it), and --json prints "added": false.

Any other difference makes it another note: a negation ("Do not use port 8080"
after "Use port 8080"), a number (8080 and 9090; eleven is 11), a date or time,
a version (v1.2 and v1.3), an environment (production and staging; prod is
production), a name (Alice, an acronym, an identifier such as max_conns), any
other content word one has and the other lacks (decrease for increase, clang
for gcc, develop for main, late for early, an added qualifier; a synonym
counts too, since no rule tells it from an antonym), an opposed stop word
(after for before, off for on) or the same words in swapped roles (from npm to
pnpm, from pnpm to npm). The note is written, and the older drawer is listed
as one it may update ("written; it may update d_... (differs: word;
increase → decrease)"; --json: "reason": "kept: differs from d_... in ...",
and "updates", each with "differs", "was" and "now"): forget the older one if
the new note replaces it. A duplicate of a note that a newer close note
changed (increase, then decrease, then increase again) is written too, so the
decision said last is the newest note.

Secrets in the text (tokens, keys, passwords; see 'palace mine --help') are
replaced by a marker such as [REDACTED:github-token] before the duplicate
check and the write; --json lists their kinds under "redacted".

Text is at most 1 MiB of UTF-8. Wing and room names cannot contain '/' or
'"'.

Exit codes: 0 done (written, or skipped as a duplicate), 1 error, 2 bad usage
or input (nothing written).`,
		Example: `  palace remember "We deploy with pnpm, never npm." --wing myproject --importance 4
  git log -1 --format=%B | palace remember - --wing myproject --room decisions --source git
  palace remember "Deploys happen on Fridays." --wing ops --force --json`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			var err error
			if r.Text, err = textArg(c, a); err != nil {
				return err
			}
			// Bad input is refused before the palace is opened.
			if err := r.Validate(); err != nil {
				return input.Rename(err, flagNames)
			}
			res, err := withPalace(g, func(p *palace.Palace) (ops.RememberResult, error) {
				return ops.Remember(c.Context(), p, r)
			})
			return finish(c, asJSON, res, input.Rename(err, flagNames), func(out io.Writer, res ops.RememberResult) {
				printRemembered(out, c.ErrOrStderr(), res, r.Force)
			})
		},
	}
	c.Flags().StringVar(&r.Wing, "wing", "", "wing to file the note in (required)")
	c.Flags().StringVar(&r.Room, "room", "", "room (default \""+ops.DefaultRoom+"\")")
	c.Flags().StringVar(&r.Source, "source", "", "where the note comes from, shown as its citation (default \""+ops.DefaultSource+"\")")
	c.Flags().IntVar(&r.Importance, "importance", ops.DefaultImportance,
		fmt.Sprintf("%d to %d; wake-up shows the most important notes first", ops.MinImportance, ops.MaxImportance))
	c.Flags().BoolVar(&r.Force, "force", false, "write even if the wing already holds the note or a near duplicate")
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}

// printRemembered prints what remember did: the notice (on errOut), the
// secrets redacted, the note written or why not, the notes it may update
// and the facts it proposes.
func printRemembered(out, errOut io.Writer, res ops.RememberResult, force bool) {
	if res.Notice != "" {
		fmt.Fprintln(errOut, "palace: "+termsafe.Line(res.Notice))
	}
	printRedacted(out, res.Redacted)
	if res.Added {
		fmt.Fprintf(out, "remembered %s in %s/%s\n", res.ID, termsafe.Line(res.Wing), termsafe.Line(res.Room))
		for _, u := range res.Updates {
			fmt.Fprintf(out, "written; it may update %s (differs: %s; %s)\n", u.ID, strings.Join(u.Differs, ", "), termsafe.Line(u.Change()))
			printMatch(out, u.Match)
		}
		switch {
		case len(res.Duplicates) == 0:
		case force:
			fmt.Fprintln(out, "written despite these duplicates (--force):")
		default:
			// A decision said again after a newer note changed it.
			fmt.Fprintln(out, "written again: it repeats these, which the note above changed since:")
		}
	} else {
		what := "this note"
		if res.Duplicates[0].Kind != "exact" {
			what = "something close to this note"
		}
		fmt.Fprintf(out, "not written: wing %s already holds %s (use --force to add it anyway):\n", termsafe.Line(res.Wing), what)
	}
	for _, m := range res.Duplicates {
		printMatch(out, m)
	}
	printProposed(out, res.Proposed)
}

// printMatch prints a drawer close to a note: how close, where, and its
// start.
func printMatch(out io.Writer, m ops.NoteMatch) {
	how := "exact"
	if m.Kind != "exact" {
		how = fmt.Sprintf("near %.2f (%s)", m.Similarity, m.Method)
	}
	fmt.Fprintf(out, "  %s  %s  [%s/%s] %s\n    %s\n", how, termsafe.Line(m.ID), termsafe.Line(m.Wing), termsafe.Line(m.Room), termsafe.Line(m.Citation), termsafe.Line(m.Preview))
}

func newDiaryCmd(g *globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "diary",
		Short: "Per-agent diaries: dated entries an agent writes and reads back",
		Long: `A diary entry is a drawer of kind diary, stamped with the time it was written
(UTC, to the second). It goes to the agent's own wing, "diary-<agent>" (or the
diary wing 'palace agent add' registered for it), unless --wing names another,
in room --topic (default "journal"). Agents are told
apart by their name lower-cased, with runs of other characters than letters,
digits, '_', '.' and '-' made '-' ("Claude Code" is "claude-code").`,
	}
	needsSubcommand(c)
	c.AddCommand(newDiaryWriteCmd(g), newDiaryReadCmd(g))
	return c
}

func newDiaryWriteCmd(g *globals) *cobra.Command {
	var (
		e      ops.DiaryWriteRequest
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "write AGENT TEXT...",
		Short: "Write a diary entry (TEXT \"-\" reads standard input)",
		Example: `  palace diary write claude "Fixed the flaky WAL test; root cause was the checkpoint."
  palace diary write claude "Chose RRF for hybrid search." --topic search --wing myproject`,
		Args: args(cobra.MinimumNArgs(2)),
		RunE: func(c *cobra.Command, a []string) error {
			var err error
			e.Agent = a[0]
			if e.Text, err = textArg(c, a[1:]); err != nil {
				return err
			}
			if err := e.Validate(); err != nil {
				return input.Rename(err, flagNames)
			}
			res, err := withPalace(g, func(p *palace.Palace) (ops.DiaryWriteResult, error) {
				return ops.DiaryWrite(c.Context(), p, e)
			})
			return finish(c, asJSON, res, input.Rename(err, flagNames), func(out io.Writer, res ops.DiaryWriteResult) {
				printRedacted(out, res.Redacted)
				verb := "wrote"
				if !res.Added {
					verb = "already written:"
				}
				fmt.Fprintf(out, "%s %s to %s/%s at %s\n", verb, termsafe.Line(res.ID), termsafe.Line(res.Wing), termsafe.Line(res.Topic), res.At.Format("2006-01-02T15:04:05Z"))
				printProposed(out, res.Proposed)
			})
		},
	}
	c.Flags().StringVar(&e.Topic, "topic", "", "the entry's topic, its room (default \""+ops.DefaultTopic+"\")")
	c.Flags().StringVar(&e.Wing, "wing", "", "file the entry in this wing (default: the agent's own, diary-<agent> or its registered diary wing)")
	c.Flags().BoolVar(&asJSON, "json", false, "print the entry as JSON")
	return c
}

func newDiaryReadCmd(g *globals) *cobra.Command {
	var (
		q      ops.DiaryReadRequest
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "read AGENT",
		Short: "Print an agent's latest diary entries, oldest first",
		Long: `Read prints the agent's latest --last entries, wherever they were filed
(--wing narrows to one wing), oldest first so they read as a journal.
--since is YYYY-MM-DD (that day's start, UTC) or an RFC 3339 time.`,
		Example: `  palace diary read claude --last 5
  palace diary read claude --since 2026-05-01 --json`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			q.Agent = a[0]
			// 0 means the default to ops, as an absent "last" does in MCP;
			// here the flag has its default, so 0 was typed, and is refused
			// as MCP refuses "last": 0.
			if q.Last == 0 {
				return input.Invalid("--last", "0: want 1 to %d", ops.MaxDiaryLast)
			}
			if err := q.Validate(); err != nil {
				return input.Rename(err, flagNames)
			}
			res, err := readPalace(g, func(p *palace.Palace) (ops.DiaryReadResult, error) {
				return ops.DiaryRead(c.Context(), p, q)
			})
			return finish(c, asJSON, res, input.Rename(err, flagNames), func(out io.Writer, res ops.DiaryReadResult) {
				if len(res.Entries) == 0 {
					fmt.Fprintf(out, "no diary entries for %s\n", termsafe.Line(res.AgentID))
					return
				}
				if res.More {
					fmt.Fprintf(out, "(older entries not shown; raise --last)\n")
				}
				for _, e := range res.Entries {
					fmt.Fprintf(out, "%s  [%s/%s]  %s\n", e.At.Format("2006-01-02 15:04:05Z"), termsafe.Line(e.Wing), termsafe.Line(e.Topic), termsafe.Line(e.ID))
					fmt.Fprintf(out, "  %s\n", strings.ReplaceAll(termsafe.Text(e.Text), "\n", "\n  "))
				}
			})
		},
	}
	c.Flags().IntVar(&q.Last, "last", ops.DefaultDiaryLast, fmt.Sprintf("how many of the latest entries, at most %d", ops.MaxDiaryLast))
	c.Flags().StringVar(&q.Since, "since", "", "only entries written from this time on: "+ops.DateLayout+" or RFC 3339")
	c.Flags().StringVar(&q.Wing, "wing", "", "only entries filed in this wing")
	c.Flags().BoolVar(&asJSON, "json", false, "print the entries as JSON")
	return c
}
