package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/termsafe"
	"github.com/palace-dev/palace/core/ops"
)

func newSplitCmd() *cobra.Command {
	var outDir string
	c := &cobra.Command{
		Use:   "split PATH",
		Short: "Split multi-session text transcripts (a file, or each in a folder) into one file per session",
		Long: `Split cuts a plain-text transcript holding several sessions (copied Claude Code
sessions, notes with a "# Session" heading each) into FILE-stem.session-NN.ext
files, in --out or beside FILE, and prints their names. The pieces join back
to FILE byte for byte.

Given a folder, split does this for each transcript in it: the files named
*.txt, *.md, *.markdown, *.text or without an extension, not in subfolders,
not hidden, and not pieces an earlier split wrote. It says per file what it
did.

Existing files are never overwritten: when any piece's name is taken,
nothing is written.`,
		Example: `  palace split ~/notes/all-sessions.txt
  palace split ~/notes/transcripts --out ~/notes/sessions`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			res, err := ops.Split(ops.SplitRequest{Path: a[0], Out: outDir})
			out := c.OutOrStdout()
			for _, e := range res.Earlier {
				fmt.Fprintf(out, "%s: a piece of an earlier split; left alone\n", termsafe.Line(e))
			}
			if err != nil {
				return flagError(c, err)
			}
			if res.Folder && len(res.Transcripts) == 0 {
				fmt.Fprintf(out, "%s holds no transcripts to split (*.txt, *.md, *.markdown, *.text or extension-less files)\n", termsafe.Line(a[0]))
			}
			for _, t := range res.Transcripts {
				switch {
				case res.Folder && len(t.Pieces) == 0:
					fmt.Fprintf(out, "%s: one session; nothing to split\n", termsafe.Line(t.Source))
				case res.Folder:
					fmt.Fprintf(out, "%s: %d sessions\n", termsafe.Line(t.Source), len(t.Pieces))
					for _, n := range t.Pieces {
						fmt.Fprintf(out, "  %s\n", termsafe.Line(n))
					}
				case len(t.Pieces) == 0:
					fmt.Fprintf(out, "%s holds one session; nothing to split\n", termsafe.Line(t.Source))
				default:
					fmt.Fprintln(out, strings.Join(termsafe.Lines(t.Pieces), "\n"))
				}
			}
			return nil
		},
	}
	c.Flags().StringVar(&outDir, "out", "", "folder for the session files (default: each transcript's folder)")
	return c
}
