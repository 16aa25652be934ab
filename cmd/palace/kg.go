package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

// exitConflict is palace's exit code for ops.ErrConflict: "the fact
// contradicts the graph; nothing was written" (kg add, kg check).
const exitConflict = 3

const kgLong = `The knowledge graph holds dated facts: SUBJECT PREDICATE OBJECT, true from
valid_from (included) until valid_to (excluded). No --from means "since
always", no --to "still true".

Dates are YYYY-MM-DD or RFC 3339 times (2026-05-01T09:30:00Z; an offset is
converted to UTC; no offset means UTC). A date-only --from or --as-of is the
start of that day; a date-only --to or --ended keeps the fact true through
that whole day, and is shown as that day ("until 2024-03-31"; --json holds
the exclusive end, 2024-04-01T00:00:00Z).

Names are matched ignoring case, apostrophes and spacing ("Alice Smith" is
"alice_smith") and shown as first written.

Functional predicates (works_at, lives_in, role, status, owner by default;
see 'palace kg functional') hold one value at a time. Adding a different
value whose dates overlap a stored one is a conflict: nothing is written and
palace exits with code 3, unless --supersede closes the stored facts at the
new fact's --from. Restating a stored fact writes nothing (or widens its
dates).

Exit codes: 0 done, 1 error, 2 bad usage or input, 3 conflict (nothing written).`

func newKGCmd(g *globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "kg",
		Short: "Temporal knowledge graph: dated facts with contradiction checks",
		Long:  kgLong,
	}
	needsSubcommand(c)
	c.AddCommand(newKGAddCmd(g, false), newKGAddCmd(g, true), newKGInvalidateCmd(g), newKGQueryCmd(g),
		newKGTimelineCmd(g), newKGStatsCmd(g), newKGFunctionalCmd(g), newKGExtractCmd(g), newKGReviewCmd(g))
	c.AddCommand(newKGEntityCmd(g), newKGTraverseCmd(g), newKGRmCmd(g))
	return c
}

func newKGAddCmd(g *globals, check bool) *cobra.Command {
	var (
		req    ops.KGAddRequest
		conf   float64
		asJSON bool
	)
	c := &cobra.Command{
		Use:   ops.KGActionAdd + " SUBJECT PREDICATE OBJECT",
		Short: "Record a dated fact (exit 3 on a conflict: nothing written)",
		Long: `Record a fact. If PREDICATE is functional and SUBJECT already has another
value whose dates overlap, nothing is written, the conflicting facts are
listed and palace exits with code 3; --supersede instead closes them at the
new fact's --from (at the current time when --from is not given) and records
the fact. Restating a stored fact writes nothing ("already known"), or widens
the stored fact's dates ("merged").

Exit codes: 0 done, 1 error, 2 bad usage or input, 3 conflict (nothing written).`,
		Example: `  palace kg add Alice works_at Acme --from 2020-01-01
  palace kg add Alice works_at Globex --from 2023-06-01 --supersede
  palace kg add "Alice Smith" lives_in Paris --from 2015-03-01 --to 2019-08-31 --json`,
		Args: args(cobra.ExactArgs(3)),
	}
	if check {
		c.Use = ops.KGActionCheck + " [SUBJECT PREDICATE OBJECT]"
		c.Short = "Say what 'kg add' would do, writing nothing (exit 3 if it would conflict); alone, list the graph's contradictions"
		c.Long = `Check answers what 'palace kg add' would do with the same arguments, without
writing: add, already known, merge, or conflict (listing the facts it would
contradict, exit code 3). With --supersede it lists the facts that would be
closed.

Without arguments it checks the graph itself: it lists every functional
predicate holding different values over overlapping dates, and which value
is current (the one that starts later). 'kg add' never writes such a pair; a
team sync or an import can, keeping both facts (exit code 3 when there is one).

Exit codes: 0 no conflict, 1 error, 2 bad usage or input, 3 would conflict
(or the graph holds a contradiction).`
		c.Example = `  palace kg check Alice works_at Globex --from 2023-06-01
  palace kg check --json`
		c.Args = args(func(c *cobra.Command, a []string) error {
			if len(a) != 0 && len(a) != 3 {
				return fmt.Errorf("accepts 0 or 3 arg(s), received %d", len(a))
			}
			return nil
		})
	}
	c.RunE = func(c *cobra.Command, a []string) error {
		if check && len(a) == 0 {
			if c.Flags().Changed("from") || c.Flags().Changed("to") || req.Supersede {
				return usageError{fmt.Errorf("%s: --from, --to and --supersede need SUBJECT PREDICATE OBJECT", c.CommandPath())}
			}
			return checkGraph(c, g, asJSON)
		}
		req.Subject, req.Predicate, req.Object = a[0], a[1], a[2]
		if c.Flags().Changed("confidence") {
			req.Confidence = &conf
		}
		if err := req.Validate(); err != nil {
			return usageError{err}
		}
		op := ops.KGAdd
		if check {
			op = ops.KGCheck
		}
		res, err := withPalace(g, func(p *palace.Palace) (ops.KGAddResult, error) { return op(c.Context(), p, req) })
		return finish(c, asJSON, res, err, printAddResult)
	}
	c.Flags().StringVar(&req.ValidFrom, "from", "", "when the fact became true: YYYY-MM-DD or RFC 3339 (default: since always)")
	c.Flags().StringVar(&req.ValidTo, "to", "", "when it stopped being true, excluded; a date keeps it true that whole day (default: still true)")
	c.Flags().BoolVar(&req.Supersede, "supersede", false, "close conflicting facts at this fact's --from instead of refusing it")
	if !check {
		c.Flags().Float64Var(&conf, "confidence", 1, "how sure the fact is, 0 to 1")
		c.Flags().StringVar(&req.SourceDrawer, "source", "", "id of the drawer the fact comes from")
		c.Flags().StringVar(&req.Wing, "wing", "", "the project wing the fact belongs to: its wake-up lists the fact (default: none)")
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}

func printAddResult(out io.Writer, r ops.KGAddResult) {
	would := func(done, dry string) string {
		if r.DryRun {
			return dry
		}
		return done
	}
	for _, t := range r.Superseded {
		fmt.Fprintf(out, "%s %s\n", would("closed", "would close"), describeFact(t))
	}
	switch {
	case r.Conflict:
		for _, t := range r.Conflicts {
			fmt.Fprintf(out, "%s %s\n", would("conflicts with", "would conflict with"), describeFact(t))
		}
	case r.Added:
		fmt.Fprintf(out, "%s %s\n", would("added", "would add"), describeFact(*r.Triple))
	case r.Duplicate:
		fmt.Fprintf(out, "already known: %s (nothing written)\n", describeFact(*r.Triple))
	case r.Merged:
		fmt.Fprintf(out, "%s %s\n", would("merged into", "would merge into"), describeFact(*r.Triple))
	}
}

func newKGInvalidateCmd(g *globals) *cobra.Command {
	var (
		req    ops.KGInvalidateRequest
		asJSON bool
	)
	c := &cobra.Command{
		Use:   ops.KGActionInvalidate + " SUBJECT PREDICATE OBJECT",
		Short: "Close every open fact matching SUBJECT PREDICATE OBJECT",
		Long: `Invalidate sets the end of every matching fact that is still true (no end
date) to --ended, now by default. A date-only --ended keeps the facts true
through that day. Closed facts stay in the graph for as-of queries and the
timeline.`,
		Example: `  palace kg invalidate Alice works_at Acme --ended 2023-05-31`,
		Args:    args(cobra.ExactArgs(3)),
		RunE: func(c *cobra.Command, a []string) error {
			req.Subject, req.Predicate, req.Object = a[0], a[1], a[2]
			if err := req.Validate(); err != nil {
				return usageError{err}
			}
			res, err := withPalace(g, func(p *palace.Palace) (ops.KGInvalidateResult, error) {
				return ops.KGInvalidate(c.Context(), p, req)
			})
			return finishAsIs(c, asJSON, res, err, func(out io.Writer, res ops.KGInvalidateResult) {
				if len(res.Closed) == 0 {
					fmt.Fprintf(out, "no open fact matches %s %s %s (nothing changed)\n", termsafe.Line(req.Subject), termsafe.Line(req.Predicate), termsafe.Line(req.Object))
				}
				for _, t := range res.Closed {
					fmt.Fprintf(out, "closed %s\n", describeFact(t))
				}
			})
		},
	}
	c.Flags().StringVar(&req.Ended, "ended", "", "when the facts stopped being true: YYYY-MM-DD or RFC 3339 (default: now)")
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}

func newKGQueryCmd(g *globals) *cobra.Command {
	var (
		req    ops.KGQueryRequest
		asJSON bool
	)
	c := &cobra.Command{
		Use:   ops.KGActionQuery + " ENTITY",
		Short: "Facts about an entity, optionally as of a date",
		Long: `Query lists the facts about ENTITY, oldest first: every fact ever recorded,
or with --as-of only those true at that instant (a date means its start).
--direction out keeps facts where ENTITY is the subject, in those where it is
the object. Facts true now are marked with *.`,
		Example: `  palace kg query Alice --as-of 2023-01-01
  palace kg query Acme --direction in --json`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			req.Entity = a[0]
			if err := req.Validate(); err != nil {
				return usageError{err}
			}
			res, err := readPalace(g, func(p *palace.Palace) (ops.KGQueryResult, error) {
				return ops.KGQuery(c.Context(), p, req)
			})
			return finishAsIs(c, asJSON, res, err, printKGQuery)
		},
	}
	c.Flags().StringVar(&req.AsOf, "as-of", "", "only facts true at this date or time")
	c.Flags().StringVar(&req.Direction, "direction", ops.KGDirBoth, ops.OneOf(ops.KGDirections))
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}

// printKGQuery prints an entity's facts, oldest first, the current ones
// marked with *.
func printKGQuery(out io.Writer, res ops.KGQueryResult) {
	when := "all time"
	if res.AsOf != nil {
		when = "as of " + ops.FormatTime(res.AsOf)
	}
	fmt.Fprintf(out, "%s: %d %s (%s, direction %s)\n", termsafe.Line(res.Entity.Name), len(res.Facts), plural(len(res.Facts), "fact", "facts"), when, res.Direction)
	printKGEntityNotes(out, res.Entity)
	for _, f := range res.Facts {
		arrow, mark := "->", " "
		if f.Direction == ops.KGDirIn {
			arrow = "<-"
		}
		if f.Current {
			mark = "*"
		}
		fmt.Fprintf(out, "%s %s %s\n", mark, arrow, describeFact(f.Triple))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func newKGTimelineCmd(g *globals) *cobra.Command {
	var (
		req    ops.KGTimelineRequest
		format string
		asJSON bool
		file   string
	)
	c := &cobra.Command{
		Use:   ops.KGActionTimeline + " [ENTITY]",
		Short: "Facts in chronological order, about one entity or all",
		Long: `Timeline lists facts by the date they became true, facts true since always
first, up to --limit. --format aaak writes them as one AAAK document: a
zettel per fact and an ARC: line, the feelings along the timeline (from the
drawers the facts were read from).

--html FILE draws one entity's graph as a self-contained page: the entities
within two hops of it, and each fact's validity interval on a timeline,
current facts apart from ended ones. The page loads nothing, so it opens
offline.`,
		Example: `  palace kg timeline Orion
  palace kg timeline Orion --format aaak | palace aaak decode -
  palace kg timeline Orion --html orion.html`,
		Args: args(cobra.MaximumNArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			if len(a) == 1 {
				req.Entity = a[0]
			}
			// The flag's default is the default limit, so a 0 was typed:
			// out of range, as it is over MCP (ops reads 0 as "not given").
			if req.Limit == 0 {
				return input.Invalid("limit", "0: want 1 to %d", ops.MaxTimelineLimit)
			}
			if err := req.Validate(); err != nil {
				return usageError{err}
			}
			if err := ops.CheckKGFormat(format); err != nil {
				return usageError{err}
			}
			if file != "" {
				return writeGraphPage(c, g, req.Entity, file)
			}
			if format == ops.KGFormatAAAK {
				return printKGTimelineAAAK(c, g, req, asJSON)
			}
			res, err := readPalace(g, func(p *palace.Palace) (ops.KGTimelineResult, error) {
				return ops.KGTimeline(c.Context(), p, req)
			})
			return finishAsIs(c, asJSON, res, err, func(out io.Writer, res ops.KGTimelineResult) {
				if len(res.Facts) == 0 {
					fmt.Fprintln(out, "no facts")
				}
				for _, t := range res.Facts {
					fmt.Fprintln(out, describeFact(t))
				}
				if res.Truncated {
					fmt.Fprintf(out, "(first %d facts; raise --limit for more)\n", len(res.Facts))
				}
			})
		},
	}
	c.Flags().IntVar(&req.Limit, "limit", ops.DefaultTimelineLimit, fmt.Sprintf("maximum number of facts, 1 to %d", ops.MaxTimelineLimit))
	c.Flags().StringVar(&format, "format", ops.KGFormatFacts, ops.OneOf(ops.KGFormats))
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	c.Flags().StringVar(&file, "html", "", "write the entity's graph and timeline as a self-contained HTML page to this file")
	c.MarkFlagsMutuallyExclusive("html", "json")
	c.MarkFlagsMutuallyExclusive("html", "format")
	return c
}

// writeGraphPage writes the page of an entity's graph (ops.GraphPage).
func writeGraphPage(c *cobra.Command, g *globals, entity, file string) error {
	if entity == "" {
		return usageError{fmt.Errorf("--html draws one entity's graph: name the entity")}
	}
	res, err := readPalace(g, func(p *palace.Palace) (ops.GraphPageResult, error) {
		return ops.GraphPage(c.Context(), p, ops.GraphRequest{Entity: entity})
	})
	if err != nil {
		return err
	}
	if err := os.WriteFile(file, []byte(res.HTML), 0o644); err != nil {
		return fmt.Errorf("kg timeline --html: %w", err)
	}
	fmt.Fprintf(c.OutOrStdout(), "wrote %s: %s, %d %s around it, %d %s, %d bytes\n", file, termsafe.Line(res.Graph.Entity.Name),
		len(res.Graph.Nodes)-1, plural(len(res.Graph.Nodes)-1, "entity", "entities"), len(res.Graph.Facts),
		plural(len(res.Graph.Facts), "fact", "facts"), len(res.HTML))
	return nil
}

func newKGStatsCmd(g *globals) *cobra.Command {
	var asJSON bool
	c := &cobra.Command{
		Use:   ops.KGActionStats,
		Short: "Count entities and facts (current, expired, future) per predicate and type, and the most connected",
		Args:  args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			return readOp(c, g, asJSON, ops.KGStats, func(out io.Writer, res ops.KGStatsResult) {
				fmt.Fprintf(out, "%d entities, %d facts (%d current, %d expired, %d future)\n",
					res.Entities, res.Triples, res.Current, res.Expired, res.Future)
				fmt.Fprintf(out, "functional: %s\n", strings.Join(termsafe.Lines(res.Functional), ", "))
				for _, p := range res.Predicates {
					fmt.Fprintf(out, "  %-24s %d (%d current, %d expired)\n", termsafe.Line(p.Predicate), p.Triples, p.Current, p.Expired)
				}
				printKGGraphStats(out, res)
			})
		},
	}
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}

func newKGFunctionalCmd(g *globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "functional",
		Short: "List, add or remove functional predicates (one value at a time)",
		Long: `A functional predicate holds one value at a time per subject, so a new
value with overlapping dates is a conflict. The default list is works_at,
lives_in, role, status and owner; changes are stored in the palace.`,
	}
	needsSubcommand(c)
	var asJSON bool
	run := func(c *cobra.Command, req ops.FunctionalRequest) error {
		if err := req.Validate(); err != nil {
			return usageError{err}
		}
		return writeOp(c, g, asJSON, func(ctx context.Context, p *palace.Palace) (ops.FunctionalResult, error) {
			return ops.Functional(ctx, p, req)
		}, func(out io.Writer, res ops.FunctionalResult) {
			for _, p := range res.Functional {
				fmt.Fprintln(out, termsafe.Line(p))
			}
		})
	}
	list := &cobra.Command{
		Use:   ops.FunctionalList,
		Short: "Print the functional predicates",
		Args:  args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			return run(c, ops.FunctionalRequest{Action: ops.FunctionalList})
		},
	}
	edit := func(action, short string) *cobra.Command {
		return &cobra.Command{
			Use:   action + " PREDICATE",
			Short: short,
			Args:  args(cobra.ExactArgs(1)),
			RunE: func(c *cobra.Command, a []string) error {
				return run(c, ops.FunctionalRequest{Action: action, Predicate: a[0]})
			},
		}
	}
	add := edit(ops.FunctionalAdd, "Make a predicate functional")
	rm := edit(ops.FunctionalRm, "Make a predicate multi-valued again")
	for _, sub := range []*cobra.Command{list, add, rm} {
		sub.Flags().BoolVar(&asJSON, "json", false, "print the list as JSON")
	}
	c.AddCommand(list, add, rm)
	return c
}

// describeFact is ops.DescribeFact made safe for a terminal: names come
// from agents and mined text.
func describeFact(t ops.Fact) string { return termsafe.Line(ops.DescribeFact(t)) }

// checkGraph lists the graph's contradictions (kg check without a fact);
// it exits 3 when there is one, as a check of a conflicting fact does.
func checkGraph(c *cobra.Command, g *globals, asJSON bool) error {
	res, err := readPalace(g, func(p *palace.Palace) (ops.KGContradictionsResult, error) {
		return ops.KGContradictions(c.Context(), p)
	})
	if n := len(res.Contradictions); err == nil && n > 0 {
		err = fmt.Errorf("%w: the graph holds %d contradiction(s) of functional predicates", ops.ErrConflict, n)
	}
	return finishAsIs(c, asJSON, res, err, func(out io.Writer, res ops.KGContradictionsResult) {
		printContradictions(out, res.Contradictions)
	})
}

// printContradictions is shared with 'team status'.
func printContradictions(out io.Writer, cs []ops.KGContradiction) {
	if len(cs) == 0 {
		fmt.Fprintln(out, "no contradictions: every functional predicate holds one value at a time")
		return
	}
	for _, k := range cs {
		fmt.Fprintf(out, "%s %s holds %d values over overlapping dates:\n", termsafe.Line(k.Subject), termsafe.Line(k.Predicate), len(k.Facts))
		for _, t := range k.Facts {
			mark := " "
			if t.ID == k.Current.ID {
				mark = "*"
			}
			fmt.Fprintf(out, "  %s %s\n", mark, describeFact(t))
		}
	}
	fmt.Fprintln(out, "* current: the value that starts later")
}
