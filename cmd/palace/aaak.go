package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/aaak"
	"github.com/palace-dev/palace/core/compress"
	"github.com/palace-dev/palace/core/dates"
)

func newCompressCmd(g *globals) *cobra.Command {
	var (
		req    compress.Request
		since  string
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "compress",
		Short: "Print drawers as AAAK, the compact dialect for token-limited agents",
		Long: `Compress encodes the selected drawers as AAAK documents, one per wing and
room, newest first. AAAK is lossy: after each document a comment line gives its
size against the raw text and the share of source sentences it preserves, and
--json lists the sentences it lost. Entity codes are kept in the palace so a
name keeps its code across runs.`,
		Example: `  palace compress --wing myproject --room decisions
  palace compress --since 2026-01-01 --json`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			var err error
			if req.Filter.Since, err = dates.Parse(since, false); err != nil {
				return usageError{fmt.Errorf("--since %q: %w", since, err)}
			}
			p, err := g.open()
			if err != nil {
				return err
			}
			defer p.Close()
			docs, err := compress.Run(c.Context(), p, req)
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			if asJSON {
				if docs == nil {
					docs = []compress.Document{}
				}
				return printJSON(out, docs)
			}
			if len(docs) == 0 {
				fmt.Fprintln(c.ErrOrStderr(), "no drawers match")
			}
			for i, d := range docs {
				if i > 0 {
					fmt.Fprintln(out)
				}
				fmt.Fprintln(out, d.AAAK)
				fmt.Fprintf(c.ErrOrStderr(), "# %s/%s: %d drawers, %d tokens (raw %d), coverage %.2f, %d sentences lost\n",
					d.Wing, d.Room, d.Drawers, d.Tokens, d.Raw, d.Coverage, len(d.Lost))
			}
			return nil
		},
	}
	c.Flags().StringVar(&req.Filter.Wing, "wing", "", "only this wing")
	c.Flags().StringVar(&req.Filter.Room, "room", "", "only this room")
	c.Flags().StringVar(&since, "since", "", "only drawers from this date on (YYYY-MM-DD or RFC 3339)")
	c.Flags().IntVar(&req.Limit, "limit", compress.DefaultLimit, "at most this many drawers")
	c.Flags().BoolVar(&asJSON, "json", false, "print documents with their measures as JSON")
	return c
}

func newAAAKCmd(g *globals) *cobra.Command {
	c := &cobra.Command{
		Use:   "aaak",
		Short: "Validate or decode AAAK documents",
	}
	needsSubcommand(c)
	var legacy bool
	check := &cobra.Command{
		Use:   "check FILE",
		Short: "Validate an AAAK document; errors give line, column and rule (exit 1)",
		Args:  args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			src, err := os.ReadFile(a[0])
			if err != nil {
				return err
			}
			if legacy {
				doc, notes, err := aaak.ParseLegacy(string(src))
				if err != nil {
					return fmt.Errorf("%s: %w", a[0], err)
				}
				for _, n := range notes {
					fmt.Fprintf(c.OutOrStdout(), "%s:%d: normalised: %s\n", a[0], n.Line, n.Message)
				}
				fmt.Fprintf(c.OutOrStdout(), "%s: legacy document read: %d zettels\n", a[0], len(doc.Zettels))
				return nil
			}
			doc, err := aaak.Parse(string(src))
			var errs aaak.Errors
			if errors.As(err, &errs) {
				for _, e := range errs {
					fmt.Fprintf(c.OutOrStdout(), "%s:%d:%d: %s: %s\n", a[0], e.Line, e.Col, e.Rule, e.Reason)
				}
				return fmt.Errorf("%s: %d error(s)", a[0], len(errs))
			}
			if err != nil {
				return fmt.Errorf("%s: %w", a[0], err)
			}
			fmt.Fprintf(c.OutOrStdout(), "%s: ok, V%d, %d zettels, %d tunnels, %d arcs\n", a[0], doc.Version, len(doc.Zettels), len(doc.Tunnels), len(doc.Arcs))
			return nil
		},
	}
	check.Flags().BoolVar(&legacy, "legacy", false, "read MemPalace-style legacy lines leniently and report what was normalised")
	decode := &cobra.Command{
		Use:   "decode FILE",
		Short: "Print an AAAK document as readable text, expanding entity codes from the palace",
		Args:  args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			src, err := os.ReadFile(a[0])
			if err != nil {
				return err
			}
			doc, err := aaak.Parse(string(src))
			if err != nil {
				return fmt.Errorf("%s: %w (run 'palace aaak check %s' for positions)", a[0], err, a[0])
			}
			p, err := g.open()
			if err != nil {
				return err
			}
			defer p.Close()
			em, err := compress.Entities(c.Context(), p)
			if err != nil {
				return err
			}
			fmt.Fprintln(c.OutOrStdout(), aaak.Decode(doc, em))
			return nil
		},
	}
	c.AddCommand(check, decode)
	return c
}
