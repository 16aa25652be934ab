package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

func newKGExtractCmd(g *globals) *cobra.Command {
	var (
		req    ops.KGExtractRequest
		conf   float64
		asJSON bool
	)
	c := &cobra.Command{
		Use:   ops.KGActionExtract,
		Short: "Read conversations, notes and diaries for facts, and propose them for review",
		Long: `Extract reads the conversation, note and diary drawers no extraction has read
yet (never code or project files) and proposes the facts their sentences
state: who works on, owns, decided, uses, moved to or prefers what, each with
the sentence and drawer it came from, a confidence and the date it was said.
Proposals wait in 'palace kg review'; none changes the graph until accepted.

Questions, negations ("we don't use X"), plans and hedges ("maybe we should
use X") propose nothing at the default confidence; a claim someone else made
("Bob said Carol owns X", a quotation) is proposed 0.15 below the plain
statement, and not at all when the text then denies it ("but that is
false"). A retraction ("Alice does not work on Orion anymore", "no longer",
"stopped using", "left") proposes ending the fact on the day it was said. Facts the graph holds, and
facts pending or rejected, are not proposed again. Mining, remember and diary
write read what they write within a time budget; extract reads the rest, and
stops and resumes safely.`,
		Example: `  palace kg extract
  palace kg extract --wing orion --json`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			if c.Flags().Changed("min-confidence") {
				req.MinConfidence = &conf
			}
			if err := req.Validate(); err != nil {
				return usageError{err}
			}
			return writeOp(c, g, asJSON, func(ctx context.Context, p *palace.Palace) (ops.KGExtractResult, error) {
				return ops.KGExtract(ctx, p, req)
			}, func(out io.Writer, res ops.KGExtractResult) {
				fmt.Fprintf(out, "read %d %s: %d new %s, %d already known\n", res.Read, plural(res.Read, "drawer", "drawers"),
					res.Proposed, plural(res.Proposed, "proposal", "proposals"), res.Known)
				for _, p := range res.Proposals {
					fmt.Fprintf(out, "  %s  %.2f  %s\n", p.ID, p.Confidence, describeProposal(p))
				}
				if res.Proposed > len(res.Proposals) {
					fmt.Fprintf(out, "  (first %d listed)\n", len(res.Proposals))
				}
				if res.Proposed > 0 {
					fmt.Fprintln(out, "review them with 'palace kg review'")
				}
			})
		},
	}
	c.Flags().StringVar(&req.Wing, "wing", "", "read only this wing")
	c.Flags().Float64Var(&conf, "min-confidence", ops.DefaultMinConfidence, "propose only facts at least this sure, 0 to 1")
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}

func newKGReviewCmd(g *globals) *cobra.Command {
	var (
		req    ops.KGReviewRequest
		conf   float64
		asJSON bool
	)
	setConf := func(c *cobra.Command) {
		if c.Flags().Changed("min-confidence") {
			req.MinConfidence = &conf
		}
	}
	run := func(c *cobra.Command, read bool) error {
		if err := req.Validate(); err != nil {
			return usageError{err}
		}
		open := withPalace[ops.KGReviewResult]
		if read {
			open = readPalace[ops.KGReviewResult]
		}
		res, err := open(g, func(p *palace.Palace) (ops.KGReviewResult, error) { return ops.KGReview(c.Context(), p, req) })
		return finish(c, asJSON, res, err, printReview)
	}
	c := &cobra.Command{
		Use:   ops.KGActionReview,
		Short: "List the facts proposed from what was said; accept or reject them",
		Long: `Review lists the pending proposals, most confident first, each with its id,
confidence, the sentence and drawer it came from, and what accepting it would
do: a proposal whose predicate holds one value at a time (owner, works_at,
...) and contradicts a current fact is a proposed supersession, naming the
fact it would end; a move ("we moved from MySQL to Postgres") and a
retraction ("we stopped using MySQL") name the fact they end.

'review accept ID...' writes the facts as 'kg add --supersede' would, with
their confidence and source drawer (audited); 'review accept
--min-confidence C' accepts every pending proposal at or above C, in the
order they were said, so a later value supersedes an earlier one.
'review reject ID...' drops them; a rejected fact is not proposed again.

Exit codes: 0 done, 1 error (an unknown id), 2 bad usage or input, 3 a
proposal still conflicts and stays pending (the others are accepted).`,
		Example: `  palace kg review
  palace kg review accept p_0123456789abcdef01234567
  palace kg review accept --min-confidence 0.9
  palace kg review reject p_0123456789abcdef01234567 --json`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			// The flag's default is the default limit, so a 0 was typed:
			// out of range, as it is over MCP (ops reads 0 as "not given").
			if req.Limit == 0 {
				return input.Invalid("limit", "0: want 1 to %d", ops.MaxReviewLimit)
			}
			req.Decision = ops.ReviewList
			setConf(c)
			return run(c, true)
		},
	}
	c.Flags().Float64Var(&conf, "min-confidence", 0, "list only proposals at least this sure")
	c.Flags().IntVar(&req.Limit, "limit", ops.DefaultReviewLimit, fmt.Sprintf("maximum number of proposals listed, 1 to %d", ops.MaxReviewLimit))
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	decide := func(decision, short string, byConfidence bool) *cobra.Command {
		d := &cobra.Command{
			Use:   decision + " ID...",
			Short: short,
			RunE: func(c *cobra.Command, a []string) error {
				req.Decision, req.IDs, req.Limit = decision, a, 0
				setConf(c)
				return run(c, false)
			},
		}
		if byConfidence {
			d.Use = decision + " (ID... | --min-confidence C)"
			d.Flags().Float64Var(&conf, "min-confidence", 0, "accept every pending proposal at least this sure")
		}
		d.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
		return d
	}
	c.AddCommand(decide(ops.ReviewAccept, "Accept proposals: write their facts (superseding what they name)", true),
		decide(ops.ReviewReject, "Reject proposals: they are not proposed again", false))
	return c
}

// describeProposal is a proposal's fact in one line, safe for a terminal.
func describeProposal(p ops.Proposal) string {
	s := fmt.Sprintf("%s %s %s (%s)", p.Subject, p.Predicate, p.Object, ops.FormatInterval(p.ValidFrom, nil))
	if p.Ends {
		s = fmt.Sprintf("end %s %s %s", p.Subject, p.Predicate, p.Object)
		if p.ValidFrom != nil {
			s += " on " + p.ValidFrom.UTC().Format(time.DateOnly)
		}
	}
	if p.Replaces != "" {
		s += ", instead of " + p.Replaces
	}
	return termsafe.Line(s)
}

func printReview(out io.Writer, r ops.KGReviewResult) {
	for _, it := range r.Pending {
		fmt.Fprintf(out, "%s  %.2f  %s\n", it.ID, it.Confidence, describeProposal(it.Proposal))
		for _, t := range it.Supersedes {
			fmt.Fprintf(out, "    supersedes %s\n", describeFact(t))
		}
		for _, t := range it.Ends {
			fmt.Fprintf(out, "    ends %s\n", describeFact(t))
		}
		if it.Known {
			fmt.Fprintln(out, "    already known: accepting writes nothing new")
		}
		if it.Blocked != "" {
			fmt.Fprintf(out, "    blocked: %s\n", termsafe.Line(it.Blocked))
		}
		fmt.Fprintf(out, "    \"%s\"  (drawer %s, wing %s)\n", termsafe.Line(it.Sentence), termsafe.Line(it.SourceDrawer), termsafe.Line(it.Wing))
	}
	for _, d := range r.Decided {
		switch {
		case d.Error != "":
			fmt.Fprintf(out, "left %s: %s\n", d.ID, termsafe.Line(d.Error))
		case d.Fact != nil:
			fmt.Fprintf(out, "accepted %s:\n", d.ID)
			printAddResult(indent{out}, *d.Fact)
			for _, t := range d.Ended {
				fmt.Fprintf(out, "  ended %s\n", describeFact(t))
			}
		default:
			fmt.Fprintf(out, "%s %s\n", d.Status, d.ID)
			for _, t := range d.Ended {
				fmt.Fprintf(out, "  ended %s\n", describeFact(t))
			}
		}
	}
	if r.Decision == ops.ReviewList && r.Total > len(r.Pending) {
		fmt.Fprintf(out, "(%d of %d pending listed; raise --limit for more)\n", len(r.Pending), r.Total)
	}
	fmt.Fprintf(out, "%d %s pending\n", r.Total, plural(r.Total, "proposal", "proposals"))
}

// indent writes each line two spaces in.
type indent struct{ w io.Writer }

func (i indent) Write(b []byte) (int, error) {
	if _, err := i.w.Write(append([]byte("  "), b...)); err != nil {
		return 0, err
	}
	return len(b), nil
}

// printProposed lists the facts a write proposed, after its own answer.
func printProposed(out io.Writer, ps []ops.Proposal) {
	if len(ps) == 0 {
		return
	}
	fmt.Fprintf(out, "proposed for review ('palace kg review'):\n")
	for _, p := range ps {
		fmt.Fprintf(out, "  %s  %.2f  %s\n", p.ID, p.Confidence, describeProposal(p))
	}
}

// printMinedFacts says what reading a mine's new drawers proposed.
func printMinedFacts(out io.Writer, f *ops.KGExtractResult) {
	if f == nil || (f.Read == 0 && f.Left == 0) {
		return
	}
	fmt.Fprintf(out, "facts: %d %s read, %d proposed for review ('palace kg review')", f.Read, plural(f.Read, "drawer", "drawers"), f.Proposed)
	if f.Left > 0 {
		fmt.Fprintf(out, "; %d left for 'palace kg extract'", f.Left)
	}
	fmt.Fprintln(out)
}
