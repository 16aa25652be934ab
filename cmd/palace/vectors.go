package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

// progressFunc returns a progress callback that draws a bar labelled desc
// on stderr, or nil (no bar) when on is false or stderr is not a terminal.
// The bar is made at the first call, when the total is known.
func progressFunc(desc string, on bool) func(done, total int) {
	if !on || !term.IsTerminal(int(os.Stderr.Fd())) {
		return nil
	}
	var bar *progressbar.ProgressBar
	return func(done, total int) {
		if bar == nil {
			bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(os.Stderr),
				progressbar.OptionSetDescription(desc), progressbar.OptionShowCount(),
				progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100e6))
		}
		bar.Set(done)
	}
}

// printVectorSummary says what an embedding pass did.
func printVectorSummary(w io.Writer, v ops.VectorSummary) {
	if v.Model == "" {
		fmt.Fprintf(w, "vectors: none (%s); %d drawers searchable lexically only\n", v.Reason, v.Pending)
		return
	}
	fmt.Fprintf(w, "vectors: %d embedded with %s (%s backend) in %.2fs; %d pending\n", v.Embedded, v.Model, v.Backend, v.Seconds, v.Pending)
}

func newReindexCmd(g *globals) *cobra.Command {
	var (
		batch  int
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "reindex",
		Short: "Embed every drawer that has no vector of the current model (resumable)",
		Long: `Reindex fills the vector index for the palace's embedding model. A palace
whose vectors came from another model is rebuilt for this one. Each batch is
committed on its own, so an interrupted reindex continues where it stopped.`,
		Args: args(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			req := ops.EmbedRequest{Batch: batch, Progress: progressFunc("embedding", !asJSON)}
			v, err := withPalace(g, func(p *palace.Palace) (ops.VectorSummary, error) {
				return ops.Embed(c.Context(), p, req)
			})
			if err == nil && v.Model == "" {
				// Reindex is asked for vectors: without a model it failed.
				err = fmt.Errorf("no embedding model: %s", v.Reason)
			}
			return finish(c, asJSON, v, err, printVectorSummary)
		},
	}
	c.Flags().IntVar(&batch, "batch", ops.DefaultEmbedBatch, "drawers embedded and committed together")
	c.Flags().BoolVar(&asJSON, "json", false, "print the summary as JSON")
	return c
}

func newDupCmd(g *globals) *cobra.Command {
	var (
		req    ops.DupRequest
		asJSON bool
	)
	c := &cobra.Command{
		Use:   "dup TEXT",
		Short: "Show the drawers nearest to TEXT, with their similarity",
		Long: `Dup lists the drawers nearest to TEXT, most similar first. With vectors of
the palace's embedding model it ranks by the cosine of embeddings (finder
` + ops.FinderVector + `); without them it ranks the drawers that share a word with TEXT by
the cosine of the two texts' content-word sets (finder ` + ops.FinderLexical + `), and says why
there were no vectors. The first line (--json: "finder") names the finder.`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			req.Text = strings.Join(a, " ")
			return writeOp(c, g, asJSON, func(ctx context.Context, p *palace.Palace) (ops.DupResult, error) {
				return ops.Dup(ctx, p, req)
			}, func(out io.Writer, res ops.DupResult) {
				switch res.Finder {
				case ops.FinderVector:
					fmt.Fprintln(out, "finder: vector (cosine of embeddings)")
				default:
					fmt.Fprintf(out, "finder: lexical (cosine of content-word sets; %s)\n", termsafe.Line(res.Notice))
				}
				for _, n := range res.Near {
					fmt.Fprintf(out, "%.3f  %s  [%s/%s]  %s\n", n.Similarity, termsafe.Line(n.Citation), termsafe.Line(n.Wing), termsafe.Line(n.Room), termsafe.Line(n.ID))
				}
			})
		},
	}
	c.Flags().StringVar(&req.Wing, "wing", "", "only this wing")
	c.Flags().IntVar(&req.Limit, "limit", ops.DefaultDupLimit, fmt.Sprintf("how many drawers (1 to %d)", ops.MaxDupLimit))
	c.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return c
}
