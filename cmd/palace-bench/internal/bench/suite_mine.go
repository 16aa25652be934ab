package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/palace-dev/palace/core/store"
)

// SuiteMine says what the mine group mined.
type SuiteMine struct {
	Wing       string  `json:"wing"`
	FilesSeen  int     `json:"files_seen"`
	FilesMined int     `json:"files_mined"`
	MBMined    float64 `json:"mb_mined"`
	Drawers    int     `json:"drawers"`
	DBMB       float64 `json:"db_mb"`
	// ColdInside and NoopInside are the mines' own times as `palace mine
	// --json` reports them; the figures are wall times of the whole process
	// (start, open, mine, exit).
	ColdInside float64 `json:"cold_inside_s"`
	NoopInside float64 `json:"noop_inside_s"`
	// ColdCPU and NoopCPU are the children's CPU time (user + system): on
	// a busy machine the wall times grow, these much less.
	ColdCPU   float64 `json:"cold_cpu_s"`
	NoopCPU   float64 `json:"noop_cpu_s"`
	NoopMined int     `json:"noop_files_mined"`
	// FloorFiles and FloorChunks are what the floor (mine.floor_s) read
	// and inserted: the files the cold mine recorded.
	FloorFiles  int `json:"floor_files"`
	FloorChunks int `json:"floor_chunks"`
	// PeakRSSFrom says where mine.peak_rss_mb comes from: the cold mine's
	// rusage maxrss when it exceeds the bench process's own peak, else its
	// VmHWM read while it ran (see childPeak).
	PeakRSSFrom string `json:"peak_rss_from,omitempty"`
	// Where the cold mine's writer spent its time (see MineRatios):
	// InsertS, AuditS and CommitS are parts of mine.cold_write_s.
	InsertS float64 `json:"insert_s"`
	AuditS  float64 `json:"audit_s"`
	CommitS float64 `json:"commit_s"`
	// ParseCPU is the cold mine's workers' CPU time in core/code, in
	// seconds per language.
	ParseCPU map[string]float64 `json:"parse_cpu_s"`
}

// minedPalace is the palace the mine group left, which the search, lsp and
// mcp groups build on.
type minedPalace struct {
	home, wing string
	drawers    int
}

// mineSummary is the part of `palace mine --json` the suite reads.
type mineSummary struct {
	Wing       string  `json:"wing"`
	FilesSeen  int     `json:"files_seen"`
	FilesMined int     `json:"files_mined"`
	Bytes      int64   `json:"bytes_mined"`
	Seconds    float64 `json:"seconds"`
	// Where the time went (mine.Summary).
	WriteSeconds  float64            `json:"write_seconds"`
	InsertSeconds float64            `json:"insert_seconds"`
	AuditSeconds  float64            `json:"audit_seconds"`
	CommitSeconds float64            `json:"commit_seconds"`
	ParseCPU      map[string]float64 `json:"parse_cpu_s"`
}

// mine runs `palace mine --json SRC` as a child twice into a fresh home:
// cold, then with nothing changed.
func (s *suiteRun) mine(ctx context.Context) error {
	home := filepath.Join(s.tmp, "mined")
	s.logf("   cold mine of %s", s.o.Src)
	var sums [2]mineSummary
	var runs [2]childRun
	for i := range runs {
		run, err := runChild(ctx, s.o.Exe, home, "mine", "--json", "--no-progress", s.o.Src)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(run.stdout, &sums[i]); err != nil {
			return fmt.Errorf("read the mine summary: %w", err)
		}
		runs[i] = run
		s.logf("   %s: %.2fs wall (%.2fs CPU), %d files seen, %d mined", []string{"cold", "no-op"}[i], run.wall.Seconds(), run.cpu.Seconds(), sums[i].FilesSeen, sums[i].FilesMined)
	}
	src, err := filepath.Abs(s.o.Src)
	if err != nil {
		return err
	}
	st, err := store.Open(home)
	if err != nil {
		return err
	}
	status, err := st.Status(ctx)
	var sources map[string]store.Source // what the floor reads
	if err == nil {
		sources, err = st.Sources(ctx, sums[0].Wing, src+string(filepath.Separator))
	}
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if status.Drawers == 0 {
		return fmt.Errorf("mining %s made no drawers", s.o.Src)
	}
	s.mined = &minedPalace{home: home, wing: sums[0].Wing, drawers: status.Drawers}
	s.r.Mine = &SuiteMine{
		Wing: sums[0].Wing, FilesSeen: sums[0].FilesSeen, FilesMined: sums[0].FilesMined, MBMined: float64(sums[0].Bytes) / 1e6,
		Drawers: status.Drawers, DBMB: float64(status.DBBytes) / 1e6,
		ColdInside: sums[0].Seconds, NoopInside: sums[1].Seconds, NoopMined: sums[1].FilesMined,
		ColdCPU: runs[0].cpu.Seconds(), NoopCPU: runs[1].cpu.Seconds(), PeakRSSFrom: runs[0].peakFrom,
		InsertS: sums[0].InsertSeconds, AuditS: sums[0].AuditSeconds, CommitS: sums[0].CommitSeconds, ParseCPU: sums[0].ParseCPU,
	}
	s.r.add("mine.cold_s", "s", "cold `palace mine` of the source tree, process start to exit", runs[0].wall.Seconds(), TargetColdMineS)
	s.r.add("mine.noop_s", "s", "no-op re-mine (nothing changed), process start to exit", runs[1].wall.Seconds(), TargetNoopMineS)
	if err := s.floor(ctx, sources, runs[0].wall, runs[1].wall, sums[0].WriteSeconds); err != nil {
		return err
	}
	const peakWhat = "peak resident set of the cold mine's process (rusage maxrss, or VmHWM while it ran: see mine.peak_rss_from)"
	if runs[0].peakErr == nil {
		s.r.add("mine.peak_rss_mb", "MB", peakWhat, runs[0].peakMB, TargetPeakRSSMB)
	} else {
		s.r.unavailable("mine.peak_rss_mb", "MB", peakWhat, runs[0].peakErr.Error(), TargetPeakRSSMB)
	}
	return nil
}

// floor measures the mine's floor (mineFloor) on the files the cold mine
// recorded (sources), right after the two mines, and reports both mines
// against it.
func (s *suiteRun) floor(ctx context.Context, sources map[string]store.Source, cold, noop time.Duration, write float64) error {
	files := make([]string, 0, len(sources))
	for p := range sources {
		files = append(files, p)
	}
	sort.Strings(files)
	db := filepath.Join(s.tmp, "floor.db")
	took, chunks, err := mineFloor(ctx, db, files)
	// The floor's database is as large as a palace; only its time matters.
	os.Remove(db)
	if err != nil {
		return err
	}
	s.logf("   floor: %.2fs (%d files, %d chunks into one FTS5 table)", took.Seconds(), len(files), chunks)
	s.r.Mine.FloorFiles, s.r.Mine.FloorChunks = len(files), chunks
	s.r.add("mine.floor_s", "s", "the same files cut into 800-character chunks and inserted into one FTS5 table in one transaction, in the bench process", took.Seconds(), 0)
	s.r.add("mine.cold_ratio", "x", "mine.cold_s over mine.floor_s", cold.Seconds()/took.Seconds(), TargetColdRatio)
	s.r.add("mine.noop_ratio", "x", "mine.noop_s over mine.floor_s", noop.Seconds()/took.Seconds(), TargetNoopRatio)
	s.r.add("mine.cold_write_s", "s", "how long the cold mine's writer spent in its transactions (its parts: mine.insert_s, audit_s, commit_s in the group's JSON)", write, 0)
	s.r.add("mine.write_ratio", "x", "mine.cold_write_s over mine.floor_s", write/took.Seconds(), TargetWriteRatio)
	return nil
}
