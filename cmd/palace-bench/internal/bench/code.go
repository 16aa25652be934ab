package bench

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
)

// DefaultCodeMax is how many qualifying commits, newest first, `palace
// bench code` asks about by default.
const DefaultCodeMax = 200

// codeFiles is how many files each Palace search asks for, by file as
// `palace search --by file` does: a file holding many of the best drawers
// (a makefile's dependency lines, a long changelog) fills one row, not the
// whole list, as the reference's chunks collapse to its ten files.
const codeFiles = 10

// CodeOptions configure Code.
type CodeOptions struct {
	Repo   string // a git work tree or bare repository
	Max    int    // queries; 0: DefaultCodeMax
	TmpDir string // where HEAD's tree and the palace go; "": the system's
}

// CodeQueryResult is one query: its gold files and each side's top 10.
type CodeQueryResult struct {
	Commit    string   `json:"commit"`
	Query     string   `json:"query"`
	Gold      []string `json:"gold"`
	Palace    []string `json:"palace"`
	Reference []string `json:"reference"`
}

// CodeReport is what `palace bench code` prints.
type CodeReport struct {
	Repo      string             `json:"repo"`
	Head      string             `json:"head"`
	Queries   int                `json:"queries"`
	Palace    map[string]float64 `json:"palace"`
	Reference map[string]float64 `json:"reference"`
	Files     int                `json:"files_mined"`
	Drawers   int                `json:"drawers"`
	RefChunks int                `json:"reference_chunks"`
	// Skipped counts the commits passed over before the last query, by
	// reason.
	Skipped map[string]int    `json:"skipped"`
	Seconds float64           `json:"seconds"`
	ByQuery []CodeQueryResult `json:"by_query"`
}

// CodeMetricKeys lists the metric names in report order.
func CodeMetricKeys() []string { return append([]string(nil), codeMetricKeys...) }

// Code asks a repository's history where its code is: each qualifying
// commit's cleaned subject (see selectQueries) is a query whose answer is
// the source files the commit changed. HEAD's tree is mined into a fresh
// palace through ops.Mine and each query runs through ops.Search as `palace
// search` runs it; the same queries run through the BM25 reference over
// the same tree. Both are lexical: the palace has no embedding model, so
// the figures do not depend on the machine's setup.
func Code(ctx context.Context, o CodeOptions) (*CodeReport, error) {
	start := time.Now()
	if o.Max == 0 {
		o.Max = DefaultCodeMax
	}
	if err := o.Check(); err != nil {
		return nil, fmt.Errorf("bench code: %w", err)
	}
	head, err := gitOut(ctx, o.Repo, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return nil, fmt.Errorf("bench code: --repo %s: not a git repository with a commit (%w)", o.Repo, err)
	}
	tmp, err := os.MkdirTemp(o.TmpDir, "palace-bench-code-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	tree, err := filepath.Abs(filepath.Join(tmp, "tree"))
	if err != nil {
		return nil, err
	}
	texts, err := extractHead(ctx, o.Repo, tree)
	if err != nil {
		return nil, err
	}
	commits, err := gitCommits(ctx, o.Repo)
	if err != nil {
		return nil, err
	}
	exists := func(f string) bool { _, ok := texts[f]; return ok }
	valid := func(q string) bool {
		return ops.SearchRequest{Query: q, Limit: codeFiles, By: ops.ByFile}.Validate() == nil
	}
	queries, skipped := selectQueries(commits, exists, valid, o.Max)

	home := filepath.Join(tmp, "home")
	p, err := palace.Open(home, palace.Options{Embed: &embed.Config{Backend: embed.BackendNone, Home: home}})
	if err != nil {
		return nil, err
	}
	defer p.Close()
	mined, err := ops.Mine(ctx, p, ops.MineRequest{Path: tree, NoVectors: true})
	if err != nil {
		return nil, fmt.Errorf("bench code: mine HEAD's tree: %w", err)
	}
	st, err := ops.Status(ctx, p, ops.StatusRequest{})
	if err != nil {
		return nil, err
	}
	ref := newRefIndex(texts)

	r := &CodeReport{Repo: o.Repo, Head: strings.TrimSpace(head), Queries: len(queries), Files: mined.FilesMined,
		Drawers: st.Drawers, RefChunks: len(ref.chunks), Skipped: skipped, ByQuery: []CodeQueryResult{}}
	var pm, rm []map[string]float64
	for _, q := range queries {
		res, err := ops.Search(ctx, p, ops.SearchRequest{Query: q.Query, Limit: codeFiles, By: ops.ByFile})
		if err != nil {
			return nil, fmt.Errorf("bench code: search %q: %w", q.Query, err)
		}
		var files []string
		for _, h := range res.Hits {
			if rel, err := filepath.Rel(tree, h.Source); err == nil && !strings.HasPrefix(rel, "..") {
				files = append(files, filepath.ToSlash(rel))
			}
		}
		qr := CodeQueryResult{Commit: q.Commit, Query: q.Query, Gold: q.Gold,
			Palace: nonNil(collapse(files, codeFiles)), Reference: nonNil(ref.search(q.Query, codeFiles))}
		pm = append(pm, codeMetrics(qr.Gold, qr.Palace))
		rm = append(rm, codeMetrics(qr.Gold, qr.Reference))
		r.ByQuery = append(r.ByQuery, qr)
	}
	r.Palace, r.Reference = meanMetrics(pm), meanMetrics(rm)
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// gitOut runs git in repo and returns its standard output.
func gitOut(ctx context.Context, repo string, args ...string) (string, error) {
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", repo}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// gitCommits lists the non-merge commits reachable from HEAD, newest
// first, with their subjects and changed files (renames under their new
// name).
func gitCommits(ctx context.Context, repo string) ([]codeCommit, error) {
	out, err := gitOut(ctx, repo, "-c", "core.quotePath=false", "log", "--no-merges", "-z", "--no-renames",
		"--format=%x1e%H%x1f%s", "--name-only", "HEAD")
	if err != nil {
		return nil, fmt.Errorf("bench code: %w", err)
	}
	return parseGitLog(out), nil
}

// parseGitLog reads `git log -z --format=%x1e%H%x1f%s --name-only`: each
// commit starts with a record separator, then hash, unit separator,
// subject, a NUL, a newline and its files separated by NULs.
func parseGitLog(out string) []codeCommit {
	var cs []codeCommit
	for _, rec := range strings.Split(out, "\x1e") {
		head, files, _ := strings.Cut(rec, "\x00")
		hash, subject, ok := strings.Cut(head, "\x1f")
		if !ok {
			continue
		}
		c := codeCommit{Hash: hash, Subject: subject}
		for _, f := range strings.Split(files, "\x00") {
			if f = strings.TrimLeft(f, "\n"); f != "" {
				c.Files = append(c.Files, f)
			}
		}
		cs = append(cs, c)
	}
	return cs
}

// extractHead writes HEAD's tree (git archive, so a bare repository works
// too) under dir and returns the text of every text file by its
// repository path. A file with a NUL byte in its first 8000 bytes is
// binary, as git decides.
func extractHead(ctx context.Context, repo, dir string) (map[string]string, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", repo, "archive", "--format=tar", "HEAD")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench code: git archive: %w", err)
	}
	texts, terr := untar(pipe, dir)
	if terr != nil {
		io.Copy(io.Discard, pipe)
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("bench code: git archive HEAD: %w: %s", err, strings.TrimSpace(errb.String()))
	}
	if terr != nil {
		return nil, fmt.Errorf("bench code: extract HEAD's tree: %w", terr)
	}
	return texts, nil
}

// untar writes the regular files of a tar stream under dir (symlinks and
// submodules are left out) and returns the text files' contents.
func untar(r io.Reader, dir string) (map[string]string, error) {
	texts := map[string]string{}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return texts, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		name := path.Clean(h.Name)
		if !filepath.IsLocal(filepath.FromSlash(name)) {
			return nil, fmt.Errorf("%s: a path outside the tree", h.Name)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		dst := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return nil, err
		}
		if !bytes.Contains(b[:min(len(b), 8000)], []byte{0}) {
			texts[name] = string(b)
		}
	}
}
