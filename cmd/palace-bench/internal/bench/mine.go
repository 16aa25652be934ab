// Package bench measures Palace on real data and reports numbers; it asserts
// nothing, so the numbers can be rerun and compared by anyone.
package bench

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

//go:embed queries.txt
var defaultQueries string

// Pass is one timed mine.
type Pass struct {
	Seconds     float64 `json:"seconds"`
	Files       int     `json:"files"`
	Mined       int     `json:"files_mined"`
	Bytes       int64   `json:"bytes"`
	Drawers     int     `json:"drawers_added"`
	FilesPerSec float64 `json:"files_per_sec"`
	MBPerSec    float64 `json:"mb_per_sec"`
	DrawersPS   float64 `json:"drawers_per_sec"`
}

// Latency summarises query times in milliseconds.
type Latency struct {
	Queries int     `json:"queries"`
	P50     float64 `json:"p50_ms"`
	P95     float64 `json:"p95_ms"`
	Max     float64 `json:"max_ms"`
	Hits    int     `json:"total_hits"`
}

// MineRatios are the two mines beside the floor (mineFloor) measured in
// the same run: the figures the performance suite reports under the same
// names (mine.cold_s, mine.floor_s, mine.cold_ratio, ...).
type MineRatios struct {
	ColdS       float64 `json:"cold_s"`
	NoopS       float64 `json:"noop_s"`
	FloorS      float64 `json:"floor_s"`
	ColdRatio   float64 `json:"cold_ratio"`
	NoopRatio   float64 `json:"noop_ratio"`
	FloorFiles  int     `json:"floor_files"`
	FloorChunks int     `json:"floor_chunks"`
	// ColdWriteS is how long the cold mine's writer spent in its
	// transactions (mine.Summary.WriteSeconds): near ColdS, the writer is
	// the critical path; well below, the workers are.
	ColdWriteS float64 `json:"cold_write_s"`
	// WriteRatio is ColdWriteS over FloorS: the writer's busy time against
	// the whole floor (issue 45's target: at most 2).
	WriteRatio float64 `json:"write_ratio"`
	// InsertS, AuditS and CommitS are parts of ColdWriteS
	// (mine.Summary.InsertSeconds, AuditSeconds, CommitSeconds): the
	// statements inserting the drawers with their secondary and full-text
	// index entries (the FTS5 triggers fire in them: the full-text index
	// is built there and in the commit, where FTS5 writes its segment, so
	// there is no separate FTS or index build to time), the audit lines,
	// and the commits (WAL, FTS5 segments and merges, checkpoints). The
	// rest is staging the rows, reading what each file had, and the
	// source rows.
	InsertS float64 `json:"insert_s"`
	AuditS  float64 `json:"audit_s"`
	CommitS float64 `json:"commit_s"`
	// ParseCPU is the cold mine's workers' CPU time in core/code per
	// language (mine.Summary.ParseCPU), summed over the workers.
	ParseCPU map[string]float64 `json:"parse_cpu_s"`
	// PeakRSSMB is this process's peak resident set right after the cold
	// mine (getrusage maxrss; 0 where unknown): the mine's, as nothing
	// before it in the process holds much.
	PeakRSSMB float64 `json:"peak_rss_mb"`
}

// WhereTheTimeWent says, in lines, where the cold mine's time went: the
// writer's transactions and their parts, and the workers' parse CPU per
// language, against the floor.
func (m MineRatios) WhereTheTimeWent() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cold mine's writer in its transactions %.2fs of %.2fs (%.2fx the floor): inserts %.2fs, audit %.2fs, commits %.2fs, the rest %.2fs\n",
		m.ColdWriteS, m.ColdS, m.WriteRatio, m.InsertS, m.AuditS, m.CommitS, max(m.ColdWriteS-m.InsertS-m.AuditS-m.CommitS, 0))
	langs := make([]string, 0, len(m.ParseCPU))
	for l := range m.ParseCPU {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	if len(langs) > 0 {
		b.WriteString("workers' CPU in core/code:")
		for _, l := range langs {
			fmt.Fprintf(&b, " %s %.2fs", l, m.ParseCPU[l])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// MineReport is what `palace bench mine` prints.
type MineReport struct {
	Dir      string     `json:"dir"`
	Home     string     `json:"home"`
	Cold     Pass       `json:"cold"`
	Noop     Pass       `json:"noop"`
	Mine     MineRatios `json:"mine"`
	Search   Latency    `json:"search"`
	DBBytes  int64      `json:"db_bytes"`
	Drawers  int        `json:"drawers"`
	Cores    int        `json:"cores"`
	MaxBytes int64      `json:"max_file_bytes"`
}

// Mine mines dir cold into a fresh palace at home (which must not hold one),
// mines it again (nothing changed, so a no-op), loads the files the cold
// mine recorded into the floor's bare FTS5 table (a database beside the
// palace, removed after), then times each of 100 mixed queries with the
// default limit. A run that fails (a missing dir, a cancelled context, an
// error or a panic mid-way) removes what it made in home, so the next run
// finds home as this one did; one killed before it could leaves its mark
// (unfinishedMark), and the next run removes what that one made.
func Mine(ctx context.Context, dir, home string, cores int) (*MineReport, error) {
	if err := CheckMineDir(dir); err != nil {
		return nil, fmt.Errorf("bench mine: %w", err)
	}
	if err := clearUnfinished(home); err != nil {
		return nil, fmt.Errorf("bench mine: remove the palace of a run that did not finish from %s: %w", home, err)
	}
	if _, err := os.Stat(filepath.Join(home, store.DBName)); err == nil {
		return nil, fmt.Errorf("bench: %s already holds a palace; give an empty --home so the mine is cold", home)
	}
	undo, err := markUnfinished(home)
	if err != nil {
		return nil, fmt.Errorf("bench mine: %w", err)
	}
	r, err := mineIn(ctx, dir, home, cores, undo)
	if err != nil {
		return nil, err
	}
	// Kept, as asked for: the mark goes, so the next run refuses it.
	if err := os.Remove(filepath.Join(home, unfinishedMark)); err != nil {
		return nil, fmt.Errorf("bench mine: %w", err)
	}
	return r, nil
}

// mineIn is Mine's work in home, marked unfinished; unless it returns a
// report, undo removes what it made, the palace closed first.
func mineIn(ctx context.Context, dir, home string, cores int, undo func() error) (_ *MineReport, err error) {
	done := false
	defer func() {
		if done {
			return
		}
		// A panic leaves err nil; the palace goes all the same. The error
		// says so: an interrupted mine's own says what it wrote is kept.
		uerr := undo()
		switch {
		case err == nil:
		case uerr != nil:
			err = fmt.Errorf("%w (and removing its palace: %v)", err, uerr)
		default:
			err = fmt.Errorf("bench mine, its palace removed: %w", err)
		}
	}()
	p, err := palace.Open(home)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	r := &MineReport{Dir: dir, Home: home, Cores: cores, MaxBytes: mine.DefaultMaxSize}
	opts := mine.Options{}
	var sum *mine.Summary
	if r.Cold, sum, err = timedMine(ctx, p, dir, opts); err != nil {
		return nil, err
	}
	peak := selfMaxRSSMB()
	if r.Noop, _, err = timedMine(ctx, p, dir, opts); err != nil {
		return nil, err
	}
	if r.Mine, err = floorBeside(ctx, p, home, sum, r.Cold.Seconds, r.Noop.Seconds); err != nil {
		return nil, err
	}
	r.Mine.PeakRSSMB = peak
	r.Mine.ColdWriteS = sum.WriteSeconds
	r.Mine.WriteRatio = sum.WriteSeconds / r.Mine.FloorS
	r.Mine.InsertS, r.Mine.AuditS, r.Mine.CommitS = sum.InsertSeconds, sum.AuditSeconds, sum.CommitSeconds
	r.Mine.ParseCPU = sum.ParseCPU
	// The default request, as `palace search` makes it.
	if r.Search, _, err = Searches(ctx, p, Queries(), search.Request{}); err != nil {
		return nil, err
	}
	s, err := ops.Status(ctx, p, ops.StatusRequest{})
	if err != nil {
		return nil, err
	}
	r.DBBytes, r.Drawers = s.DBBytes, s.Drawers
	done = true
	return r, nil
}

// unfinishedMark is the file bench mine keeps in its home while it runs:
// the names of the entries home held before, one a line. A run killed
// before it could remove its palace leaves it behind, so the next run
// knows which entries to remove rather than refusing the half-made palace.
const unfinishedMark = ".palace-bench-mine-unfinished"

// markUnfinished makes home if need be and writes the mark, returning the
// function that removes what was made in home since: home itself when it
// did not exist, else the entries it did not hold (the palace, its WAL,
// lock and audit files, the floor's database).
func markUnfinished(home string) (func() error, error) {
	es, err := os.ReadDir(home)
	made := errors.Is(err, fs.ErrNotExist)
	if err != nil && !made {
		return nil, err
	}
	if made {
		if err := os.MkdirAll(home, 0o700); err != nil {
			return nil, err
		}
	}
	names := make([]string, 0, len(es))
	for _, e := range es {
		names = append(names, e.Name())
	}
	if err := os.WriteFile(filepath.Join(home, unfinishedMark), []byte(strings.Join(names, "\n")), 0o600); err != nil {
		return nil, err
	}
	if made {
		return func() error { return os.RemoveAll(home) }, nil
	}
	return func() error { return removeMade(home, names) }, nil
}

// clearUnfinished removes what a killed run made in home, as its mark
// says; nothing when home holds no mark.
func clearUnfinished(home string) error {
	b, err := os.ReadFile(filepath.Join(home, unfinishedMark))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var had []string
	if len(b) > 0 {
		had = strings.Split(string(b), "\n")
	}
	return removeMade(home, had)
}

// removeMade removes home's entries not named in had, the mark last, so
// a removal that fails leaves the mark for the next run to finish.
func removeMade(home string, had []string) error {
	es, err := os.ReadDir(home)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range es {
		if n := e.Name(); n != unfinishedMark && !slices.Contains(had, n) {
			if err := os.RemoveAll(filepath.Join(home, n)); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	return os.Remove(filepath.Join(home, unfinishedMark))
}

// floorBeside measures the floor on the files the cold mine (sum)
// recorded and sets both mines' times against it.
func floorBeside(ctx context.Context, p *palace.Palace, home string, sum *mine.Summary, cold, noop float64) (MineRatios, error) {
	root := sum.Root
	if fi, err := os.Stat(root); err == nil && fi.IsDir() {
		root += string(filepath.Separator)
	}
	sources, err := p.Store.Sources(ctx, sum.Wing, root)
	if err != nil {
		return MineRatios{}, fmt.Errorf("bench: the files the mine recorded: %w", err)
	}
	files := make([]string, 0, len(sources))
	for f := range sources {
		files = append(files, f)
	}
	sort.Strings(files)
	db := filepath.Join(home, "floor.db")
	took, chunks, err := mineFloor(ctx, db, files)
	// The floor's database is as large as a palace; only its time matters.
	os.Remove(db)
	if err != nil {
		return MineRatios{}, err
	}
	f := took.Seconds()
	return MineRatios{ColdS: cold, NoopS: noop, FloorS: f, ColdRatio: cold / f, NoopRatio: noop / f,
		FloorFiles: len(files), FloorChunks: chunks}, nil
}

func timedMine(ctx context.Context, p *palace.Palace, dir string, o mine.Options) (Pass, *mine.Summary, error) {
	sum, err := mine.Run(ctx, p, dir, o)
	if err != nil {
		return Pass{}, nil, err
	}
	r := Pass{Seconds: sum.Seconds, Files: sum.FilesSeen, Mined: sum.FilesMined, Bytes: sum.Bytes, Drawers: sum.DrawersAdded}
	if sum.Seconds > 0 {
		r.FilesPerSec = float64(sum.FilesSeen) / sum.Seconds
		r.MBPerSec = float64(sum.Bytes) / 1e6 / sum.Seconds
		r.DrawersPS = float64(sum.DrawersAdded) / sum.Seconds
	}
	return r, sum, nil
}

// Queries returns the built-in mixed query set.
func Queries() []string {
	var qs []string
	for _, l := range strings.Split(defaultQueries, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "# ") {
			qs = append(qs, l)
		}
	}
	return qs
}

// Searches times each query once with req (its Query set to the query),
// after one untimed warm-up pass over all of them so the page cache is the
// same for every query, and counts the queries that found something.
func Searches(ctx context.Context, p *palace.Palace, qs []string, req search.Request) (Latency, int, error) {
	var ms []float64
	hits, withHits := 0, 0
	for pass := range 2 {
		for _, q := range qs {
			req.Query = q
			t := time.Now()
			res, err := search.Run(ctx, p, req)
			if err != nil {
				return Latency{}, 0, err
			}
			if pass == 0 {
				continue
			}
			ms = append(ms, msBetween(t, time.Now()))
			hits += len(res.Hits)
			if len(res.Hits) > 0 {
				withHits++
			}
		}
	}
	return latency(ms, hits), withHits, nil
}
