package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/core/convo"
)

func newSplitCmd() *cobra.Command {
	var outDir string
	c := &cobra.Command{
		Use:   "split FILE",
		Short: "Split a multi-session text transcript into one file per session",
		Long: `Split cuts a plain-text transcript holding several sessions (copied Claude Code
sessions, notes with a "# Session" heading each) into FILE-stem.session-NN.ext
files, in --out or beside FILE. The pieces join back to FILE byte for byte.
Existing files are never overwritten.`,
		Args: args(cobra.ExactArgs(1)),
		RunE: func(c *cobra.Command, a []string) error {
			data, err := os.ReadFile(a[0])
			if err != nil {
				return err
			}
			parts := convo.SplitSessions(data)
			if len(parts) < 2 {
				fmt.Fprintf(c.OutOrStdout(), "%s holds one session; nothing to split\n", a[0])
				return nil
			}
			if outDir == "" {
				outDir = filepath.Dir(a[0])
			}
			if err := os.MkdirAll(outDir, 0o755); err != nil {
				return err
			}
			ext := filepath.Ext(a[0])
			stem := strings.TrimSuffix(filepath.Base(a[0]), ext)
			var names []string
			for i := range parts {
				names = append(names, filepath.Join(outDir, fmt.Sprintf("%s.session-%02d%s", stem, i+1, ext)))
			}
			for _, n := range names {
				if _, err := os.Lstat(n); err == nil {
					return fmt.Errorf("%s already exists; nothing written (choose another --out)", n)
				} else if !errors.Is(err, fs.ErrNotExist) {
					return err
				}
			}
			for i, n := range names {
				if err := os.WriteFile(n, parts[i], 0o644); err != nil {
					return err
				}
				fmt.Fprintln(c.OutOrStdout(), n)
			}
			return nil
		},
	}
	c.Flags().StringVar(&outDir, "out", "", "folder for the session files (default: FILE's folder)")
	return c
}
