package ops

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/code"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/route"
	"github.com/palace-dev/palace/core/vectors"
)

// MineModes are what a mine looks for: auto (project files, plus JSON chat
// exports as conversations), projects (every text file as a project file)
// or convos (conversations only, plain-text transcripts included).
var MineModes = []string{mine.ModeAuto, mine.ModeProjects, mine.ModeConvos}

// Mine limits. Sizes are bytes; 0 in a request means the default.
const (
	DefaultMaxSize      = mine.DefaultMaxSize
	DefaultMaxConvoSize = mine.DefaultMaxConvoSize
	MaxPathBytes        = 4096
)

// MineRequest mines a folder or one file into the palace, incrementally,
// then embeds what has no vector yet.
type MineRequest struct {
	Path string // a folder or a file
	// Wing overrides the mined folder's palace.yaml and DefaultWing.
	Wing string
	// DefaultWing is the wing when Wing is empty and the mined folder (a
	// file's folder) has no palace.yaml naming one, such as the wing of
	// the workspace the folder is in. Empty: ResolveWing's (the project
	// the folder is in, else its name).
	DefaultWing  string
	Mode         string // one of MineModes; "" is auto
	MaxSize      int64  // project files; 0: DefaultMaxSize
	MaxConvoSize int64  // conversation exports; 0: DefaultMaxConvoSize
	// KeepSecrets stores files as they are, for this mine; files mined in
	// the other mode are mined again even if unchanged.
	KeepSecrets bool
	// NoVectors skips the embedding phase: the drawers are searchable
	// lexically, and Embed (or the next mine) gives them vectors.
	NoVectors bool
	// EmbedBudget bounds the embedding phase so the call returns; what is
	// left is embedded by the next mine or Embed. 0: no bound.
	EmbedBudget time.Duration
	// Files are paths the result reports on, one by one (an editor's
	// saved files): see MineResult.Files.
	Files []string
	// FilesOnly mines Files alone, in Path's context (Path a folder holding
	// them: its palace.yaml, ignore files, rooms and chunking), instead of
	// walking the folder; a file gone or now ignored loses its drawers as
	// in a folder mine. An editor's save costs that file, not the folder.
	FilesOnly bool
	// Progress and EmbedProgress report each phase's work, from one
	// goroutine at a time; either may be nil.
	Progress, EmbedProgress func(done, total int)
	// Trees keeps source files' syntax trees from one mine to the next (an
	// editor's saves), so a changed file is re-parsed incrementally; nil
	// for none.
	Trees *code.Trees
	// AllowHomeOrRoot mines a folder BroadFolder refuses. Only the CLI
	// offers it, as an explicit flag a person types: an agent or an
	// editor never gets to mine a whole home folder.
	AllowHomeOrRoot bool
}

// ErrBroadFolder is matched (errors.Is) by the refusal of a folder
// BroadFolder names, so a front that offers the override can say how.
var ErrBroadFolder = errors.New("folder too broad to mine")

// broadFolderError is an input error on the path that also matches
// ErrBroadFolder.
type broadFolderError struct{ err error }

func (e broadFolderError) Error() string   { return e.err.Error() }
func (e broadFolderError) Unwrap() []error { return []error{e.err, ErrBroadFolder} }

// Validate names the first bad field. A folder BroadFolder refuses is a
// bad path unless AllowHomeOrRoot; a relative path is taken from the
// working directory, as the mine takes it.
func (r MineRequest) Validate() error {
	if err := r.ValidateArgs(); err != nil {
		return err
	}
	// FilesOnly reads the named files alone, never the whole folder.
	if r.AllowHomeOrRoot || r.FilesOnly {
		return nil
	}
	if why := BroadFolder(r.Path); why != "" {
		return broadFolderError{input.Invalid("path", "%s: %s, and mining it would store everything below it "+
			"(dotfiles, caches, every other project); mine a project folder inside it instead", input.Quote(r.Path), why)}
	}
	return nil
}

// ValidateArgs is Validate without looking at the file system: what a
// front whose paths are relative to something else than the working
// directory (MCP, to its roots) checks before resolving the path, then
// Mine validates the resolved one.
func (r MineRequest) ValidateArgs() error {
	if err := checkText("path", r.Path); err != nil {
		return err
	}
	if len(r.Path) > MaxPathBytes {
		return input.Invalid("path", "is %d bytes long: at most %d", len(r.Path), MaxPathBytes)
	}
	if err := checkEnum("mode", r.Mode, MineModes); err != nil {
		return err
	}
	for _, w := range []struct{ field, v string }{{"wing", r.Wing}, {"default_wing", r.DefaultWing}} {
		if w.v == "" {
			continue
		}
		if err := route.CheckName("wing", w.v); err != nil {
			return input.Invalid(w.field, "%s", strings.TrimPrefix(err.Error(), "wing name "))
		}
	}
	for _, n := range []struct {
		field string
		v     int64
	}{{"max_size", r.MaxSize}, {"max_convo_size", r.MaxConvoSize}} {
		if n.v < 0 {
			return input.Invalid(n.field, "%d: want a number of bytes (0 for the default)", n.v)
		}
	}
	if r.EmbedBudget < 0 {
		return input.Invalid("embed_budget", "%s: want a duration (0 for no bound)", r.EmbedBudget)
	}
	if r.FilesOnly && len(r.Files) == 0 {
		// mine.Options.Only empty means a walk of the whole folder.
		return input.Invalid("files", "files_only without files: name the files to mine")
	}
	return nil
}

// homeFolders are the top-level folders that are or hold users' home
// folders on the systems Palace runs on, by name, with why each is
// refused: whoever the user is and whatever HOME says, mining one mines
// someone's home.
var homeFolders = map[string]string{
	"home":  "it holds users' home folders",
	"Users": "it holds users' home folders",
	"root":  "it is the root user's home folder",
}

// BroadFolder says why the folder path must not be mined whole, or "": the
// file system root, the user's home folder, a folder holding it (/home,
// /Users) or any other user's. Each would store everything below it,
// dotfiles and every other project included; a project inside them is
// fine, and so is a single file (an export saved in the home folder), which
// is mined alone. Paths are compared once their links are resolved, so a
// link to the home folder is the home folder.
func BroadFolder(path string) string {
	real, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(real); err == nil {
		real = r
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return "" // a missing path is the mine's to report
	}
	if filepath.Dir(real) == real {
		return "it is the file system root"
	}
	if h, err := os.UserHomeDir(); err == nil && filepath.IsAbs(h) {
		if rh, err := filepath.EvalSymlinks(h); err == nil {
			h = rh
		}
		h = filepath.Clean(h)
		if h == real {
			return "it is your home folder"
		}
		if strings.HasPrefix(h, real+string(filepath.Separator)) {
			return "it holds your home folder " + h
		}
	}
	if parent := filepath.Dir(real); filepath.Dir(parent) == parent {
		return homeFolders[filepath.Base(real)]
	}
	return ""
}

// MineResult is the mine's summary, the embedding phase's (nil with
// NoVectors or after a failed mine) and a notice of what needs the
// caller's attention though nothing failed.
type MineResult struct {
	*mine.Summary
	Vectors *vectors.Summary `json:"vectors,omitempty"`
	// Facts is what reading the wing's new conversations and notes
	// proposed, within MineExtractBudget (nil when the mine wrote nothing).
	Facts *KGExtractResult `json:"facts,omitempty"`
	// Notice: exports only partly readable (their valid part was mined),
	// or an embedding phase stopped by EmbedBudget.
	Notice string `json:"notice,omitempty"`
	// Files answers MineRequest.Files, by path.
	Files map[string]FileOutcome `json:"files,omitempty"`
}

// FileOutcome is what a mine made of one file: its drawers, or why it has
// none.
type FileOutcome struct {
	Drawers int `json:"drawers"`
	// Skipped is a mine.Reason* (ignored, too_large, metadata, ...) or
	// "deleted"; empty when the file has drawers.
	Skipped string `json:"skipped,omitempty"`
}

// Mine mines r.Path, waiting out a palace another process is writing, then
// embeds the drawers that have no vector yet (unless r.NoVectors). The
// lexical index is committed before embedding starts, so an embedding
// phase that stops early loses nothing: the rest is embedded later and
// found lexically meanwhile. A cancelled mine keeps what it committed and
// returns its summary with the error.
func Mine(ctx context.Context, p *palace.Palace, r MineRequest) (MineResult, error) {
	if err := r.Validate(); err != nil {
		return MineResult{}, err
	}
	o := mine.Options{Wing: r.Wing, DefaultWing: r.DefaultWing, Mode: r.Mode, MaxSize: r.MaxSize,
		MaxConvoSize: r.MaxConvoSize, KeepSecrets: r.KeepSecrets, Progress: r.Progress, Trees: r.Trees}
	if r.Wing == "" && r.DefaultWing == "" {
		// The project rule every front shares: a folder inside a project
		// (below its palace.yaml, or in its git work tree) mines into the
		// project's wing, as a session there saves into it.
		w, err := ResolveWing(r.Path)
		switch {
		case err == nil:
			o.DefaultWing = w.Wing
		case errors.Is(err, input.ErrInvalid):
			// A missing path is the mine's to report; a home folder mined
			// with AllowHomeOrRoot keeps its own name.
		default:
			return MineResult{}, err
		}
	}
	if r.FilesOnly {
		o.Only = r.Files
	}
	// A mine is many transactions; one refused as busy leaves the others
	// committed, and the next run skips what they wrote.
	sum, err := retryBusy(ctx, "mine "+r.Path, func() (*mine.Summary, error) {
		return mine.Run(ctx, p, r.Path, o)
	})
	res := MineResult{Summary: sum}
	// A field the mine refused (a missing path) reads as Validate's
	// errors do, whichever of the two found it.
	var ie *input.Error
	if errors.As(err, &ie) {
		return res, ie
	}
	if sum != nil && len(r.Files) > 0 && (err == nil || mine.IsInterrupted(err)) {
		var ferr error
		if res.Files, ferr = fileOutcomes(ctx, p, sum, r.Files); err == nil {
			err = ferr
		}
	}
	if err != nil {
		return res, err
	}
	if len(sum.Errors) > 0 {
		res.Notice = fmt.Sprintf("%d export(s) only partly readable (their valid part was mined): %s: %s",
			len(sum.Errors), sum.Errors[0].Path, sum.Errors[0].Detail)
	}
	if sum.DrawersAdded > 0 {
		facts, notice := proposeAfterWrite(ctx, p, sum.Wing, nil, MineExtractBudget)
		res.Facts, res.Notice = &facts, withNotice(res.Notice, notice)
	}
	if r.NoVectors {
		return res, nil
	}
	ectx := ctx
	if r.EmbedBudget > 0 {
		var cancel context.CancelFunc
		ectx, cancel = context.WithTimeout(ctx, r.EmbedBudget)
		defer cancel()
	}
	v, err := Embed(ectx, p, EmbedRequest{Progress: r.EmbedProgress})
	res.Vectors = &v
	if err != nil && ctx.Err() == nil && ectx.Err() != nil {
		// The budget ran out (embedding, or waiting for a busy palace):
		// the mine itself is done and searchable.
		res.Notice = strings.TrimSpace(res.Notice + fmt.Sprintf(" Embedding stopped after %s with %d drawers left; they are searchable lexically and get vectors at the next mine or `palace reindex`.",
			r.EmbedBudget, v.Pending))
		return res, nil
	}
	return res, err
}

// fileOutcomes says what the mine summarised by sum made of each of paths.
func fileOutcomes(ctx context.Context, p *palace.Palace, sum *mine.Summary, paths []string) (map[string]FileOutcome, error) {
	prefix := sum.Root
	if fi, err := os.Stat(prefix); err == nil && fi.IsDir() {
		prefix += string(filepath.Separator)
	}
	// Only the named paths, not every file of the folder: a save in a
	// large workspace read all of their records (16 ms of its 72 ms in a
	// 5,001-file one).
	var mined []string
	for _, path := range paths {
		if strings.HasPrefix(path, prefix) {
			mined = append(mined, path)
		}
	}
	known, err := p.Store.SourcesAt(ctx, sum.Wing, mined)
	if err != nil {
		return nil, fmt.Errorf("mine %s: %w", sum.Root, err)
	}
	skipped := map[string]string{}
	for _, k := range sum.Skipped {
		skipped[k.Path] = k.Reason
	}
	out := make(map[string]FileOutcome, len(paths))
	for _, path := range paths {
		var f FileOutcome
		if src, ok := known[path]; ok {
			f.Drawers = src.Drawers
		} else if f.Skipped = skipped[path]; f.Skipped == "" {
			f.Skipped = mine.ReasonIgnored // ignored files are counted, not listed
			if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
				f.Skipped = "deleted"
			}
		}
		out[path] = f
	}
	return out, nil
}

// EmbedRequest fills the vector index: every live drawer without a vector
// of the palace's model gets one. It is the second phase of Mine, and what
// a server runs in the background after its own mines.
type EmbedRequest struct {
	Batch    int // drawers per transaction; 0: the default
	Progress func(done, total int)
}

// Validate names the first bad field.
func (r EmbedRequest) Validate() error {
	if r.Batch < 0 {
		return input.Invalid("batch", "%d: want a number of drawers (0 for the default)", r.Batch)
	}
	return nil
}

// Embed fills the vector index, resumably: each batch commits on its own,
// so a cancelled fill continues where it stopped. Without a model it does
// nothing and the summary says why.
func Embed(ctx context.Context, p *palace.Palace, r EmbedRequest) (vectors.Summary, error) {
	if err := r.Validate(); err != nil {
		return vectors.Summary{}, err
	}
	return retryBusy(ctx, "embed drawers", func() (vectors.Summary, error) {
		return vectors.Fill(ctx, p, vectors.Options{Batch: r.Batch, Progress: r.Progress})
	})
}
