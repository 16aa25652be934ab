package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/palace-dev/palace/core/dates"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

func newSearchCmd(g *globals) *cobra.Command {
	var (
		req          search.Request
		asJSON       bool
		since, until string
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
and fused scores and its rank on each side.`,
		Example: `  palace search "goroutine leak"
  palace search 'context cancel -test' --wing go --limit 5 --json`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			switch req.Filter.Kind {
			case "", store.KindFile, store.KindConversation, store.KindNote, store.KindDiary:
			default:
				return usageError{fmt.Errorf("--kind %q: want file, conversation, note or diary", req.Filter.Kind)}
			}
			switch req.Mode {
			case search.ModeAuto, search.ModeLexical, search.ModeVector, search.ModeHybrid:
			default:
				return usageError{fmt.Errorf("--mode %q: want lexical, vector or hybrid", req.Mode)}
			}
			if req.Limit < 1 {
				return usageError{fmt.Errorf("--limit %d: want 1 or more", req.Limit)}
			}
			var err error
			if req.Filter.Since, err = dates.Parse(since, false); err != nil {
				return usageError{fmt.Errorf("--since %q: %w", since, err)}
			}
			if req.Filter.Until, err = dates.Parse(until, true); err != nil {
				return usageError{fmt.Errorf("--until %q: %w", until, err)}
			}
			p, err := g.open()
			if err != nil {
				return err
			}
			defer p.Close()
			req.Query = strings.Join(a, " ")
			res, err := search.Run(c.Context(), p, req)
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			if asJSON {
				return printJSON(out, res)
			}
			if res.Notice != "" {
				fmt.Fprintln(c.ErrOrStderr(), res.Notice)
			}
			if res.Route.Applied || res.Route.Room != "" {
				fmt.Fprintln(out, "route:", res.Route)
			}
			open, close := "[", "]"
			if f, ok := out.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
				open, close = "\x1b[1m", "\x1b[0m"
			}
			if len(res.Hits) == 0 {
				fmt.Fprintf(out, "no drawers match %q\n", req.Query)
			}
			for i, h := range res.Hits {
				when := ""
				if h.Time != nil {
					when = "  " + h.Time.Format("2006-01-02 15:04")
				}
				fmt.Fprintf(out, "%d. %s  [%s/%s]%s  score %.2f  %s\n", i+1, h.Citation, h.Wing, h.Room, when, h.Score, h.ID)
				snip := strings.Join(strings.Fields(search.Highlight(h.Snippet, open, close)), " ")
				fmt.Fprintf(out, "   %s\n", snip)
			}
			return nil
		},
	}
	c.Flags().StringVar(&req.Filter.Wing, "wing", "", "only this wing")
	c.Flags().StringVar(&req.Filter.Room, "room", "", "only this room")
	c.Flags().StringVar(&req.Filter.Kind, "kind", "", "only this kind: file, conversation, note or diary")
	c.Flags().StringVar(&req.Filter.SourcePrefix, "source", "", "only sources whose path starts with this prefix")
	c.Flags().IntVar(&req.Limit, "limit", search.DefaultLimit, "maximum number of hits")
	c.Flags().StringVar(&req.Mode, "mode", "", "lexical, vector or hybrid (default: hybrid when the palace has vectors, else lexical)")
	c.Flags().StringVar(&since, "since", "", "only drawers from this time on: YYYY-MM-DD or RFC 3339 (conversation time, else mtime)")
	c.Flags().StringVar(&until, "until", "", "only drawers before this time; a date includes that whole day")
	c.Flags().BoolVar(&asJSON, "json", false, "print results as JSON")
	return c
}
