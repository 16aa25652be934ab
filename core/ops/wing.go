package ops

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/route"
)

// checkWing refuses a filter on a wing the palace does not hold: a typo
// would otherwise read as "nothing matches", the silent failure a memory
// must not have. The error lists the wings there are.
func checkWing(ctx context.Context, p *palace.Palace, field, wing string) error {
	if wing == "" {
		return nil
	}
	if ok, err := p.Store.HasWing(ctx, wing); ok || err != nil {
		return err
	}
	wings, err := p.Store.Wings(ctx)
	if err != nil {
		return err
	}
	if len(wings) == 0 {
		return input.Invalid(field, "%s: no such wing (the palace is empty)", input.Quote(wing))
	}
	const show = 20
	list := wings
	more := ""
	if len(list) > show {
		list, more = list[:show], ", ..."
	}
	return input.Invalid(field, "%s: no such wing (wings: %s%s)", input.Quote(wing), strings.Join(list, ", "), more)
}

// How ResolveWing found a wing (ResolvedWing.From).
const (
	WingFromConfig = "palace.yaml" // the nearest palace.yaml at or above the path
	WingFromGit    = "git"         // the root of the git work tree the path is in
	WingFromFolder = "folder"      // the path's own folder
)

// ResolvedWing is the project a path belongs to and its wing.
type ResolvedWing struct {
	Wing string `json:"wing"`
	// Project is the folder that decided: the palace.yaml's, the git work
	// tree's root, or the path's own folder.
	Project string `json:"project"`
	// From is how: WingFromConfig, WingFromGit or WingFromFolder.
	From string `json:"from"`
}

// ResolveWing is the one answer every front gives to "which project is
// this" for a folder (or a file's folder): a hook's session directory, an
// MCP root, an LSP workspace folder, the folder `palace mine` mines. It
// walks up from the folder to the nearest palace.yaml and takes its wing
// (else the name of the folder holding it); with none, the root of the
// git work tree the folder is in names the wing (a session started in
// proj/src works on proj, the folder a Stop hook mines); else the folder's
// own name. The walk never reads a folder BroadFolder refuses (a home
// folder, /home, the file system root): a palace.yaml or a dotfiles
// repository there would make every folder below it one project. Such a
// folder itself belongs to no project, and is refused (the error matches
// ErrBroadFolder). A palace.yaml that cannot be read, or that names a wing
// no operation could address, is an error naming the file: the wing it
// meant is not known, and a guess would file the session's work elsewhere.
// A relative path is taken from the working directory.
func ResolveWing(path string) (ResolvedWing, error) {
	if err := checkText("path", path); err != nil {
		return ResolvedWing{}, err
	}
	if len(path) > MaxPathBytes {
		return ResolvedWing{}, input.Invalid("path", "is %d bytes long: at most %d", len(path), MaxPathBytes)
	}
	if strings.ContainsRune(path, 0) {
		return ResolvedWing{}, input.Invalid("path", "contains a NUL byte")
	}
	dir, err := filepath.Abs(path)
	if err != nil {
		return ResolvedWing{}, input.Invalid("path", "%s: %v", input.Quote(path), err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return ResolvedWing{}, input.Invalid("path", "%s: %v", input.Quote(path), errors.Unwrap(err))
	}
	if !fi.IsDir() {
		dir = filepath.Dir(dir)
	}
	if why := BroadFolder(dir); why != "" {
		return ResolvedWing{}, broadFolderError{input.Invalid("path", "%s: %s, which belongs to no project: "+
			"start in a project folder or name the wing", input.Quote(dir), why)}
	}
	r, err := walkToProject(dir)
	if err != nil {
		return ResolvedWing{}, fmt.Errorf("wing of %s: %w", dir, err)
	}
	if err := route.CheckName("wing", r.Wing); err != nil {
		if r.From == WingFromConfig {
			return ResolvedWing{}, fmt.Errorf("wing of %s: %s: %w", dir, filepath.Join(r.Project, mine.ConfigName), err)
		}
		return ResolvedWing{}, fmt.Errorf("wing of %s: %w (name the wing)", dir, err)
	}
	return r, nil
}

// walkToProject is ResolveWing's walk up from dir, a folder BroadFolder
// accepts.
func walkToProject(dir string) (ResolvedWing, error) {
	git := ""
	for d := dir; ; {
		cfg, err := mine.LoadConfig(d)
		if err != nil {
			return ResolvedWing{}, err
		}
		if cfg != nil {
			return ResolvedWing{Wing: mine.WingOf(d, cfg), Project: d, From: WingFromConfig}, nil
		}
		if git == "" {
			if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
				git = d
			}
		}
		up := filepath.Dir(d)
		if up == d || BroadFolder(up) != "" {
			break
		}
		d = up
	}
	if git != "" {
		return ResolvedWing{Wing: mine.WingOf(git, nil), Project: git, From: WingFromGit}, nil
	}
	return ResolvedWing{Wing: mine.WingOf(dir, nil), Project: dir, From: WingFromFolder}, nil
}

// FolderWing is the wing of a folder a server was given (an editor's
// workspace folder): ResolveWing's, else, when that fails (a palace.yaml
// that cannot be read, a broad folder), the folder's own name, which the
// mine then reports the problem under.
func FolderWing(dir string) string {
	if w, err := ResolveWing(dir); err == nil {
		return w.Wing
	}
	return mine.WingOf(dir, nil)
}

// Wings are the names a wing filter accepts (wings holding a drawer or a
// taxonomy room), sorted: what a client completes a wing argument from.
func Wings(ctx context.Context, p *palace.Palace) ([]string, error) {
	ws, err := p.Store.Wings(ctx)
	if err != nil {
		return nil, fmt.Errorf("wings: %w", err)
	}
	return ws, nil
}
