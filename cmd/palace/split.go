package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/core/convo"
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
			fi, err := os.Stat(a[0])
			if err != nil {
				return fmt.Errorf("split: %w", err)
			}
			srcs := []string{a[0]}
			if fi.IsDir() {
				if srcs, err = transcriptsIn(c.OutOrStdout(), a[0]); err != nil {
					return err
				}
			}
			plans, err := planSplits(srcs, outDir)
			if err != nil {
				return err
			}
			for _, p := range plans {
				if err := p.write(); err != nil {
					return err
				}
				if fi.IsDir() {
					p.report(c.OutOrStdout())
				} else if len(p.names) == 0 {
					fmt.Fprintf(c.OutOrStdout(), "%s holds one session; nothing to split\n", termLine(p.src))
				} else {
					fmt.Fprintln(c.OutOrStdout(), strings.Join(termLines(p.names), "\n"))
				}
			}
			return nil
		},
	}
	c.Flags().StringVar(&outDir, "out", "", "folder for the session files (default: each transcript's folder)")
	return c
}

// splitPiece matches the names split writes, FILE-stem.session-NN.ext.
var splitPiece = regexp.MustCompile(`\.session-\d{2,}(\.[^.]*)?$`)

// transcriptsIn lists dir's transcripts, saying which files it leaves out
// for being pieces of an earlier split.
func transcriptsIn(w io.Writer, dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("split %s: %w", dir, err)
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || strings.HasPrefix(name, ".") || !convo.TextName(name) {
			continue
		}
		path := filepath.Join(dir, name)
		if splitPiece.MatchString(name) {
			fmt.Fprintf(w, "%s: a piece of an earlier split; left alone\n", termLine(path))
			continue
		}
		out = append(out, path)
	}
	if len(out) == 0 {
		fmt.Fprintf(w, "%s holds no transcripts to split (*.txt, *.md, *.markdown, *.text or extension-less files)\n", termLine(dir))
	}
	return out, nil
}

// splitPlan is one transcript and the files its sessions go to (none
// when it holds one session).
type splitPlan struct {
	src   string
	parts [][]byte
	names []string
}

// planSplits reads each transcript and names its pieces, refusing before
// anything is written when a name is taken, on disk or by another piece.
func planSplits(srcs []string, outDir string) ([]splitPlan, error) {
	taken := map[string]string{}
	plans := make([]splitPlan, 0, len(srcs))
	for _, src := range srcs {
		data, err := os.ReadFile(src)
		if err != nil {
			return nil, fmt.Errorf("split: %w", err)
		}
		p := splitPlan{src: src}
		if p.parts = convo.SplitSessions(data); len(p.parts) < 2 {
			p.parts = nil
			plans = append(plans, p)
			continue
		}
		dir := outDir
		if dir == "" {
			dir = filepath.Dir(src)
		}
		ext := filepath.Ext(src)
		stem := strings.TrimSuffix(filepath.Base(src), ext)
		for i := range p.parts {
			n := filepath.Join(dir, fmt.Sprintf("%s.session-%02d%s", stem, i+1, ext))
			if other, ok := taken[n]; ok {
				return nil, fmt.Errorf("split: %s and %s would both write %s; nothing written (split them one at a time)", other, src, n)
			}
			if _, err := os.Lstat(n); err == nil {
				return nil, fmt.Errorf("split: %s already exists; nothing written (choose another --out)", n)
			} else if !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("split: %w", err)
			}
			taken[n] = src
			p.names = append(p.names, n)
		}
		plans = append(plans, p)
	}
	return plans, nil
}

// write writes the plan's pieces, making their folder if needed.
func (p splitPlan) write() error {
	for i, n := range p.names {
		if err := os.MkdirAll(filepath.Dir(n), 0o755); err != nil {
			return fmt.Errorf("split %s: %w", p.src, err)
		}
		if err := os.WriteFile(n, p.parts[i], 0o644); err != nil {
			return fmt.Errorf("split %s: %w", p.src, err)
		}
	}
	return nil
}

// report says what became of one transcript of a folder.
func (p splitPlan) report(w io.Writer) {
	if len(p.names) == 0 {
		fmt.Fprintf(w, "%s: one session; nothing to split\n", termLine(p.src))
		return
	}
	fmt.Fprintf(w, "%s: %d sessions\n", termLine(p.src), len(p.names))
	for _, n := range p.names {
		fmt.Fprintf(w, "  %s\n", termLine(n))
	}
}
