package mine

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/palace-dev/palace/core/convo"
)

// skipDirs are version-control and dependency folders: never a project's own
// words, often huge.
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".bzr": true, "_darcs": true, ".jj": true,
	"node_modules": true, "bower_components": true, "vendor": true, ".venv": true, "venv": true,
	"__pycache__": true, ".tox": true, ".mypy_cache": true, ".pytest_cache": true, ".gradle": true,
	"Pods": true, ".bundle": true,
}

// sensitiveNames are folders and files that hold credentials (SSH and GPG
// keys, cloud and database passwords): a mine that meets them inside the
// folder it walks (a home folder handed over as a workspace) skips them,
// whatever the ignore files say. Named as the path to mine itself, they
// are mined: the user asked for exactly that.
var sensitiveNames = map[string]bool{".ssh": true, ".aws": true, ".gnupg": true, ".netrc": true, ".pgpass": true}

// ignoreFiles are read in every directory; later files and deeper
// directories take priority, as in git.
var ignoreFiles = []string{".gitignore", ".palaceignore"}

// palaceFiles configure mining and are never mined: a drawer of palace.yaml
// would answer searches for the project's words with its settings. A
// nested palace.yaml is skipped too: it configures the folder below when
// that folder is mined on its own, and is no more a memory there.
var palaceFiles = map[string]bool{ConfigName: true, ".palaceignore": true}

// candidate is a regular file the walk wants mined.
type candidate struct {
	path string // absolute
	rel  string // slash-separated, relative to the root
	info fs.FileInfo
}

// walker collects candidates and the entries it skipped.
type walker struct {
	root    string
	files   []candidate
	skipped []Skip
}

// walk lists the files under root that are not ignored by .gitignore (at any
// depth, with negations), .git/info/exclude or .palaceignore, and not inside
// VCS or dependency folders. Symbolic links are reported and not followed,
// so a link loop cannot trap the walk.
func walk(root string) (*walker, error) {
	w := &walker{root: root}
	exclude, err := readPatterns(filepath.Join(root, ".git", "info", "exclude"))
	if err != nil {
		return nil, err
	}
	if err := w.dir(root, nil, ignoreMatcher{}, exclude); err != nil {
		return nil, err
	}
	sort.Slice(w.files, func(i, j int) bool { return w.files[i].rel < w.files[j].rel })
	return w, nil
}

// dir walks the directory abs (rel below the root) under the ignore rules
// of the directories above it in m; extra are lines that rank below this
// directory's own ignore files (the root's .git/info/exclude).
func (w *walker) dir(abs string, rel []string, m ignoreMatcher, extra []string) error {
	lines := extra
	for _, name := range ignoreFiles {
		more, err := readPatterns(filepath.Join(abs, name))
		if err != nil {
			w.skip(filepath.Join(abs, name), ReasonUnreadable, err)
			continue
		}
		lines = append(lines, more...)
	}
	m = m.with(rel, lines)
	entries, err := os.ReadDir(abs)
	if err != nil {
		if len(rel) == 0 {
			return fmt.Errorf("read %s: %w", abs, err)
		}
		w.skip(abs, ReasonUnreadable, err)
		return nil
	}
	for _, e := range entries {
		p := filepath.Join(abs, e.Name())
		r := append(rel[:len(rel):len(rel)], e.Name())
		typ := e.Type()
		switch {
		case sensitiveNames[e.Name()]:
			w.skip(p, ReasonSensitive, nil)
		case typ&fs.ModeSymlink != 0:
			w.skip(p, ReasonSymlink, nil)
		case e.IsDir():
			if skipDirs[e.Name()] || m.Match(r, true) {
				w.skip(p, ReasonIgnored, nil)
				continue
			}
			if err := w.dir(p, r, m, nil); err != nil {
				return err
			}
		case !typ.IsRegular():
			w.skip(p, ReasonSpecial, nil)
		default:
			if m.Match(r, false) {
				w.skip(p, ReasonIgnored, nil)
				continue
			}
			if palaceFiles[e.Name()] {
				w.skip(p, ReasonMetadata, nil)
				continue
			}
			info, err := e.Info()
			if err != nil {
				// Vanished between ReadDir and Info: nothing to mine.
				if errors.Is(err, fs.ErrNotExist) {
					continue
				}
				w.skip(p, ReasonUnreadable, err)
				continue
			}
			w.files = append(w.files, candidate{path: p, rel: strings.Join(r, "/"), info: info})
		}
	}
	return nil
}

// dropSlackMetadata moves the metadata files of Slack exports (users.json,
// channels.json, ...) from the files to mine to the skipped ones: the
// export's day files are its conversations, and users.json only names
// their speakers.
func (w *walker) dropSlackMetadata() {
	rels := make([]string, len(w.files))
	for i, c := range w.files {
		rels[i] = c.rel
	}
	meta := convo.SlackMetadata(rels)
	if len(meta) == 0 {
		return
	}
	kept := w.files[:0]
	for _, c := range w.files {
		if meta[c.rel] {
			w.skip(c.path, ReasonMetadata, nil)
			continue
		}
		kept = append(kept, c)
	}
	w.files = kept
}

func (w *walker) skip(path, reason string, err error) {
	s := Skip{Path: path, Reason: reason}
	if err != nil {
		s.Detail = err.Error()
	}
	w.skipped = append(w.skipped, s)
}

// readPatterns reads the pattern lines of one ignore file (comments and
// blank lines dropped); a missing file has none.
func readPatterns(path string) ([]string, error) {
	f, err := os.Open(path)
	// ENOTDIR: .git is a file (a worktree or submodule), so no exclude file.
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read ignore file %s: %w", path, err)
	}
	defer f.Close()
	var ps []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read ignore file %s: %w", path, err)
	}
	return ps, nil
}
