// Package mine turns a project folder into drawers: it walks the tree with
// the project's ignore rules, keeps only text, chunks it line-aware, routes
// each file to a room, and writes changed files atomically so an interrupted
// mine resumes where it stopped.
package mine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/palace-dev/palace/core/chunk"
	"github.com/palace-dev/palace/core/code"
	"github.com/palace-dev/palace/core/convo"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/route"
	"github.com/palace-dev/palace/core/store"
)

// DefaultMaxSize is the largest file mined unless a flag says otherwise.
const DefaultMaxSize = 1 << 20

// Modes say what a mine looks for.
const (
	// ModeAuto mines project files, and files that are structured chat
	// exports (JSON/JSONL of a known format) as conversations. Plain-text
	// transcripts need ModeConvos: in a project, "Name: text" lines are
	// too often just prose.
	ModeAuto = "auto"
	// ModeProjects mines every text file as a project file.
	ModeProjects = "projects"
	// ModeConvos mines only conversations, plain-text transcripts included.
	ModeConvos = "convos"
)

// DefaultMaxConvoSize caps a conversation export: exports are often large,
// and a session is worth keeping whole.
const DefaultMaxConvoSize = 512 << 20

// Options controls a mine.
type Options struct {
	Wing string // overrides palace.yaml and the folder name
	// DefaultWing is the wing when Wing is empty and the mined folder (a
	// file's folder) has no palace.yaml naming one: a front mining a
	// folder inside a workspace passes the workspace's wing. Empty: the
	// folder's name.
	DefaultWing  string
	Mode         string // ModeAuto (default), ModeProjects or ModeConvos
	MaxSize      int64  // bytes, for project files; 0 means DefaultMaxSize
	MaxConvoSize int64  // bytes, for conversation exports; 0 means DefaultMaxConvoSize
	Chunk        chunk.Options
	Workers      int // 0 means one per core
	// Trees, when set, keeps the syntax trees of the source files cut, so
	// that the next mine re-parses a changed file incrementally (the LSP
	// server keeps one across saves).
	Trees    *code.Trees
	Progress func(done, total int) // called from one goroutine; may be nil
	// Only, when set, mines these files (absolute paths below the folder
	// mined) instead of walking the folder: each is judged as a walk
	// would judge it (walkOnly: the same ignore files, palace.yaml, rooms
	// and chunking), and one that is gone or now skipped has its drawers
	// pruned as a folder mine would prune them. Nothing else is read or
	// pruned, so an editor's save costs one file, not the folder.
	Only []string
	// KeepSecrets stores files as they are. By default secrets (private
	// keys, provider tokens, passwords in URLs, values of secret-named
	// keys, random-looking values) are replaced by a marker such as
	// [REDACTED:github-token] before chunking, so neither drawers nor the
	// full-text index hold them.
	KeepSecrets bool
}

// Skip is a file or folder not mined, and why.
type Skip struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
	Detail string `json:"detail,omitempty"`
}

// Redaction is one secret a mine replaced by a marker.
type Redaction struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
	// Line is the 1-based line of the file. In a conversation export it is
	// the line of the message's record (JSONL), of the secret itself
	// (plain-text transcripts), or 0 (single JSON documents, titles).
	Line int `json:"line"`
}

// Summary reports what a mine did.
type Summary struct {
	Wing           string         `json:"wing"`
	Root           string         `json:"root"`
	FilesSeen      int            `json:"files_seen"`
	FilesMined     int            `json:"files_mined"`
	FilesUnchanged int            `json:"files_unchanged"`
	SkippedBy      map[string]int `json:"skipped_by_reason"`
	Skipped        []Skip         `json:"skipped"`
	Errors         []Skip         `json:"errors"` // exports only partly readable; their valid part was mined
	DrawersAdded   int            `json:"drawers_added"`
	DrawersRemoved int            `json:"drawers_removed"`
	SourcesPruned  int            `json:"sources_pruned"`
	Bytes          int64          `json:"bytes_mined"`
	// BytesParsed is how much of the conversation exports this mine read
	// and parsed. A session log mined before and only appended to since
	// costs its new part and the last exchange it goes on from.
	BytesParsed int64   `json:"bytes_parsed"`
	Seconds     float64 `json:"seconds"`
	Interrupted bool    `json:"interrupted"`
	// KeepSecrets is the mode of this mine: true with --keep-secrets.
	KeepSecrets bool `json:"keep_secrets"`
	// Redactions are the secrets replaced in the files this mine wrote,
	// by path and line; files unchanged since an earlier mine are not
	// read again and not listed.
	Redactions     []Redaction    `json:"redactions"`
	RedactedByKind map[string]int `json:"redacted_by_kind"`
	// ParseFallbacks counts the source files in a language core/code
	// parses that were cut by lines instead: too large, too slow to parse
	// or broken at their top level.
	ParseFallbacks int `json:"parse_fallbacks"`
	// WriteSeconds is how long the writer spent in its transactions. They
	// overlap the workers' reading and cutting, so a figure near Seconds
	// says the writer is the mine's critical path.
	WriteSeconds float64 `json:"write_seconds"`
	// InsertSeconds is the part of WriteSeconds spent in the statements
	// that insert the drawers: the rows, their secondary index entries and
	// their full-text index entries (store.WriteStats).
	InsertSeconds float64 `json:"insert_seconds"`
	// AuditSeconds and CommitSeconds are the parts of WriteSeconds spent
	// on the batches' audit lines (read, append, sync) and their commits
	// (the WAL's write and SQLite's checkpoints).
	AuditSeconds  float64 `json:"audit_seconds"`
	CommitSeconds float64 `json:"commit_seconds"`
	// ParseCPU is the workers' CPU time in core/code (parsing and cutting
	// source files at their definitions), in seconds per language, summed
	// over the workers; only on Linux, empty elsewhere.
	ParseCPU map[string]float64 `json:"parse_cpu_s"`
}

// result is one file after the workers looked at it.
type result struct {
	c      candidate
	update *store.SourceUpdate // nil when unchanged or skipped
	skip   *Skip
	keep   bool  // the source stays known (mined, unchanged, or unreadable)
	err    error // a failure of Palace itself, which stops the mine
	// problem reports a partly readable export whose valid part is in update.
	problem *Skip
	// redacted are the secrets replaced in update's drawers.
	redacted []Redaction
	// more says update is a piece of a session log that further results
	// continue; parsed is how many bytes of the file it read.
	more   bool
	parsed int64
	// sent says the file's results went out one piece at a time: this
	// one carries nothing.
	sent bool
	// fallback says a source file was cut by lines: it did not parse.
	fallback bool
	// lang is the language core/code cut the file as ("" if none), and
	// parse the worker's CPU time in it.
	lang  string
	parse time.Duration
}

// batchDrawers bounds a write transaction: big enough to amortise commits,
// small enough that an interrupt loses little work. Every commit writes
// the pages it changed to the WAL, and a batch of drawers changes most of
// the index on their ids (hashes, so spread over all its pages) whatever
// its size: at 2,000 a cold mine of Go's src wrote 750 MB instead of 970
// and its writer took 7.0-7.2 s instead of 7.7-8.2 (with walAutocheckpoint
// at 16,000). Two batches are alive at once (one writing, one filling),
// so it also sets much of a mine's heap: 4,000 peaked at 168-170 MB,
// which is why capHeap keeps a bulk mine's heap in check.
const batchDrawers = 2000

// checkEvery is how many chunks or exchanges a worker cuts between looks at
// whether the mine was cancelled: a file of hundreds of megabytes is
// hundreds of thousands of them.
const checkEvery = 256

// writeGrace is how long the batch being written when a mine is cancelled
// has to commit before it is interrupted and rolled back (its files are
// mined again next time). A batch of batchDrawers commits well within it;
// a single file of 200 MB is one update of 330,000 drawers, whose
// transaction held an interrupted mine for 37 s.
const writeGrace = 500 * time.Millisecond

// Run mines dir into st. On cancellation it stops within about a second:
// the workers stop cutting, what they finish after it is left for the next
// mine, and the batches being written have until writeGrace after it to
// commit; it keeps every file committed, prunes nothing, and reports
// Interrupted.
func Run(ctx context.Context, p *palace.Palace, dir string, o Options) (*Summary, error) {
	start := time.Now()
	st := p.Store
	// Store calls are detached from cancellation: each is short. The
	// batches are written under bctx below, which gives them writeGrace
	// to commit; a batch cut short rolls back whole.
	wctx := context.WithoutCancel(ctx)
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("mine %s: %w", dir, err)
	}
	fi, err := os.Stat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("mine %s: %w", dir, input.Invalid("path", "%q: no such file or folder", dir))
	}
	if err != nil {
		return nil, fmt.Errorf("mine %s: %w", dir, err)
	}
	// A single file (an export, a transcript) is mined on its own; its
	// folder supplies palace.yaml and the default wing.
	single := ""
	if !fi.IsDir() {
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("mine %s: %w", dir, input.Invalid("path", "%q is not a folder or a regular file", dir))
		}
		single, root = root, filepath.Dir(root)
	}
	if o.MaxSize <= 0 {
		o.MaxSize = DefaultMaxSize
	}
	if o.MaxConvoSize <= 0 {
		o.MaxConvoSize = DefaultMaxConvoSize
	}
	switch o.Mode {
	case "":
		o.Mode = ModeAuto
	case ModeAuto, ModeProjects, ModeConvos:
	default:
		return nil, fmt.Errorf("mine %s: %w", dir, input.Invalid("mode", "%s: want %s, %s or %s", input.Quote(o.Mode), ModeAuto, ModeProjects, ModeConvos))
	}
	if o.Chunk.Size == 0 {
		o.Chunk = chunk.Default
	}
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	cfg, err := LoadConfig(root)
	if err != nil {
		return nil, fmt.Errorf("mine %s: %w", dir, err)
	}
	wing := strings.TrimSpace(o.Wing)
	if wing == "" && (cfg == nil || strings.TrimSpace(cfg.Wing) == "") {
		wing = strings.TrimSpace(o.DefaultWing)
	}
	if wing == "" {
		wing = WingOf(root, cfg)
	}
	// The same rule as remember and taxonomy: a wing they could not
	// address must not be created here either.
	if err := route.CheckName("wing", wing); err != nil {
		return nil, fmt.Errorf("mine %s: %w", dir, err)
	}
	if cfg != nil && len(cfg.Rooms) > 0 {
		if err := st.ReplaceTaxonomy(wctx, wing, cfg.Rooms); err != nil {
			return nil, fmt.Errorf("mine %s: %w", dir, err)
		}
	}
	rooms, err := st.Taxonomy(wctx, wing)
	if err != nil {
		return nil, fmt.Errorf("mine %s: %w", dir, err)
	}
	sum := &Summary{Wing: wing, Root: root, SkippedBy: map[string]int{}, Skipped: []Skip{}, Errors: []Skip{},
		KeepSecrets: o.KeepSecrets, Redactions: []Redaction{}, RedactedByKind: map[string]int{}, ParseCPU: map[string]float64{}}
	if single != "" {
		sum.Root = single
	}
	var w *walker
	var known map[string]store.Source
	var skipped map[string]store.SkippedFile
	if single != "" {
		w = &walker{root: root, files: []candidate{{path: single, rel: filepath.Base(single), info: fi}}}
		known, err = st.SourcesAt(wctx, wing, []string{single})
		if err == nil {
			skipped, err = st.SkippedFilesAt(wctx, wing, []string{single})
		}
	} else if len(o.Only) > 0 {
		if w, err = walkOnly(root, o.Only, o.Mode != ModeProjects); err != nil {
			return nil, fmt.Errorf("mine %s: %w", dir, err)
		}
		inside := below(root, o.Only)
		known, err = st.SourcesAt(wctx, wing, inside)
		if err == nil {
			skipped, err = st.SkippedFilesAt(wctx, wing, inside)
		}
	} else {
		if w, err = walk(root); err != nil {
			return nil, fmt.Errorf("mine %s: %w", dir, err)
		}
		if o.Mode != ModeProjects {
			w.dropSlackMetadata()
		}
		known, err = st.Sources(wctx, wing, root+string(filepath.Separator))
		if err == nil {
			skipped, err = st.SkippedFiles(wctx, wing, root+string(filepath.Separator))
		}
	}
	if err != nil {
		return nil, fmt.Errorf("mine %s: %w", dir, err)
	}
	memory := newSkipMemory(skipped, o)
	for _, s := range w.skipped {
		sum.addSkip(s)
	}
	sum.FilesSeen = len(w.files)

	m := &miner{p: p, wing: wing, opts: o, router: newRouter(rooms), known: known}
	keep := map[string]bool{}
	done := 0 // files read, for progress
	// A file unchanged by size and mtime, or skipped by an earlier mine
	// and unchanged since, is settled here, not handed to a worker: in a
	// no-op mine of Go's src those hand-overs to the workers' locked
	// threads were a third of its time.
	todo := make([]candidate, 0, len(w.files))
	for _, c := range w.files {
		if m.unchanged(c) {
			keep[c.path] = true
			sum.FilesUnchanged++
			done++
			continue
		}
		if s, ok := memory.recall(c); ok {
			sum.addSkip(s)
			done++
			continue
		}
		todo = append(todo, c)
	}
	if done > 0 && o.Progress != nil {
		o.Progress(done, len(w.files))
	}
	if len(todo) > o.Workers { // the workers' threads are lowered (see process)
		defer writerProc()()
		defer capHeap()()
	}
	stats := st.WriteStats()
	defer func() {
		now := st.WriteStats()
		sum.InsertSeconds = (now.Insert - stats.Insert).Seconds()
		sum.AuditSeconds = (now.Audit - stats.Audit).Seconds()
		sum.CommitSeconds = (now.Commit - stats.Commit).Seconds()
	}()
	results := m.process(ctx, todo)
	// Batches are written under their own context: cancelled writeGrace
	// after ctx, so a short transaction still commits and a long one stops.
	bctx, stopWrites := context.WithCancel(wctx)
	defer stopWrites()
	defer context.AfterFunc(ctx, func() {
		t := time.NewTimer(writeGrace)
		defer t.Stop()
		select {
		case <-t.C:
			stopWrites()
		case <-bctx.Done():
		}
	})()
	// A batch is written on its own goroutine while the next one fills, so
	// the workers are not held up for the length of a transaction: when
	// they were, a cold mine of Go's src kept two cores a third idle. At
	// most one batch is in flight, and the summary counts a batch's files
	// only once it has committed.
	//
	// The batches are written by one goroutine on one OS thread of its
	// own: SQLite allocates in C, and glibc gives each thread that does an
	// arena of its own that keeps what is freed, so a writer moving over
	// the runtime's threads left a batch's worth of SQLite's memory (its
	// statement journal, FTS5's pending terms, the staged rows) in each
	// (Go's src: 20-40 MB more at the peak than on one thread).
	writes := make(chan batchWrite)
	defer close(writes)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		for w := range writes {
			t := time.Now()
			r, err := st.ApplySources(bctx, w.batch.updates)
			took := time.Since(t)
			if err == nil {
				// The next batch may be ready at once; let waiting writers in first.
				st.Yield(bctx)
			}
			w.done <- written{batch: w.batch, result: r, err: err, took: took}
		}
	}()
	var next pending
	var inflight chan written
	wait := func() error {
		if inflight == nil {
			return nil
		}
		w := <-inflight
		inflight = nil
		sum.WriteSeconds += w.took.Seconds()
		if w.err != nil && bctx.Err() != nil {
			return nil // interrupted and rolled back: Run reports the interruption
		}
		if w.err != nil {
			return w.err
		}
		w.batch.count(sum, w.result)
		return nil
	}
	flush := func() error {
		if len(next.updates) == 0 {
			return nil
		}
		if err := wait(); err != nil {
			return err
		}
		ch := make(chan written, 1)
		writes <- batchWrite{batch: next, done: ch}
		next, inflight = pending{}, ch
		return nil
	}
	var writeErr error
	for r := range results {
		if !r.more { // a log's pieces are one file
			done++
			if o.Progress != nil {
				o.Progress(done, len(w.files))
			}
		}
		if writeErr != nil || ctx.Err() != nil {
			// Drain the workers. Once cancelled, what they finish is not
			// written: the next mine does it again, and the exit does not
			// wait for a queue of results.
			continue
		}
		if r.err != nil {
			writeErr = r.err
			continue
		}
		// A log's pieces come in order; the last result decides.
		keep[r.c.path] = r.keep
		if r.problem != nil {
			sum.Errors = append(sum.Errors, *r.problem)
		}
		if r.skip != nil {
			sum.addSkip(*r.skip)
			memory.note(r.c, *r.skip)
			continue
		}
		if r.update == nil {
			sum.FilesUnchanged++
			continue
		}
		next.add(r)
		// A log's pieces are written one at a time, so what a cut-short
		// mine keeps is all it read but the piece it was reading.
		if next.drawers >= batchDrawers || r.more {
			writeErr = flush()
		}
	}
	// What came before a cancellation is still written, under bctx: an
	// agent hook's deadline must not lose the last piece of a session it
	// had in hand, nor an interrupt wait for a long transaction.
	if writeErr == nil {
		writeErr = flush()
	}
	if err := wait(); writeErr == nil {
		writeErr = err
	}
	// Workers finish in any order; list redactions as a reader would.
	sort.Slice(sum.Redactions, func(i, j int) bool {
		a, b := sum.Redactions[i], sum.Redactions[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Kind < b.Kind
	})
	sum.Seconds = time.Since(start).Seconds()
	if writeErr != nil {
		return sum, fmt.Errorf("mine %s: %w", dir, writeErr)
	}
	if err := memory.save(wctx, st, wing, ctx.Err() == nil); err != nil {
		return sum, fmt.Errorf("mine %s: %w", dir, err)
	}
	if ctx.Err() != nil {
		sum.Interrupted = true
		return sum, fmt.Errorf("mine %s: interrupted after %d files; what was written is kept, run it again to resume: %w", dir, sum.FilesMined, ctx.Err())
	}
	// Only a complete walk may prune: every known source not kept is gone,
	// newly ignored, or no longer text.
	var gone []string
	for p := range known {
		if !keep[p] {
			gone = append(gone, p)
		}
	}
	sort.Strings(gone)
	removed, err := st.PruneSources(wctx, wing, gone)
	if err != nil {
		return sum, fmt.Errorf("mine %s: %w", dir, err)
	}
	sum.DrawersRemoved += removed
	sum.SourcesPruned = len(gone)
	sum.Seconds = time.Since(start).Seconds()
	return sum, nil
}

// below returns the paths below root: what the palace knows of a path
// outside it is not this mine's to use or prune.
func below(root string, paths []string) []string {
	var inside []string
	for _, p := range paths {
		if strings.HasPrefix(p, root+string(filepath.Separator)) {
			inside = append(inside, p)
		}
	}
	return inside
}

// pending is the batch of updates the next transaction writes, with what
// the summary counts once it commits.
type pending struct {
	updates                  []store.SourceUpdate
	redacted                 []Redaction
	mined, touched, fellBack int
	bytes, parsed            int64
	drawers                  int // drawers and source rows in updates
	parse                    map[string]time.Duration
}

func (b *pending) add(r result) {
	switch {
	case r.update.Touch:
		b.touched++
	case !r.more:
		b.mined++
		b.bytes += r.c.info.Size()
	}
	b.parsed += r.parsed
	if r.fallback {
		b.fellBack++
	}
	if r.lang != "" {
		if b.parse == nil {
			b.parse = map[string]time.Duration{}
		}
		b.parse[r.lang] += r.parse
	}
	b.updates = append(b.updates, *r.update)
	b.redacted = append(b.redacted, r.redacted...)
	b.drawers += len(r.update.Drawers) + 1
}

// count adds a committed batch to the summary.
func (b *pending) count(sum *Summary, r store.BatchResult) {
	sum.DrawersAdded += r.Added
	sum.DrawersRemoved += r.Removed
	sum.FilesMined += b.mined
	sum.FilesUnchanged += b.touched
	sum.Bytes += b.bytes
	sum.BytesParsed += b.parsed
	sum.ParseFallbacks += b.fellBack
	for lang, d := range b.parse {
		sum.ParseCPU[lang] += d.Seconds()
	}
	for _, r := range b.redacted {
		sum.Redactions = append(sum.Redactions, r)
		sum.RedactedByKind[r.Kind]++
	}
}

// batchWrite is a batch for the writer, and where it says how it ended.
type batchWrite struct {
	batch pending
	done  chan<- written
}

// written is how the transaction of a batch ended.
type written struct {
	batch  pending
	result store.BatchResult
	err    error
	took   time.Duration
}

func (s *Summary) addSkip(k Skip) {
	s.SkippedBy[k.Reason]++
	if k.Reason != ReasonIgnored {
		s.Skipped = append(s.Skipped, k)
	}
}

type miner struct {
	mu     sync.Mutex                   // guards slack
	slack  map[string]map[string]string // Slack export folder -> user names
	p      *palace.Palace
	wing   string
	opts   Options
	router *router
	known  map[string]store.Source
}

// process reads, checks and chunks files on several goroutines; results
// arrive on one channel for the single writer.
func (m *miner) process(ctx context.Context, files []candidate) <-chan result {
	in := make(chan candidate)
	out := make(chan result, 64)
	var wg sync.WaitGroup
	queued := len(files) > m.opts.Workers
	for i := 0; i < m.opts.Workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Parsing mallocs in C, and glibc gives each thread that
			// mallocs an arena of its own that keeps what is freed: a
			// worker moving over the runtime's threads left a parse's
			// worth of memory in each. On its own thread it reuses one.
			// With more files than workers, the thread runs below the
			// writer's priority; it is never unlocked, so it ends with the
			// worker and no other goroutine runs at its priority. A save's
			// one file is parsed at full priority: there the parse is
			// what the editor waits for.
			runtime.LockOSThread()
			if queued {
				_ = lowerThreadPriority() // best effort: at the same priority a mine is only slower
			}
			// One parser per worker, reused for every file it cuts.
			ps := code.NewParser()
			defer ps.Close()
			ps.Trees = m.opts.Trees
			send := func(r result) { out <- r }
			for c := range in {
				if r := m.file(ctx, c, ps, send); !r.sent {
					send(r)
				}
			}
		}()
	}
	go func() {
		defer close(in)
		for _, c := range files {
			select {
			case in <- c:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(out)
	}()
	return out
}

// file decides what one file Run did not find unchanged needs: a touch
// (same content, new mtime), a full replacement, or a skip. A file mined before
// in the other secrets mode is never unchanged: its drawers must change.
//
// An append-only session log mined before goes on from where that mine
// stopped, and a new one is mined piece by piece: those results are sent
// as they are ready and the result returned says so.
func (m *miner) file(ctx context.Context, c candidate, ps *code.Parser, send func(result)) result {
	size, mtime := c.info.Size(), c.info.ModTime().UnixNano()
	prev, known := m.known[c.path]
	redact := !m.opts.KeepSecrets
	known = known && prev.Redacted == redact
	format, err := m.detect(c)
	if err != nil {
		return result{c: c, skip: &Skip{Path: c.path, Reason: ReasonUnreadable, Detail: err.Error()}, keep: true}
	}
	if m.opts.Mode == ModeConvos && format == "" {
		return result{c: c, skip: &Skip{Path: c.path, Reason: ReasonNotConversation}}
	}
	limit, flag := m.opts.MaxSize, "--max-size"
	if format != "" {
		limit, flag = m.opts.MaxConvoSize, "--max-convo-size"
	}
	if size > limit {
		return result{c: c, skip: &Skip{Path: c.path, Reason: ReasonTooLarge,
			Detail: fmt.Sprintf("%d bytes, over the %d byte limit (%s)", size, limit, flag)}}
	}
	if format != "" && convo.Resumable(format) {
		src := store.Source{Wing: m.wing, Path: c.path, Kind: store.KindConversation, Mtime: mtime, Size: size, Redacted: redact}
		if m.resumeLog(ctx, c, format, src, send) {
			return result{sent: true}
		}
	}
	text, err := readText(ctx, c.path, limit)
	if err != nil {
		s, ok := asSkip(err)
		if !ok {
			s = &errSkip{ReasonUnreadable, err.Error()}
		}
		// An unreadable file may be a passing state: keep its old drawers.
		return result{c: c, skip: &Skip{Path: c.path, Reason: s.reason, Detail: s.detail}, keep: s.reason == ReasonUnreadable}
	}
	hash := store.ContentHash(text)
	kind := store.KindFile
	if format != "" {
		kind = store.KindConversation
	}
	src := store.Source{Wing: m.wing, Path: c.path, Kind: kind, ContentHash: hash, Mtime: mtime, Size: size, Redacted: redact}
	if known && prev.ContentHash == hash {
		return result{c: c, keep: true, update: &store.SourceUpdate{Source: src, Touch: true}}
	}
	if format != "" {
		if convo.Resumable(format) {
			return m.wholeLog(ctx, c, format, text, src)
		}
		return m.conversation(ctx, c, format, text, src)
	}
	// Redaction comes before chunking, so no chunk boundary can split a
	// secret into pieces that each look harmless.
	var found []Redaction
	if redact {
		text, found = redactText(text, c.path, func(line int) int { return line })
	}
	// Reading, hashing and redacting 200 MB take about a second together;
	// cutting it takes as long again.
	if ctx.Err() != nil {
		return result{c: c, err: ctx.Err()}
	}
	chunks, metas, defines, fellBack, lang, parse, err := m.chunkFile(ps, c.path, text)
	if err != nil {
		return result{c: c, err: fmt.Errorf("%s: %w", c.path, err)}
	}
	if len(chunks) == 0 {
		// Record it anyway so the next mine skips it by size and mtime.
		return result{c: c, keep: true, update: &store.SourceUpdate{Source: src}}
	}
	room := m.router.route(c.rel, text)
	now := time.Now()
	// A changed file mined before keeps the drawers it cuts again as they
	// were: their code index is derived only if the store inserts them.
	var had map[string]bool
	if known {
		if had, err = m.p.Store.SourceDrawerIDs(ctx, m.wing, c.path); err != nil {
			return result{c: c, err: err}
		}
	}
	ds := make([]store.Drawer, len(chunks))
	for i, ch := range chunks {
		if i%checkEvery == 0 && ctx.Err() != nil {
			return result{c: c, err: ctx.Err()}
		}
		h := store.ContentHash(ch.Text)
		idx, err := m.p.IndexText(ch.Text)
		if err != nil {
			return result{c: c, err: fmt.Errorf("%s: %w", c.path, err)}
		}
		ds[i] = store.Drawer{
			ID: store.DrawerID(m.wing, c.path, i, h), Wing: m.wing, Room: room, Kind: store.KindFile,
			Source: c.path, LineStart: ch.LineStart, LineEnd: ch.LineEnd, Content: ch.Text, IndexText: idx,
			ContentHash: h, CreatedAt: now, SourceMtime: mtime, OccurredAt: c.info.ModTime(), Metadata: metas[i],
		}
		if !had[ds[i].ID] {
			ds[i].Code = palace.CodeIndex(store.KindFile, c.path, ch.Text, defines[i])
		}
	}
	u := &store.SourceUpdate{Source: src, Drawers: ds}
	if had != nil {
		// From the drawer's metadata, as an import derives it.
		u.CodeLater = func(d store.Drawer) store.CodeIndex {
			return palace.CodeIndex(d.Kind, d.Source, d.Content, palace.DefinedNames(d.Metadata))
		}
	}
	return result{c: c, keep: true, update: u, redacted: found, fallback: fellBack, lang: lang, parse: parse}
}

// unchanged says a file was mined before, in this secrets mode, at its
// size and mtime: nothing of it needs reading.
func (m *miner) unchanged(c candidate) bool {
	prev, known := m.known[c.path]
	return known && prev.Redacted == !m.opts.KeepSecrets &&
		prev.Size == c.info.Size() && prev.Mtime == c.info.ModTime().UnixNano()
}

// fileMeta is the metadata of a drawer of a source file cut at its
// definitions: its language, the symbols the drawer defines and the
// identifiers it references. A generated file is never parsed; its
// drawers' metadata is generatedMeta.
type fileMeta struct {
	Lang    string        `json:"lang"`
	Defines []code.Symbol `json:"defines,omitempty"`
	Refs    []string      `json:"refs,omitempty"`
}

// generatedMeta marks the drawers of generated code (search ranks them
// below source, see core/search's metaGenerated).
const generatedMeta = `{"generated":true}`

// chunkFile cuts a file into drawers with their metadata: a source file in
// a language core/code parses at its definitions; any other file, a
// generated one, or a source file that does not parse (fellBack), by
// lines. metas[i] is "" where a drawer has no metadata; defines[i] are the
// names drawer i defines.
//
// Generated code is not parsed: it is machine output (tables, stubs,
// bindings) that search ranks below source anyway, and in Go's own tree it
// is a sixth of the Go a mine would parse, parsing being most of what
// cutting at definitions costs.
func (m *miner) chunkFile(ps *code.Parser, path, text string) (chunks []chunk.Chunk, metas []string, defines [][]string, fellBack bool, lang string, parse time.Duration, err error) {
	generated := isGenerated(text)
	if lang = code.LanguageOf(path, text); lang != "" && !generated {
		t := threadCPU()
		cs, err := ps.SplitFile(path, text, lang, m.opts.Chunk)
		parse = threadCPU() - t
		if err == nil {
			chunks, metas, defines = make([]chunk.Chunk, len(cs)), make([]string, len(cs)), make([][]string, len(cs))
			for i, c := range cs {
				b, err := json.Marshal(fileMeta{Lang: lang, Defines: c.Defines, Refs: c.Refs})
				if err != nil {
					return nil, nil, nil, false, "", 0, fmt.Errorf("metadata of lines %d-%d: %w", c.LineStart, c.LineEnd, err)
				}
				metas[i] = string(b)
				chunks[i] = c.Chunk
				for _, d := range c.Defines {
					defines[i] = append(defines[i], d.Name)
				}
			}
			return chunks, metas, defines, false, lang, parse, nil
		}
		fellBack = true
	}
	chunks = chunk.Split(text, m.opts.Chunk)
	metas = make([]string, len(chunks))
	if generated {
		for i := range metas {
			metas[i] = generatedMeta
		}
	}
	if generated {
		lang = ""
	}
	return chunks, metas, make([][]string, len(chunks)), fellBack, lang, parse, nil
}

// IsInterrupted reports whether err came from a cancelled mine.
func IsInterrupted(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
