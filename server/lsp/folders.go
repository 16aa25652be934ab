package lsp

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"go.lsp.dev/uri"

	"github.com/palace-dev/palace/core/fsx"
	"github.com/palace-dev/palace/core/ops"
)

// folder is a workspace folder: one wing, mined as `palace mine` would.
type folder struct {
	uri  string // as the client sent it
	path string // absolute, cleaned
	name string
	// fixedWing is the wing initializationOptions chose; empty means
	// ops.ResolveWing's, read at every use so an edited palace.yaml takes
	// effect.
	fixedWing string
}

// wing is the folder's wing, the one `palace mine FOLDER`, an agent's
// session and its hooks in the folder use (ops.ResolveWing: the nearest
// palace.yaml at or above it, else its git work tree's root, else its
// name). A palace.yaml that cannot be read leaves the folder's own name:
// the mine reports the file itself.
func (f *folder) wing() string {
	if f.fixedWing != "" {
		return f.fixedWing
	}
	return ops.FolderWing(f.path)
}

// contains reports whether path is inside the folder.
func (f *folder) contains(path string) bool {
	return path == f.path || strings.HasPrefix(path, f.path+string(filepath.Separator))
}

// folders is the set of workspace folders, which the client may change.
type folders struct {
	mu   sync.Mutex
	list []*folder
}

// add returns the folder for u, adding it if new. A folder that must not
// be mined whole (ops.BroadFolder: a home folder, the file system root) is
// not added: refused says why, so the user is told at once rather than by
// a failed mine.
func (fs *folders) add(u, name string, cfg config) (f *folder, isNew bool, refused string) {
	path := uriPath(u)
	if path == "" {
		return nil, false, ""
	}
	if why := ops.BroadFolder(path); why != "" {
		return nil, false, why
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, f := range fs.list {
		if f.path == path {
			return f, false, ""
		}
	}
	if name == "" {
		name = filepath.Base(path)
	}
	f = &folder{uri: u, path: path, name: name, fixedWing: cfg.wingFor(u, path, name)}
	fs.list = append(fs.list, f)
	// Longest path first, so a nested folder wins over its parent.
	sort.SliceStable(fs.list, func(i, j int) bool { return len(fs.list[i].path) > len(fs.list[j].path) })
	return f, true, ""
}

// refuseFolder tells the user, in the log and as a warning in the editor,
// that a workspace folder is not mined.
func (s *server) refuseFolder(u, why string) {
	msg := fmt.Sprintf("Palace does not mine the workspace folder %s: %s, and mining it would store everything below "+
		"it. Open a project folder instead, or mine what you mean with `palace mine DIR`.", uriPath(u), why)
	s.warnf("%s", msg)
	s.sendNotification("window/showMessage", map[string]any{"type": 2, "message": msg}) // 2: Warning
}

func (fs *folders) remove(u string) *folder {
	path := uriPath(u)
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, f := range fs.list {
		if f.path == path {
			fs.list = append(fs.list[:i], fs.list[i+1:]...)
			return f
		}
	}
	return nil
}

// of returns the innermost folder holding path, or nil.
func (fs *folders) of(path string) *folder {
	if path == "" {
		return nil
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, f := range fs.list {
		if f.contains(path) {
			return f
		}
	}
	return nil
}

// holds reports whether path is inside a folder, and resolves its
// symlinks. A path that is inside no folder as written (nor inside a
// folder's resolved path) is refused before anything of it is looked at,
// so the answer for a path outside is the same whether it exists or not.
// A path inside is resolved and must still be inside once its links are,
// so a symlink in the workspace that points out of it does not count; when
// it cannot be resolved, its deepest resolvable folder decides, so a
// missing file behind such a link is outside too. real is path resolved;
// err says a path inside cannot be resolved (it does not exist, or a
// folder on the way cannot be read).
func (fs *folders) holds(path string) (real string, ok bool, err error) {
	all := fs.all()
	roots := make([]string, 0, len(all))
	for _, f := range all {
		roots = append(roots, f.path)
	}
	lexical := false
	for _, f := range all {
		if f.contains(path) {
			lexical = true
			break
		}
	}
	if !lexical {
		// The client may name a folder through another of its paths
		// (a symlinked home, /var and /private/var): the folders are
		// resolved, never the path.
		for _, r := range roots {
			if rr, err := filepath.EvalSymlinks(r); err == nil && (&folder{path: rr}).contains(path) {
				lexical = true
				break
			}
		}
	}
	if !lexical {
		return "", false, nil
	}
	real, at, err := fsx.Inside(path, roots)
	if err == nil {
		return real, at >= 0, nil
	}
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		if _, at, derr := fsx.Inside(dir, roots); derr == nil {
			if at < 0 {
				return "", false, nil
			}
			break
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return "", true, err
}

func (fs *folders) all() []*folder {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return append([]*folder(nil), fs.list...)
}

// only returns the single folder when there is exactly one: the default
// wing for requests that name no document.
func (fs *folders) only() *folder {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if len(fs.list) == 1 {
		return fs.list[0]
	}
	return nil
}

// uriPath is the file-system path of a file: URI, or "" for other schemes
// (untitled:, ...) and unparsable URIs.
func uriPath(s string) string {
	if s == "" {
		return ""
	}
	u, err := uri.Parse(s)
	if err != nil || !u.IsFile() {
		return ""
	}
	p := u.FsPath()
	if p == "" || !filepath.IsAbs(p) {
		return ""
	}
	return filepath.Clean(p)
}

// fileURI is the file: URI of an absolute path.
func fileURI(path string) string { return uri.File(path).String() }
