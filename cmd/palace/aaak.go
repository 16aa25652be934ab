package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/aaak"
	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

func newCompressCmd(g *globals) *cobra.Command {
	var (
		req    ops.CompressRequest
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "compress",
		Short: "Print drawers as AAAK, the compact dialect for token-limited agents",
		Long: `Compress encodes the selected drawers as AAAK: one document per wing and
room, newest first, printed as one AAAK stream (the documents one after
another, a blank line between them) that 'palace aaak check' and
'palace aaak decode' read whole. AAAK is lossy: for each document a comment
line on stderr gives its size against the raw text and the share of source
sentences it preserves, and --json lists the sentences it lost. Names are
coded with the palace's entity map, which keeps each new name's code, so a
name has one code in every room and run and decode expands it. A room with
tunnels ('palace tunnels') ends in a T: line per room they lead to.`,
		Example: `  palace compress --wing myproject --room decisions
  palace compress --wing myproject | palace aaak check -
  palace compress --since 2026-01-01 --json`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			return writeOp(c, g, asJSON, func(ctx context.Context, p *palace.Palace) ([]ops.CompressDoc, error) {
				return ops.Compress(ctx, p, req)
			}, func(out io.Writer, docs []ops.CompressDoc) {
				if len(docs) == 0 {
					fmt.Fprintln(c.ErrOrStderr(), "no drawers match")
					return
				}
				// The encoder writes no terminal control (aaak SPEC.md,
				// section 5); the stream still passes the sanitiser like
				// every output.
				fmt.Fprintln(out, termsafe.Text(ops.CompressStream(docs)))
				for _, d := range docs {
					fmt.Fprintf(c.ErrOrStderr(), "# %s/%s: %d drawers, %d tokens (raw %d), coverage %.2f, %d sentences lost\n",
						termsafe.Line(d.Wing), termsafe.Line(d.Room), d.Drawers, d.Tokens, d.Raw, d.Coverage, len(d.Lost))
				}
			})
		},
	}
	c.Flags().StringVar(&req.Wing, "wing", "", "only this wing")
	c.Flags().StringVar(&req.Room, "room", "", "only this room")
	c.Flags().StringVar(&req.Since, "since", "", "only drawers from this date on (YYYY-MM-DD or RFC 3339)")
	c.Flags().IntVar(&req.Limit, "limit", ops.DefaultCompressLimit, fmt.Sprintf("at most this many drawers (1 to %d)", ops.MaxCompressLimit))
	c.Flags().BoolVar(&asJSON, "json", false, "print documents with their measures as JSON")
	return c
}

// readAAAK reads the file an aaak subcommand names; "-" is stdin, so
// 'palace compress | palace aaak check -' works.
func readAAAK(c *cobra.Command, name string) (string, error) {
	if name == "-" {
		b, err := io.ReadAll(c.InOrStdin())
		if err != nil {
			return "", fmt.Errorf("read stdin: %w", err)
		}
		return string(b), nil
	}
	b, err := os.ReadFile(name)
	return string(b), err
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
		Short: "Validate AAAK: a document or a stream of them, FILE or - for stdin; errors give line, column and rule (exit 1)",
		Args:  args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			src, err := readAAAK(c, a[0])
			if err != nil {
				return err
			}
			name := termsafe.Line(a[0])
			if legacy {
				doc, notes, err := aaak.ParseLegacy(src)
				if err != nil {
					return fmt.Errorf("%s: %w", name, err)
				}
				for _, n := range notes {
					fmt.Fprintf(c.OutOrStdout(), "%s:%d: normalised: %s\n", name, n.Line, termsafe.Line(n.Message))
				}
				fmt.Fprintf(c.OutOrStdout(), "%s: legacy document read: %d zettels\n", name, len(doc.Zettels))
				return nil
			}
			docs, err := aaak.ParseStream(src)
			var errs aaak.Errors
			if errors.As(err, &errs) {
				for _, e := range errs {
					fmt.Fprintf(c.OutOrStdout(), "%s:%d:%d: %s: %s\n", name, e.Line, e.Col, e.Rule, termsafe.Line(e.Reason))
				}
				return fmt.Errorf("%s: %d error(s)", name, len(errs))
			}
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			var zettels, tunnels, arcs int
			for _, d := range docs {
				zettels, tunnels, arcs = zettels+len(d.Zettels), tunnels+len(d.Tunnels), arcs+len(d.Arcs)
			}
			what := ""
			if len(docs) > 1 {
				what = fmt.Sprintf("%d documents, ", len(docs))
			}
			fmt.Fprintf(c.OutOrStdout(), "%s: ok, V%d, %s%d zettels, %d tunnels, %d arcs\n", name, aaak.Version, what, zettels, tunnels, arcs)
			return nil
		},
	}
	check.Flags().BoolVar(&legacy, "legacy", false, "read one MemPalace-style legacy document leniently and report what was normalised")
	decode := &cobra.Command{
		Use:   "decode FILE",
		Short: "Print AAAK (a document or a stream, FILE or - for stdin) as readable text, expanding entity codes from the palace",
		Args:  args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			src, err := readAAAK(c, a[0])
			if err != nil {
				return err
			}
			docs, err := aaak.ParseStream(src)
			if err != nil {
				return fmt.Errorf("%s: %w (run 'palace aaak check %s' for positions)", a[0], err, a[0])
			}
			return writeOp(c, g, false, func(ctx context.Context, p *palace.Palace) (string, error) {
				em, err := ops.EntityCodes(ctx, p)
				if err != nil {
					return "", err
				}
				text := make([]string, len(docs))
				for i, d := range docs {
					text[i] = aaak.Decode(d, em)
				}
				return strings.Join(text, "\n\n"), nil
			}, func(out io.Writer, text string) {
				// The reader refuses terminal controls, but the names
				// codes expand to come from the palace's entity map.
				fmt.Fprintln(out, termsafe.Text(text))
			})
		},
	}
	c.AddCommand(check, decode)
	return c
}
