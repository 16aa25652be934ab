package mine

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/palace-dev/palace/core/convo"
)

// skipDirs are version-control and dependency folders: never a project's own
// words, often huge.
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, ".bzr": true, "_darcs": true, ".jj": true,
	"node_modules": true, "bower_components": true, "vendor": true,
	"__pycache__": true, ".tox": true, ".mypy_cache": true, ".pytest_cache": true, ".gradle": true,
	"Pods": true, ".bundle": true,
}

// venvNames are the usual names of a Python virtual environment, skipped
// only when the folder is one (it holds pyvenv.cfg): a package named venv
// (CPython's Lib/venv, a tool's own venv module) is source.
var venvNames = map[string]bool{"venv": true, ".venv": true}

// SkippedByName reports whether a mine never enters a folder of this name,
// whatever it holds (.git, node_modules, ...). A venv folder is decided by
// what it holds (skipDir).
func SkippedByName(name string) bool { return skipDirs[name] }

// skipDir reports whether the folder dir, named name, is one a mine never
// enters.
func skipDir(dir, name string) bool {
	if skipDirs[name] {
		return true
	}
	if venvNames[name] {
		_, err := os.Stat(filepath.Join(dir, "pyvenv.cfg"))
		return err == nil
	}
	return false
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
//
// Folders are read on several goroutines (one per core): a no-op mine is
// mostly this walk, and on Go's src its lstat calls alone were a fifth of
// one. What they find is put together in the order of a walk on one
// goroutine, so nothing downstream sees the difference.
func walk(root string) (*walker, error) {
	w := &walker{root: root}
	exclude, err := readPatterns(filepath.Join(root, ".git", "info", "exclude"))
	if err != nil {
		return nil, err
	}
	d := &dirWalk{slots: make(chan struct{}, runtime.NumCPU())}
	found := d.dir(root, nil, ignoreMatcher{}, exclude)
	if found.err != nil {
		return nil, found.err
	}
	found.into(w)
	sort.Slice(w.files, func(i, j int) bool { return w.files[i].rel < w.files[j].rel })
	return w, nil
}

// dirWalk reads folders in parallel: a subfolder goes to a goroutine of
// its own while a slot is free, and is read in place otherwise.
type dirWalk struct {
	slots chan struct{}
}

// found is what the walk found in one folder and, in order, below it.
type found struct {
	files   []candidate
	skipped []Skip
	subs    []*found // the subfolders' findings, in entry order, after this folder's own
	err     error
	done    chan struct{} // closed once a subfolder read elsewhere is complete; nil if read in place
}

func (f *found) skip(path, reason string, err error) {
	s := Skip{Path: path, Reason: reason}
	if err != nil {
		s.Detail = err.Error()
	}
	f.skipped = append(f.skipped, s)
}

// wait returns once f and every folder below it are read, with the first
// error met in walk order.
func (f *found) wait() error {
	if f.done != nil {
		<-f.done
	}
	if f.err != nil {
		return f.err
	}
	for _, s := range f.subs {
		if err := s.wait(); err != nil {
			return err
		}
	}
	return nil
}

// into appends f's findings to w in the order a walk on one goroutine meets
// them: a folder's entries in name order, a subfolder's findings where the
// subfolder is.
func (f *found) into(w *walker) {
	w.files = append(w.files, f.files...)
	w.skipped = append(w.skipped, f.skipped...)
	for _, s := range f.subs {
		s.into(w)
	}
}

// dir walks the directory abs (rel below the root) under the ignore rules
// of the directories above it in m; extra are lines that rank below this
// directory's own ignore files (the root's .git/info/exclude). An error
// reading the root is the walk's; below it a folder that cannot be read is
// a skip.
func (d *dirWalk) dir(abs string, rel []string, m ignoreMatcher, extra []string) *found {
	f := &found{}
	f.err = d.read(f, abs, rel, m, extra)
	if f.err == nil {
		f.err = f.wait()
	}
	return f
}

// read lists abs into f, starting a read of each subfolder.
func (d *dirWalk) read(f *found, abs string, rel []string, m ignoreMatcher, extra []string) error {
	lines := extra
	for _, name := range ignoreFiles {
		more, err := readPatterns(filepath.Join(abs, name))
		if err != nil {
			f.skip(filepath.Join(abs, name), ReasonUnreadable, err)
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
		f.skip(abs, ReasonUnreadable, err)
		return nil
	}
	// Entries interleave files and folders, and a subfolder may be read
	// elsewhere while this loop goes on: the entries between two
	// subfolders are a group of their own, so walk order survives.
	var order []*found
	var cur *found // the group of this folder's own entries being filled
	own := func() *found {
		if cur == nil {
			cur = &found{}
			order = append(order, cur)
		}
		return cur
	}
	for _, e := range entries {
		p := filepath.Join(abs, e.Name())
		r := append(rel[:len(rel):len(rel)], e.Name())
		typ := e.Type()
		switch {
		case sensitiveNames[e.Name()]:
			own().skip(p, ReasonSensitive, nil)
		case typ&fs.ModeSymlink != 0:
			own().skip(p, ReasonSymlink, nil)
		case e.IsDir():
			if skipDir(p, e.Name()) || m.Match(r, true) {
				own().skip(p, ReasonIgnored, nil)
				continue
			}
			order = append(order, d.sub(p, r, m))
			cur = nil
		case !typ.IsRegular():
			own().skip(p, ReasonSpecial, nil)
		default:
			if m.Match(r, false) {
				own().skip(p, ReasonIgnored, nil)
				continue
			}
			if palaceFiles[e.Name()] {
				own().skip(p, ReasonMetadata, nil)
				continue
			}
			info, err := e.Info()
			if err != nil {
				// Vanished between ReadDir and Info: nothing to mine.
				if errors.Is(err, fs.ErrNotExist) {
					continue
				}
				own().skip(p, ReasonUnreadable, err)
				continue
			}
			g := own()
			g.files = append(g.files, candidate{path: p, rel: strings.Join(r, "/"), info: info})
		}
	}
	f.subs = order
	return nil
}

// sub reads the subfolder abs on a goroutine of its own when a slot is
// free, else in place.
func (d *dirWalk) sub(abs string, rel []string, m ignoreMatcher) *found {
	select {
	case d.slots <- struct{}{}:
		f := &found{done: make(chan struct{})}
		go func() {
			defer func() { <-d.slots }()
			defer close(f.done)
			f.err = d.read(f, abs, rel, m, nil)
		}()
		return f
	default:
		f := &found{}
		f.err = d.read(f, abs, rel, m, nil)
		return f
	}
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

// Configures reports whether the file at path changes how the folder
// holding it is mined (an ignore file or palace.yaml): a change to it can
// add or remove other files' drawers, so it calls for a mine of the
// folder, not of the file alone (Options.Only).
func Configures(path string) bool {
	base := filepath.Base(path)
	return base == ConfigName || slices.Contains(ignoreFiles, base)
}

// walkOnly decides about each of paths (absolute, below root) what walk
// would decide if it reached it, without listing any folder: the ignore
// files of root and of every folder down to the path's own are read, and
// each folder on the way is checked as walk checks it, so a file inside an
// ignored, skipped, sensitive or linked folder is skipped for the same
// reason walk would not have entered there. A path that does not exist
// (or is no longer below root) is neither a file nor a skip: its drawers
// are pruned as a folder mine would prune them. Slack metadata files are
// recognised by the files around them, as walk recognises them.
func walkOnly(root string, paths []string, slack bool) (*walker, error) {
	w := &walker{root: root}
	exclude, err := readPatterns(filepath.Join(root, ".git", "info", "exclude"))
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if c, ok := w.only(root, strings.Split(filepath.ToSlash(rel), "/"), exclude); ok {
			if slack && w.slackMetadata(root, c) {
				w.skip(c.path, ReasonMetadata, nil)
				continue
			}
			w.files = append(w.files, c)
		}
	}
	sort.Slice(w.files, func(i, j int) bool { return w.files[i].rel < w.files[j].rel })
	return w, nil
}

// only walks down to the file whose path below root is parts, reading the
// ignore files of each folder on the way as dir does, and returns it when
// walk would mine it; otherwise the skip is recorded (or, for a path that
// is not there, nothing).
func (w *walker) only(root string, parts []string, extra []string) (candidate, bool) {
	var m ignoreMatcher
	abs := root
	for i, name := range parts {
		lines := extra
		extra = nil
		for _, f := range ignoreFiles {
			more, err := readPatterns(filepath.Join(abs, f))
			if err != nil {
				w.skip(filepath.Join(abs, f), ReasonUnreadable, err)
				continue
			}
			lines = append(lines, more...)
		}
		m = m.with(parts[:i], lines)
		abs = filepath.Join(abs, name)
		r := parts[:i+1]
		info, err := os.Lstat(abs)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
				w.skip(abs, ReasonUnreadable, err)
			}
			return candidate{}, false
		}
		last := i == len(parts)-1
		typ := info.Mode().Type()
		switch {
		case sensitiveNames[name]:
			w.skip(abs, ReasonSensitive, nil)
		case typ&fs.ModeSymlink != 0:
			w.skip(abs, ReasonSymlink, nil)
		case info.IsDir():
			if skipDir(abs, name) || m.Match(r, true) {
				w.skip(abs, ReasonIgnored, nil)
			} else if !last {
				continue
			}
			// A folder named as a file to mine is not mined by itself.
		case !last:
			// A file where the path needs a folder: nothing there to mine.
		case !typ.IsRegular():
			w.skip(abs, ReasonSpecial, nil)
		case m.Match(r, false):
			w.skip(abs, ReasonIgnored, nil)
		case palaceFiles[name]:
			w.skip(abs, ReasonMetadata, nil)
		default:
			return candidate{path: abs, rel: strings.Join(r, "/"), info: info}, true
		}
		return candidate{}, false
	}
	return candidate{}, false
}

// slackMetadata reports whether c is a Slack export's metadata file, judged
// as dropSlackMetadata judges it: by the files of its folder and of the
// folders in it. Only a .json file can be one, so other files cost nothing.
func (w *walker) slackMetadata(root string, c candidate) bool {
	if filepath.Ext(c.path) != ".json" {
		return false
	}
	dir := filepath.Dir(c.path)
	relDir := path.Dir(c.rel)
	rels := []string{c.rel}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		rels = append(rels, path.Join(relDir, e.Name()))
		if !e.IsDir() {
			continue
		}
		sub, _ := os.ReadDir(filepath.Join(dir, e.Name()))
		for _, s := range sub {
			rels = append(rels, path.Join(relDir, e.Name(), s.Name()))
		}
	}
	return convo.SlackMetadata(rels)[c.rel]
}
