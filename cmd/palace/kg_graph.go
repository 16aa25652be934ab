package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

// The typed graph's subcommands: kg entity, kg traverse, kg rm, and the
// AAAK form of kg timeline.

func newKGEntityCmd(g *globals) *cobra.Command {
	var (
		req    ops.KGEntityRequest
		asJSON bool
	)
	c := &cobra.Command{
		Use:   ops.KGActionEntity + " NAME",
		Short: "Show an entity, or set its type and aliases",
		Long: `Entity shows NAME: its type, where the type came from, its aliases and how
many facts it is in. With --type, --alias or --unalias it changes the entity
first (creating it when no fact mentions it yet).

Types: ` + strings.Join(ops.KGTypes, ", ") + `, or your own lowercase word.
A type set by hand always wins; without one, the type is inferred from the
facts (X works_at Y: X is a person, Y an organisation; X works_on Y: Y is a
project; X uses Y: Y is a tool; X lives_in Y: Y is a place; X is_a database:
X is a tool; ...) and shown with those facts as evidence. --type unknown
clears a type set by hand.

An alias is another name of the entity: facts added under it are the
entity's, and query, traverse and timeline accept it. A name that is already
another entity's alias, or an entity with facts of its own, is refused
(aliases never merge two entities).`,
		Example: `  palace kg entity "Postgres 14" --type tool --alias PG14
  palace kg entity Kai --alias "Kai Chen" --json
  palace kg entity Orion`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			req.Entity = a[0]
			if err := req.Validate(); err != nil {
				return usageError{err}
			}
			open := readPalace[ops.KGEntityResult]
			if req.Type != "" || len(req.Alias) > 0 || len(req.Unalias) > 0 {
				open = withPalace[ops.KGEntityResult]
			}
			return kgPrint(c, asJSON, printKGEntity, func() (ops.KGEntityResult, error) {
				return open(g, func(p *palace.Palace) (ops.KGEntityResult, error) { return ops.KGEntity(c.Context(), p, req) })
			})
		},
	}
	c.Flags().StringVar(&req.Type, "type", "", "set the type: "+strings.Join(ops.KGTypes, ", ")+", your own word, or unknown to clear it")
	c.Flags().StringArrayVar(&req.Alias, "alias", nil, "add another name of the entity (repeatable)")
	c.Flags().StringArrayVar(&req.Unalias, "unalias", nil, "remove an alias (repeatable)")
	c.Flags().BoolVar(&asJSON, "json", false, "print the entity as JSON")
	return c
}

// kgPrint runs an operation and ends the command with its result
// (finishAsIs).
func kgPrint[T any](c *cobra.Command, asJSON bool, text func(io.Writer, T), run func() (T, error)) error {
	res, err := run()
	return finishAsIs(c, asJSON, res, err, text)
}

func printKGEntity(out io.Writer, r ops.KGEntityResult) {
	fmt.Fprintln(out, termsafe.Line(r.Name))
	fmt.Fprintf(out, "type: %s\n", kgTypeSource(r.EntityInfo))
	for _, e := range r.Evidence {
		fmt.Fprintf(out, "  %s [%s]\n", termsafe.Line(e.Fact), e.FactID)
	}
	fmt.Fprintf(out, "aliases: %s\n", kgAliasList(r.EntityInfo))
	fmt.Fprintf(out, "facts: %d as subject, %d as object, %d true now\n", r.Facts.Out, r.Facts.In, r.Facts.Current)
}

// kgTypeSource is an entity's type and where it came from.
func kgTypeSource(e ops.EntityInfo) string {
	switch {
	case e.Inferred:
		return fmt.Sprintf("%s (inferred from %d %s)", termsafe.Line(e.Type), len(e.Evidence), plural(len(e.Evidence), "fact", "facts"))
	case e.Type == ops.KGTypeUnknown:
		return "unknown (none set, and no fact implies one)"
	}
	return termsafe.Line(e.Type) + " (set by hand)"
}

func kgAliasList(e ops.EntityInfo) string {
	if len(e.Aliases) == 0 {
		return "none"
	}
	names := make([]string, len(e.Aliases))
	for i, a := range e.Aliases {
		names[i] = termsafe.Line(a.Name)
	}
	return strings.Join(names, ", ")
}

// printKGEntityNotes adds an entity's type and aliases under a query's
// header when it has any; 'palace kg entity' lists the evidence.
func printKGEntityNotes(out io.Writer, e ops.EntityInfo) {
	if e.Type != ops.KGTypeUnknown {
		fmt.Fprintf(out, "type: %s\n", kgTypeSource(e))
	}
	if len(e.Aliases) > 0 {
		fmt.Fprintf(out, "aliases: %s\n", kgAliasList(e))
	}
}

func newKGTraverseCmd(g *globals) *cobra.Command {
	var (
		req    ops.KGTraverseRequest
		asJSON bool
	)
	c := &cobra.Command{
		Use:   ops.KGActionTraverse + " NAME",
		Short: "Paths from an entity, each hop with its dated fact",
		Long: fmt.Sprintf(`Traverse walks the graph breadth first from NAME and prints every path it
finds, up to --depth hops (1 to %d), each hop with its fact and dates. It
follows facts from subject to object (--direction out, the default), back
from object to subject (in), or both. --as-of follows only the facts true at
that date; --predicate (repeatable) only those predicates. A path never
visits an entity twice, so a cycle ends it. At most --limit paths are
printed; a cut result says so.`, ops.MaxTraverseDepth),
		Example: `  palace kg traverse Kai --depth 3 --as-of 2026-03-15
  palace kg traverse Orion --predicate uses --direction both --json`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			req.Entity = a[0]
			// The flags' defaults are the defaults, so a 0 was typed: out
			// of range, as it is over MCP (ops reads 0 as "not given").
			if req.Depth == 0 {
				return input.Invalid("depth", "0: want 1 to %d", ops.MaxTraverseDepth)
			}
			if req.Limit == 0 {
				return input.Invalid("limit", "0: want 1 to %d", ops.MaxTraversePaths)
			}
			if err := req.Validate(); err != nil {
				return usageError{err}
			}
			return kgPrint(c, asJSON, printKGTraverse, func() (ops.KGTraverseResult, error) {
				return readPalace(g, func(p *palace.Palace) (ops.KGTraverseResult, error) { return ops.KGTraverse(c.Context(), p, req) })
			})
		},
	}
	c.Flags().IntVar(&req.Depth, "depth", ops.DefaultTraverseDepth, fmt.Sprintf("most hops a path takes, 1 to %d", ops.MaxTraverseDepth))
	c.Flags().StringVar(&req.AsOf, "as-of", "", "follow only facts true at this date or time")
	c.Flags().StringArrayVar(&req.Predicates, "predicate", nil, "follow only this predicate (repeatable)")
	c.Flags().StringVar(&req.Direction, "direction", ops.KGDirOut, ops.OneOf(ops.KGDirections))
	c.Flags().IntVar(&req.Limit, "limit", ops.DefaultTraversePaths, fmt.Sprintf("most paths printed, 1 to %d", ops.MaxTraversePaths))
	c.Flags().BoolVar(&asJSON, "json", false, "print the paths as JSON")
	return c
}

// kgTyped is a name with its type, when it has one: "Orion (project)".
func kgTyped(name, typ string) string {
	if typ == ops.KGTypeUnknown || typ == "" {
		return termsafe.Line(name)
	}
	return termsafe.Line(name) + " (" + termsafe.Line(typ) + ")"
}

func printKGTraverse(out io.Writer, r ops.KGTraverseResult) {
	when := "all time"
	if r.AsOf != nil {
		when = "as of " + ops.FormatTime(r.AsOf)
	}
	fmt.Fprintf(out, "%s: %d %s, depth %d, %s, direction %s", kgTyped(r.Entity.Name, r.Entity.Type),
		len(r.Paths), plural(len(r.Paths), "path", "paths"), r.Depth, when, r.Direction)
	if len(r.Predicates) > 0 {
		fmt.Fprintf(out, ", predicates %s", strings.Join(termsafe.Lines(r.Predicates), ", "))
	}
	fmt.Fprintln(out)
	for i, p := range r.Paths {
		chain := []string{kgTyped(r.Entity.Name, r.Entity.Type)}
		for _, h := range p.Hops {
			chain = append(chain, kgTyped(h.To.Name, h.To.Type))
		}
		fmt.Fprintf(out, "%d. %s\n", i+1, strings.Join(chain, " -> "))
		for _, h := range p.Hops {
			arrow := "->"
			if h.Direction == ops.KGDirIn {
				arrow = "<-"
			}
			fmt.Fprintf(out, "   %s %s\n", arrow, describeFact(h.Triple))
		}
	}
	if r.Truncated {
		fmt.Fprintf(out, "(cut at %d paths; narrow with --predicate, --as-of or --depth, or raise --limit)\n", len(r.Paths))
	}
}

func newKGRmCmd(g *globals) *cobra.Command {
	var (
		yes    bool
		asJSON bool
	)
	c := &cobra.Command{
		Use:   ops.KGActionRm + " FACT_ID",
		Short: "Delete a wrong fact (a fact that stopped being true is invalidated instead)",
		Long: `Rm deletes a fact that was wrong: it leaves query, timeline, traverse and
stats, and the removal is written to the audit log (kg.rm). Names it leaves
with no fact, type or alias go with it. A fact that was true and stopped
being so is not wrong: 'palace kg invalidate' ends it and keeps it for as-of
questions and the timeline.

Rm shows the fact and asks before removing it; --yes removes it without
asking. Fact ids (t_...) are shown by add, query, timeline and traverse.

Exit codes: 0 removed or declined, 1 no such fact or error, 2 bad usage.`,
		Example: `  palace kg query Orion
  palace kg rm t_5f0c3e1a9b2d4c6e8f0a1b2c --yes`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			req := ops.KGRmRequest{FactID: a[0], DryRun: !yes}
			if err := req.Validate(); err != nil {
				return usageError{err} // before the palace is opened, or created
			}
			rm := func() (ops.KGRmResult, error) {
				// An existing palace: a missing one holds no fact to remove.
				return readPalace(g, func(p *palace.Palace) (ops.KGRmResult, error) { return ops.KGRm(c.Context(), p, req) })
			}
			return kgPrint(c, asJSON, printKGRm, func() (ops.KGRmResult, error) {
				res, err := rm()
				if err == nil && !yes && confirmKGRm(c, res.Fact) {
					req.DryRun = false
					return rm()
				}
				return res, err
			})
		},
	}
	c.Flags().BoolVarP(&yes, "yes", "y", false, "remove without asking")
	c.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON")
	return c
}

func printKGRm(out io.Writer, r ops.KGRmResult) {
	if !r.Removed {
		fmt.Fprintln(out, "nothing removed (answer y, or pass --yes)")
		return
	}
	fmt.Fprintf(out, "removed %s\n", describeFact(r.Fact))
	for _, e := range r.DroppedEntities {
		fmt.Fprintf(out, "dropped %s: no fact, type or alias is left\n", termsafe.Line(e))
	}
}

// confirmKGRm asks on stderr, so stdout holds only the result (JSON too),
// and reads the answer from stdin; anything but y or yes declines.
func confirmKGRm(c *cobra.Command, t ops.Fact) bool {
	fmt.Fprintf(c.ErrOrStderr(), "remove %s for good? (a fact that stopped being true is kept by 'palace kg invalidate') [y/N] ", describeFact(t))
	answer, _ := bufio.NewReader(c.InOrStdin()).ReadString('\n')
	a := strings.ToLower(strings.TrimSpace(answer))
	return a == "y" || a == "yes"
}

// printKGTimelineAAAK prints the timeline as its AAAK document alone, for
// 'palace aaak check' and 'palace aaak decode'; notes go to stderr.
func printKGTimelineAAAK(c *cobra.Command, g *globals, req ops.KGTimelineRequest, asJSON bool) error {
	return readOp(c, g, asJSON, func(ctx context.Context, p *palace.Palace) (ops.KGTimelineAAAKResult, error) {
		return ops.KGTimelineAAAK(ctx, p, req)
	}, func(out io.Writer, res ops.KGTimelineAAAKResult) {
		if res.Facts == 0 {
			fmt.Fprintln(c.ErrOrStderr(), "no facts")
			return
		}
		// The document is AAAK, every value escaped by the encoder;
		// termText only guards the terminal.
		fmt.Fprintln(out, termsafe.Text(res.AAAK))
		if res.Truncated {
			fmt.Fprintf(c.ErrOrStderr(), "(first %d facts; raise --limit for more)\n", res.Facts)
		}
	})
}

// printKGGraphStats prints the typed graph's part of kg stats: entities by
// type and the most connected entities.
func printKGGraphStats(out io.Writer, r ops.KGStatsResult) {
	types := make([]string, len(r.Types))
	for i, t := range r.Types {
		types[i] = fmt.Sprintf("%s %d", termsafe.Line(t.Type), t.Entities)
		if t.Inferred > 0 {
			types[i] += fmt.Sprintf(" (%d inferred)", t.Inferred)
		}
	}
	if len(types) == 0 {
		types = []string{"none"}
	}
	fmt.Fprintf(out, "types: %s\n", strings.Join(types, ", "))
	if len(r.MostConnected) > 0 {
		fmt.Fprintln(out, "most connected:")
	}
	for _, e := range r.MostConnected {
		fmt.Fprintf(out, "  %-24s %d %s\n", kgTyped(e.Name, e.Type), e.Facts, plural(e.Facts, "fact", "facts"))
	}
}
