package main

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

// `bench mine --against` mines the folder with both binaries (here the
// same one), alternately, and reports every run with both medians and their
// ratios.
func TestBenchMineAgainst(t *testing.T) {
	src := benchTree(t)
	stdout, stderr, code := runPalace(t, t.TempDir(), "bench", "mine", src, "--against", palaceBin, "--rounds", "2", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r struct {
		Runs []struct {
			Binary string  `json:"binary"`
			Round  int     `json:"round"`
			WallS  float64 `json:"wall_s"`
			PeakMB float64 `json:"peak_mb"`
			DBMB   float64 `json:"db_mb"`
		} `json:"runs"`
		This, Other struct {
			WallS  float64 `json:"wall_s"`
			PeakMB float64 `json:"peak_mb"`
		}
		WallRatio float64 `json:"wall_ratio"`
		PeakRatio float64 `json:"peak_ratio"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	want := []string{"other", "this", "other", "this"}
	if len(r.Runs) != len(want) {
		t.Fatalf("runs = %+v, want %v", r.Runs, want)
	}
	for i, run := range r.Runs {
		if run.Binary != want[i] || run.Round != i/2+1 || run.WallS <= 0 || run.PeakMB <= 0 || run.DBMB <= 0 {
			t.Errorf("run %d = %+v, want %s in round %d with wall, peak and palace size", i, run, want[i], i/2+1)
		}
	}
	if r.This.WallS <= 0 || r.Other.WallS <= 0 || r.WallRatio != r.This.WallS/r.Other.WallS || r.PeakRatio != r.This.PeakMB/r.Other.PeakMB {
		t.Errorf("medians and ratios: %+v", r)
	}
}

// `bench mine DIR` sets both mines against the floor measured in the same
// run, prints the ratios, and carries them in --json under mine.
func TestBenchMineFloor(t *testing.T) {
	src := benchTree(t)
	stdout, stderr, code := runPalace(t, t.TempDir(), "bench", "mine", src, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r struct {
		Cold struct {
			Mined int `json:"files_mined"`
		} `json:"cold"`
		Mine struct {
			ColdS       float64 `json:"cold_s"`
			NoopS       float64 `json:"noop_s"`
			FloorS      float64 `json:"floor_s"`
			ColdRatio   float64 `json:"cold_ratio"`
			NoopRatio   float64 `json:"noop_ratio"`
			FloorFiles  int     `json:"floor_files"`
			FloorChunks int     `json:"floor_chunks"`
			PeakRSSMB   float64 `json:"peak_rss_mb"`
			ColdWriteS  float64 `json:"cold_write_s"`
		} `json:"mine"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("%v: %s", err, stdout)
	}
	m := r.Mine
	if m.ColdS <= 0 || m.NoopS <= 0 || m.FloorS <= 0 || m.ColdRatio != m.ColdS/m.FloorS || m.NoopRatio != m.NoopS/m.FloorS {
		t.Errorf("mine = %+v: want both mines, the floor and their ratios", m)
	}
	if m.FloorFiles != r.Cold.Mined || m.FloorChunks < m.FloorFiles {
		t.Errorf("the floor read %d files in %d chunks; the cold mine mined %d", m.FloorFiles, m.FloorChunks, r.Cold.Mined)
	}
	if m.ColdWriteS <= 0 || m.ColdWriteS > m.ColdS {
		t.Errorf("cold_write_s = %v of cold_s %v: want the writer's share of the cold mine", m.ColdWriteS, m.ColdS)
	}
	if runtime.GOOS == "linux" && m.PeakRSSMB <= 0 {
		t.Errorf("peak_rss_mb = %v", m.PeakRSSMB)
	}
	text, stderr, code := runPalace(t, t.TempDir(), "bench", "mine", src)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"floor ", "cold / floor ", "no-op / floor "} {
		if !strings.Contains(text, want) {
			t.Errorf("the table has no %q:\n%s", want, text)
		}
	}
}
