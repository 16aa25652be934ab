package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

func newSearchCmd(g *globals) *cobra.Command {
	var (
		req     = ops.SearchRequest{Default: ops.PersonSearch}
		budget  int
		asJSON  bool
		verbose bool
	)
	c := &cobra.Command{
		Use:   "search QUERY",
		Short: "Full-text search over drawers (BM25, stemmed)",
		Long: `Search ranks drawers with SQLite FTS5 BM25 (Porter stemming, English stop
words dropped). Drawers holding every word come first, then drawers holding
some. "quoted phrases", -excluded words and prefix* words are understood; any
other punctuation is just text. When the palace has vectors of its embedding
model, the BM25 ranking and the nearest vectors are fused by reciprocal rank
(--mode hybrid, the default then); --json then gives each hit's bm25, vector
and fused scores and its rank on each side.

A content held by several wings (the same transcript mined twice) is shown
once, at its best rank, with the other wings (also_in). A --wing the palace
does not hold is an error that lists the wings.

Routing (--route auto, the default): a search without --room goes to the
room whose taxonomy keywords (palace.yaml) the query names, in the --wing
given or in every wing. It never hides a match: when that room has no hit
holding every query word and the rest of the palace has one, the search
without the route answers. The result says how it was routed; --route off
searches exactly the filters given.

--across crosses a tunnel: it searches one room in every wing, the --room
given or the room the query routes to (rooms of one name count as one, and
with --wing only that wing's room names compete), whatever --wing says. A
query that routes to no room, or --route off without --room, is bad input.
'palace tunnels' lists the rooms wings share.

--by file collapses the hits to files: one row per mined file, ranked by
its best drawer, with that drawer's citation, score and snippet and the
line ranges of every matched drawer of the file (in line order); --limit
then counts files. Notes, diaries and conversation drawers stay one row
each. Every hit names its kind and, for a file, its language (lang).

A question about a person in a conversation ("what has Melanie painted?")
ranks the exchanges where that person says the words it matched above
those where only the other speaker does; the hit's why says which. A
question naming two speakers of one conversation ("what have Caroline and
Melanie both painted?") is asked once per person, the other left out, and
the answers alternate: the result's facets list the sub-queries, and each
hit's why starts with the person its sub-query is about.

--detail compact leaves each hit's content out of --json (the text output
never prints it) and cuts its snippet to one line of at most 200
characters; 'palace drawer show ID' reads a drawer whole. --budget N keeps
hits in rank order while the tokens they take stay within N (counted on
each hit's JSON with the wake-up's estimator); the first hit that would go
over ends the list, and a line says how many were left out. The defaults
are full and no budget; MCP's palace_search answers compact within 1500
tokens.`,
		Example: `  palace search "goroutine leak"
  palace search 'context cancel -test' --wing go --limit 5 --json
  palace search 'http: server gave HTTP response to HTTPS client' --route off
  palace search 'retry backoff' --by file --kind file --limit 5
  palace search 'why sqlite' --detail compact --budget 1500 --json
  palace search 'token expiry' --room auth --across`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			req.Query = strings.Join(a, " ")
			if c.Flags().Changed("limit") {
				if err := ops.CheckGiven("limit", req.Limit, ops.MaxSearchLimit); err != nil {
					return flagError(c, err)
				}
			}
			if c.Flags().Changed("budget") {
				req.Budget = &budget
			}
			// A relative --source is what the user sees from here.
			if wd, err := os.Getwd(); err == nil {
				req.Dir = wd
			}
			if err := req.Validate(); err != nil {
				return flagError(c, err)
			}
			res, err := readPalace(g, func(p *palace.Palace) (ops.SearchResult, error) {
				return ops.Search(c.Context(), p, req)
			})
			return finish(c, asJSON, res, err, func(out io.Writer, res ops.SearchResult) {
				printSearch(out, c.ErrOrStderr(), res, req.Query, verbose)
			})
		},
	}
	c.Flags().StringVar(&req.Wing, "wing", "", "only this wing")
	c.Flags().StringVar(&req.Room, "room", "", "only this room")
	c.Flags().StringVar(&req.Kind, "kind", "", "only this kind: "+ops.OneOf(ops.Kinds))
	c.Flags().StringVar(&req.Source, "source", "", "only sources whose path starts with this prefix (a relative one is taken from the working directory)")
	c.Flags().IntVar(&req.Limit, "limit", ops.DefaultSearchLimit, fmt.Sprintf("maximum number of hits, 1 to %d", ops.MaxSearchLimit))
	c.Flags().StringVar(&req.Mode, "mode", "", ops.OneOf(ops.SearchModes)+" (default: hybrid when the palace has vectors, else lexical)")
	c.Flags().StringVar(&req.Route, "route", ops.RouteAuto, ops.OneOf(ops.SearchRoutes)+": auto narrows a search without --room to the room whose taxonomy keywords the query names, and searches without it when that room has no hit holding every query word but another place does; off searches exactly the filters")
	c.Flags().BoolVar(&req.Across, "across", false, "search one room in every wing: --room, or the room the query routes to (among --wing's rooms, if given); hits come from every wing")
	c.Flags().StringVar(&req.By, "by", ops.ByDrawer, ops.OneOf(ops.SearchBy)+": file collapses hits to one row per file (best drawer first, with the file's matched line ranges); --limit then counts files")
	c.Flags().StringVar(&req.Detail, "detail", "", ops.OneOf(ops.SearchDetails)+": compact gives each hit a one-line snippet and leaves its content out (default full)")
	c.Flags().IntVar(&budget, "budget", 0, fmt.Sprintf("the most tokens the hits may take, 0 (none, the default) to %d; hits past it are left out, and counted", ops.MaxSearchBudget))
	c.Flags().StringVar(&req.Since, "since", "", "only drawers from this time on: YYYY-MM-DD or RFC 3339 (conversation time, else mtime)")
	c.Flags().StringVar(&req.Until, "until", "", "only drawers before this time; a date includes that whole day")
	c.Flags().BoolVar(&asJSON, "json", false, "print results as JSON")
	c.Flags().BoolVarP(&verbose, "verbose", "v", false, "also say why the search ran without vectors (lexical only), when it did")
	return c
}

// printSearch prints a search's hits as text: the notice (on errOut, the
// lexical-only part only when verbose), the route, each hit with its
// citation, place, score, lines and snippet, and the note.
func printSearch(out, errOut io.Writer, res ops.SearchResult, query string, verbose bool) {
	notice := res.Notice
	if !verbose {
		// Until the palace has vectors every search is lexical;
		// saying so each time is noise ('palace status' shows it).
		notice = strings.TrimSpace(strings.TrimPrefix(notice, res.LexicalOnly))
	}
	if notice != "" {
		fmt.Fprintln(errOut, termsafe.Line(notice))
	}
	if res.Route.Applied || res.Route.Room != "" {
		fmt.Fprintln(out, "route:", termsafe.Line(res.Route.String()))
	}
	open, close := "[", "]"
	if f, ok := out.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		open, close = "\x1b[1m", "\x1b[0m"
	}
	for _, f := range res.Facets {
		fmt.Fprintf(out, "asked about %s: %s\n", termsafe.Line(f.About), termsafe.Line(f.Query))
	}
	if len(res.Hits) == 0 && res.Omitted == 0 {
		fmt.Fprintf(out, "no drawers match %q\n", query)
	}
	for i, h := range res.Hits {
		when := ""
		if h.Time != nil {
			when = "  " + h.Time.Format("2006-01-02 15:04")
		}
		also := ""
		if len(h.AlsoIn) > 0 {
			also = "  also in " + strings.Join(termsafe.Lines(h.AlsoIn), ", ")
		}
		kind := h.Kind
		if h.Lang != "" {
			kind += " " + h.Lang
		}
		fmt.Fprintf(out, "%d. %s  [%s/%s] %s%s  score %.2f  %s%s\n", i+1, termsafe.Line(h.Citation), termsafe.Line(h.Wing), termsafe.Line(h.Room), termsafe.Line(kind), when, h.Score, termsafe.Line(h.ID), also)
		if len(h.Ranges) > 0 {
			fmt.Fprintf(out, "   lines %s\n", lineRanges(h.Ranges))
		}
		// Escaped before the marks become bold, which are the only
		// escapes written.
		snippet := termsafe.Line(strings.Join(strings.Fields(h.Snippet), " "))
		fmt.Fprintf(out, "   %s\n", remark(snippet, open, close))
		if h.Why != "" {
			fmt.Fprintf(out, "   why: %s\n", termsafe.Line(h.Why))
		}
	}
	if res.Note != "" {
		fmt.Fprintln(out, termsafe.Line(res.Note))
	}
}

// lineRanges lists a file row's matched line ranges: "1-20, 40-60".
func lineRanges(rs []ops.FileRange) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = fmt.Sprintf("%d-%d", r.LineStart, r.LineEnd)
	}
	return strings.Join(parts, ", ")
}

// remark turns a snippet's ops.SnippetMark pairs into open and close (bold
// on a terminal, brackets otherwise).
func remark(snippet, open, close string) string {
	parts := strings.Split(snippet, ops.SnippetMark)
	if len(parts) < 3 {
		return snippet
	}
	var b strings.Builder
	for i, p := range parts {
		switch {
		case i == 0:
		case i == len(parts)-1 && len(parts)%2 == 0:
			b.WriteString(ops.SnippetMark) // an unpaired mark is text
		case i%2 == 1:
			b.WriteString(open)
		default:
			b.WriteString(close)
		}
		b.WriteString(p)
	}
	return b.String()
}

// flagError names an operation's bad field as the flag of c that sets it
// ("--wing "x": no such wing", where the core says "wing"; a positional
// argument such as the query keeps the core's name); main maps the error
// to its exit code by its class.
func flagError(c *cobra.Command, err error) error {
	var ie *input.Error
	if errors.As(err, &ie) && c.Flags().Lookup(ie.Field) != nil {
		err = input.Rename(err, map[string]string{ie.Field: "--" + ie.Field})
	}
	return err
}
