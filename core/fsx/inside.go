package fsx

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// maxLinks bounds the symbolic links Inside follows, as the kernel does
// (ELOOP), so a link cycle inside a root ends.
const maxLinks = 40

// Inside is Within for paths a client names: it resolves path's symbolic
// links one at a time and never looks at anything outside roots. A path
// that lies outside every root, as written or through a link, gives
// ("", -1, nil) without a stat of it, so the refusal is the same whether
// the file exists or not and a client cannot probe the rest of the disk.
// Only below a root does err report a missing file or unreadable folder.
// real has no symbolic links; at is the innermost root holding it.
func Inside(path string, roots []string) (real string, at int, err error) {
	// The roots themselves are trusted: the user chose them.
	resolved := make([]string, len(roots))
	for i, r := range roots {
		if d, err := filepath.EvalSymlinks(r); err == nil {
			resolved[i] = d
		}
	}
	p := filepath.Clean(path)
	for links := 0; ; {
		i, inRoot := holder(p, roots, resolved)
		if i < 0 {
			return "", -1, nil
		}
		p = inRoot
		rest, _ := filepath.Rel(resolved[i], p)
		cur, next := resolved[i], ""
		var parts []string
		if rest != "." {
			parts = strings.Split(rest, string(filepath.Separator))
		}
		for k, c := range parts {
			step := filepath.Join(cur, c)
			fi, err := os.Lstat(step)
			if err != nil {
				return "", -1, err
			}
			if fi.Mode()&fs.ModeSymlink == 0 {
				cur = step
				continue
			}
			if links++; links > maxLinks {
				return "", -1, &fs.PathError{Op: "resolve", Path: path, Err: errors.New("too many symbolic links")}
			}
			target, err := os.Readlink(step)
			if err != nil {
				return "", -1, err
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(cur, target)
			}
			// The link's target replaces what is resolved so far; the
			// next round checks it lies inside a root before any stat.
			next = filepath.Join(append([]string{target}, parts[k+1:]...)...)
			break
		}
		if next == "" {
			return p, i, nil
		}
		p = next
	}
}

// holder finds the innermost root holding p as written, comparing with each
// root both as given and resolved, and returns its index and p rewritten
// below the resolved root (-1 when no root holds p).
func holder(p string, roots, resolved []string) (int, string) {
	at, best, out := -1, "", ""
	for i, r := range roots {
		if resolved[i] == "" {
			continue // a missing root holds nothing
		}
		for _, dir := range []string{filepath.Clean(r), resolved[i]} {
			if !under(p, dir) {
				continue
			}
			if at < 0 || len(resolved[i]) > len(best) {
				rel, _ := filepath.Rel(dir, p)
				at, best, out = i, resolved[i], filepath.Join(resolved[i], rel)
			}
		}
	}
	return at, out
}
