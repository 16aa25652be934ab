package main

import (
	"encoding/json"
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
