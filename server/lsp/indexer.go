package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/palace-dev/palace/core/ops"
)

// indexer keeps the palace current off the read loop. One goroutine mines,
// one folder at a time, so two mines of a wing never race; work for a
// folder that arrives while another mine runs waits in a single pending job,
// which is how a burst of saves (or a git checkout's flood of file events)
// becomes one mine. Another goroutine embeds new drawers, paused while a
// mine runs so a save is searchable as soon as its text is committed.
type indexer struct {
	s    *server
	wake chan struct{}
	done chan struct{}

	mu      sync.Mutex
	pending map[string]*job // by folder path
	order   []string        // folder paths, first queued first
	state   map[string]*folderState
	mining  string                        // folder path being mined, or ""
	started map[string]time.Time          // when each folder's last mine began
	tokens  map[string]context.CancelFunc // progress token -> cancel of its mine
	mines   int                           // mines run, for palace/status and tests

	vec *vectorFiller
	// trees keeps the syntax trees and cuts of recently mined or edited
	// source files, so a save re-parses its file incrementally, or not at
	// all when prep cut the saved text as it was typed. Only run's
	// goroutine mines.
	trees *ops.Trees
	prep  *ops.Preparer
}

// keptTrees is how many files' trees the indexer keeps: the few files
// being edited, not the workspace. A tree holds a node for every token,
// many times its file's size, and the server's idle memory has a budget.
const keptTrees = 8

// newTrees makes the indexer's ops.Trees; a variable so that a test can
// keep the one a session's indexer uses and read what it reused.
var newTrees = ops.NewTrees

// job is the pending work for one folder.
type job struct {
	folder   *folder
	saves    []save // files saved, each answered by palace/didIndex
	progress bool   // report work-done progress (the initial mine)
	why      string
	// notBefore holds back a job that follows a mine of the same folder by
	// less than burstWindow, so the rest of a burst joins it.
	notBefore time.Time
}

// burstWindow is how long after a mine of a folder the next one waits.
// The first save of a burst is mined at once (no added latency); the saves,
// format-on-save rewrites and file events that follow within the window
// are mined together once it ends.
const burstWindow = 100 * time.Millisecond

// save is a didSave waiting for its palace/didIndex.
type save struct {
	uri  string
	path string
	at   time.Time
}

// folderState is what palace/status reports of a folder.
type folderState struct {
	State string    `json:"state"` // queued, mining or idle
	Mines int       `json:"mines"`
	Last  *mineNote `json:"last,omitempty"`
}

// mineNote summarises a finished mine.
type mineNote struct {
	Why            string  `json:"why"`
	FilesSeen      int     `json:"files_seen"`
	FilesMined     int     `json:"files_mined"`
	DrawersAdded   int     `json:"drawers_added"`
	DrawersRemoved int     `json:"drawers_removed"`
	SourcesPruned  int     `json:"sources_pruned"`
	Seconds        float64 `json:"seconds"`
	Interrupted    bool    `json:"interrupted,omitempty"`
	Error          string  `json:"error,omitempty"`
	At             string  `json:"at"`
}

func newIndexer(s *server) *indexer {
	ix := &indexer{
		s: s, wake: make(chan struct{}, 1), done: make(chan struct{}),
		pending: map[string]*job{}, state: map[string]*folderState{}, tokens: map[string]context.CancelFunc{},
		started: map[string]time.Time{}, trees: newTrees(keptTrees),
	}
	ix.vec = newVectorFiller(s)
	ix.prep = ops.NewPreparer(s.bg, ix.trees)
	go ix.run()
	return ix
}

// enqueue adds work for f, merging it with what is already pending there.
func (ix *indexer) enqueue(f *folder, why string, progress bool, sv ...save) {
	ix.mu.Lock()
	j, ok := ix.pending[f.path]
	if !ok {
		j = &job{folder: f, why: why}
		if last, ok := ix.started[f.path]; ok && time.Since(last) < burstWindow {
			j.notBefore = last.Add(burstWindow)
		}
		ix.pending[f.path] = j
		ix.order = append(ix.order, f.path)
	} else if !strings.Contains(j.why, why) {
		j.why += ", " + why
	}
	j.progress = j.progress || progress
	j.saves = append(j.saves, sv...)
	ix.stateOf(f.path).State = "queued"
	if ix.mining == f.path {
		ix.stateOf(f.path).State = "mining"
	}
	ix.mu.Unlock()
	select {
	case ix.wake <- struct{}{}:
	default:
	}
}

func (ix *indexer) stateOf(path string) *folderState {
	st, ok := ix.state[path]
	if !ok {
		st = &folderState{State: "idle"}
		ix.state[path] = st
	}
	return st
}

// next takes the first pending job that may run now. With none, it
// returns how long until one may (0 when nothing is pending).
func (ix *indexer) next() (*job, time.Duration) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	now := time.Now()
	var wait time.Duration
	for i, path := range ix.order {
		j := ix.pending[path]
		if d := j.notBefore.Sub(now); d > 0 {
			if wait == 0 || d < wait {
				wait = d
			}
			continue
		}
		ix.order = append(ix.order[:i:i], ix.order[i+1:]...)
		delete(ix.pending, path)
		ix.mining = path
		ix.started[path] = now
		ix.stateOf(path).State = "mining"
		return j, 0
	}
	return nil, wait
}

func (ix *indexer) run() {
	defer close(ix.done)
	defer func() {
		ix.prep.Wait() // it parses into the trees too
		ix.trees.Close()
	}()
	ctx := ix.s.bg
	var timer <-chan time.Time // set while a held-back job waits
	for {
		select {
		case <-ctx.Done():
			return
		case <-ix.wake:
		case <-timer:
		}
		timer = nil
		mined := false
		for {
			j, wait := ix.next()
			if j == nil {
				if wait > 0 {
					timer = time.After(wait)
				}
				break
			}
			ix.vec.pause()
			ix.mine(ctx, j)
			mined = true
			if ctx.Err() != nil {
				return
			}
		}
		if mined {
			ix.vec.kick()
		}
	}
}

// wait blocks until both goroutines have stopped (the session's context
// ends them).
func (ix *indexer) wait() {
	<-ix.done
	ix.vec.wait()
}

// mine runs `palace mine FOLDER --no-vectors` for a job (the vector filler
// embeds afterwards, so a save is searchable as soon as its text is
// committed), reports progress when asked, and answers each save with
// palace/didIndex. A job of saves alone mines the saved files in the
// folder's context (its ignore rules, palace.yaml, rooms by path and
// chunking: ops.MineRequest.FilesOnly) without walking the folder, so a
// save costs its file whatever the workspace's size; a job with file
// events, the initial mine, and a save of an ignore file or palace.yaml
// (which change what else is mined) walk the folder.
func (ix *indexer) mine(ctx context.Context, j *job) {
	f := j.folder
	jctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wing := f.wing()
	var prog *progress
	if j.progress {
		prog = ix.s.beginProgress(jctx, "Palace: mining "+f.name, "wing "+wing, func(token string) {
			ix.mu.Lock()
			ix.tokens[token] = cancel
			ix.mu.Unlock()
		})
	}
	start := time.Now()
	req := ops.MineRequest{Path: f.path, Wing: wing, NoVectors: true, Trees: ix.trees}
	if prog != nil {
		req.Progress = func(done, total int) { prog.report(done, total) }
	}
	req.FilesOnly = j.why == whySave && !j.progress && len(j.saves) > 0
	for _, sv := range j.saves {
		req.Files = append(req.Files, sv.path)
		// A saved ignore file or palace.yaml changes what else is mined.
		req.FilesOnly = req.FilesOnly && !ops.Configures(sv.path)
	}
	res, err := ops.Mine(jctx, ix.s.p, req)
	sum := res.Summary
	note := &mineNote{Why: j.why, At: time.Now().UTC().Format(time.RFC3339), Seconds: time.Since(start).Seconds()}
	if sum != nil {
		note.FilesSeen, note.FilesMined = sum.FilesSeen, sum.FilesMined
		note.DrawersAdded, note.DrawersRemoved, note.SourcesPruned = sum.DrawersAdded, sum.DrawersRemoved, sum.SourcesPruned
		note.Interrupted = sum.Interrupted
	}
	switch {
	case ops.Classify(err) == ops.Cancelled:
		note.Interrupted = true
		ix.s.infof("mine %s (wing %s): interrupted; what was committed is kept and the next mine resumes", f.path, wing)
	case err != nil:
		note.Error = err.Error()
		ix.s.errorf("mine %s (wing %s): %v", f.path, wing, err)
	default:
		ix.s.infof("mine %s (wing %s, %s): %d files mined, %d drawers added, %d removed, %d sources pruned in %.3fs",
			f.path, wing, j.why, sum.FilesMined, sum.DrawersAdded, sum.DrawersRemoved, sum.SourcesPruned, note.Seconds)
	}
	if prog != nil {
		prog.end(endMessage(note))
		ix.mu.Lock()
		delete(ix.tokens, prog.token)
		ix.mu.Unlock()
	}
	ix.mu.Lock()
	ix.mines++
	st := ix.stateOf(f.path)
	st.Mines++
	st.Last = note
	ix.mining = ""
	if _, again := ix.pending[f.path]; again {
		st.State = "queued"
	} else {
		st.State = "idle"
	}
	ix.mu.Unlock()
	if len(j.saves) > 0 && ctx.Err() == nil {
		ix.answerSaves(wing, j.saves, res.Files, err)
		// The save is answered: the WAL's pages go to the database file
		// now, not inside a later save's commit.
		if err := ops.CheckpointWAL(ctx, ix.s.p); err != nil {
			ix.s.infof("after the save: %v", err)
		}
	}
}

func endMessage(n *mineNote) string {
	switch {
	case n.Error != "":
		return "failed: " + n.Error
	case n.Interrupted:
		return fmt.Sprintf("cancelled after %d files; resumes on the next mine", n.FilesMined)
	}
	return fmt.Sprintf("%d files mined, %d drawers added, %d removed in %.1fs", n.FilesMined, n.DrawersAdded, n.DrawersRemoved, n.Seconds)
}

// didIndex is palace/didIndex: a saved file is searchable (or was skipped,
// with the reason).
type didIndex struct {
	URI     string `json:"uri"`
	Wing    string `json:"wing"`
	Drawers int    `json:"drawers"`
	// Ms is the time from the didSave to the commit, in milliseconds.
	Ms      float64 `json:"ms"`
	Skipped string  `json:"skipped,omitempty"`
	Error   string  `json:"error,omitempty"`
}

func (ix *indexer) answerSaves(wing string, saves []save, files map[string]ops.FileOutcome, mineErr error) {
	done := map[string]bool{}
	for i := len(saves) - 1; i >= 0; i-- { // the latest save of a file answers for it
		sv := saves[i]
		if done[sv.uri] {
			continue
		}
		done[sv.uri] = true
		n := didIndex{URI: sv.uri, Wing: wing, Ms: float64(time.Since(sv.at).Microseconds()) / 1000}
		if mineErr != nil && ops.Classify(mineErr) != ops.Cancelled {
			n.Error = mineErr.Error()
		} else {
			n.Drawers, n.Skipped = files[sv.path].Drawers, files[sv.path].Skipped
		}
		ix.s.sendNotification("palace/didIndex", n)
	}
}

// cancelToken cancels the mine reporting progress under token.
func (ix *indexer) cancelToken(token string) bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	cancel, ok := ix.tokens[token]
	if ok {
		cancel()
	}
	return ok
}

// status is the indexer's part of palace/status.
func (ix *indexer) status() (map[string]folderState, int, *vectorNote) {
	ix.mu.Lock()
	out := map[string]folderState{}
	for p, st := range ix.state {
		out[p] = *st
	}
	n := ix.mines
	ix.mu.Unlock()
	return out, n, ix.vec.status()
}

// vectorFiller embeds drawers without a vector of the palace's model, the
// second phase of `palace mine`, resumably and in the background.
type vectorFiller struct {
	s    *server
	wake chan struct{}
	done chan struct{}

	mu     sync.Mutex
	cancel context.CancelFunc // of the fill running, if any
	last   *vectorNote
}

// vectorNote summarises the last fill.
type vectorNote struct {
	Backend  string `json:"backend"`
	Model    string `json:"model,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Embedded int    `json:"embedded"`
	Pending  int    `json:"pending"`
	Error    string `json:"error,omitempty"`
}

func newVectorFiller(s *server) *vectorFiller {
	v := &vectorFiller{s: s, wake: make(chan struct{}, 1), done: make(chan struct{})}
	if !s.cfg.vectors {
		close(v.done)
		return v
	}
	go v.run()
	return v
}

func (v *vectorFiller) kick() {
	if !v.s.cfg.vectors {
		return
	}
	select {
	case v.wake <- struct{}{}:
	default:
	}
}

// pause stops the running fill; it resumes from where it stopped at the
// next kick.
func (v *vectorFiller) pause() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.cancel != nil {
		v.cancel()
	}
}

func (v *vectorFiller) wait() { <-v.done }

func (v *vectorFiller) run() {
	defer close(v.done)
	ctx := v.s.bg
	for {
		select {
		case <-ctx.Done():
			return
		case <-v.wake:
		}
		fctx, cancel := context.WithCancel(ctx)
		v.mu.Lock()
		v.cancel = cancel
		v.mu.Unlock()
		sum, err := ops.Embed(fctx, v.s.p, ops.EmbedRequest{})
		paused := fctx.Err() != nil
		cancel()
		note := &vectorNote{Backend: sum.Backend, Model: sum.Model, Reason: sum.Reason, Embedded: sum.Embedded, Pending: sum.Pending}
		if err != nil && !paused {
			note.Error = err.Error()
			v.s.errorf("embed drawers: %v", err)
		} else if sum.Embedded > 0 {
			v.s.infof("embedded %d drawers with %s; %d pending", sum.Embedded, sum.Model, sum.Pending)
		}
		v.mu.Lock()
		v.cancel = nil
		v.last = note
		v.mu.Unlock()
	}
}

func (v *vectorFiller) status() *vectorNote {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.last == nil {
		return nil
	}
	n := *v.last
	return &n
}

// inSkippedDir reports whether path lies below f in a folder a mine never
// enters by its name alone (ops.SkippedByName): a cheap pre-filter against
// event floods (a git checkout, an npm install); the mine itself decides
// the rest.
func inSkippedDir(f *folder, path string) bool {
	rel, err := filepath.Rel(f.path, path)
	if err != nil {
		return false
	}
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if ops.SkippedByName(part) {
			return true
		}
	}
	return false
}

// changed queues a mine of the folder holding each path (file events from
// outside the editor, deletes, renames). Paths outside every folder, or in
// folders that are never mined, are dropped.
func (s *server) changed(why string, paths ...string) {
	seen := map[*folder]bool{}
	for _, p := range paths {
		f := s.folders.of(p)
		if f == nil || seen[f] || inSkippedDir(f, p) {
			continue
		}
		seen[f] = true
		s.idx.enqueue(f, why, false)
	}
}
