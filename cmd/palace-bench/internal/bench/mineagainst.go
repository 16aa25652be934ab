package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// MineRun is one cold mine by one binary.
type MineRun struct {
	Binary string  `json:"binary"` // "this" or "other"
	Round  int     `json:"round"`
	WallS  float64 `json:"wall_s"`
	CPUS   float64 `json:"cpu_s"`
	PeakMB float64 `json:"peak_mb"`
	DBMB   float64 `json:"db_mb"`
}

// MineSide is one binary's medians over the rounds.
type MineSide struct {
	Exe    string  `json:"exe"`
	WallS  float64 `json:"wall_s"`
	CPUS   float64 `json:"cpu_s"`
	PeakMB float64 `json:"peak_mb"`
	DBMB   float64 `json:"db_mb"`
}

// MineComparison compares the cold mines of one folder by this binary and
// another (an earlier build), run alternately in the same process so that
// a machine's load drifts over both alike.
type MineComparison struct {
	Dir   string    `json:"dir"`
	This  MineSide  `json:"this"`
	Other MineSide  `json:"other"`
	Runs  []MineRun `json:"runs"`
	// WallRatio and PeakRatio are this binary's median over the other's:
	// 1.15 is 15 % slower, 1.10 is 10 % more memory.
	WallRatio float64 `json:"wall_ratio"`
	PeakRatio float64 `json:"peak_ratio"`
}

// MineAgainst mines dir cold into a fresh temporary palace rounds times with
// self and with other, alternating (other first in each round), each as a
// child process without an embedding model, and compares their medians.
func MineAgainst(ctx context.Context, dir, self, other string, rounds int) (*MineComparison, error) {
	if err := checkFlag("bench mine", "rounds", rounds); err != nil {
		return nil, fmt.Errorf("bench mine: %w", err)
	}
	c := &MineComparison{Dir: dir, This: MineSide{Exe: self}, Other: MineSide{Exe: other}}
	for round := 1; round <= rounds; round++ {
		for _, b := range []struct{ name, exe string }{{"other", other}, {"this", self}} {
			run, err := coldMine(ctx, b.exe, dir)
			if err != nil {
				return nil, fmt.Errorf("bench mine with %s: %w", b.exe, err)
			}
			run.Binary, run.Round = b.name, round
			c.Runs = append(c.Runs, run)
		}
	}
	c.This = medians(c.This.Exe, c.Runs, "this")
	c.Other = medians(c.Other.Exe, c.Runs, "other")
	if c.Other.WallS > 0 {
		c.WallRatio = c.This.WallS / c.Other.WallS
	}
	if c.Other.PeakMB > 0 {
		c.PeakRatio = c.This.PeakMB / c.Other.PeakMB
	}
	return c, nil
}

// coldMine runs `exe mine dir` into a fresh temporary palace.
func coldMine(ctx context.Context, exe, dir string) (MineRun, error) {
	home, err := os.MkdirTemp("", "palace-bench-mine-")
	if err != nil {
		return MineRun{}, err
	}
	defer os.RemoveAll(home)
	r, err := runChild(ctx, exe, home, "mine", dir)
	if err != nil {
		return MineRun{}, err
	}
	if r.peakErr != nil {
		return MineRun{}, fmt.Errorf("peak memory: %w", r.peakErr)
	}
	var db int64
	for _, name := range []string{"palace.db", "palace.db-wal"} {
		if fi, err := os.Stat(filepath.Join(home, name)); err == nil {
			db += fi.Size()
		}
	}
	return MineRun{WallS: r.wall.Seconds(), CPUS: r.cpu.Seconds(), PeakMB: r.peakMB, DBMB: float64(db) / 1e6}, nil
}

// medians is the side of binary name: the median of each figure over its
// runs.
func medians(exe string, runs []MineRun, name string) MineSide {
	var wall, cpu, peak, db []float64
	for _, r := range runs {
		if r.Binary == name {
			wall, cpu, peak, db = append(wall, r.WallS), append(cpu, r.CPUS), append(peak, r.PeakMB), append(db, r.DBMB)
		}
	}
	return MineSide{Exe: exe, WallS: median(wall), CPUS: median(cpu), PeakMB: median(peak), DBMB: median(db)}
}
