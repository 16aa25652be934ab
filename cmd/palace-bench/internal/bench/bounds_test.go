package bench

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// The table is well formed: one entry per command and flag, each range
// not empty, each with its unit unless every value is accepted.
func TestBoundsTable(t *testing.T) {
	seen := map[string]bool{}
	for _, b := range Bounds() {
		key := b.Cmd + " --" + b.Flag
		if seen[key] {
			t.Errorf("%s: twice in the table", key)
		}
		seen[key] = true
		if !strings.HasPrefix(b.Cmd, "bench") || b.Flag == "" || strings.HasPrefix(b.Flag, "-") {
			t.Errorf("%+v: want a bench command and a flag name without dashes", b)
		}
		if b.Lo > b.Hi {
			t.Errorf("%s: %d to %d is empty", key, b.Lo, b.Hi)
		}
		if b.Many == "" && b.Why == "" {
			t.Errorf("%s: no unit and no reason", key)
		}
		if got, ok := BoundOf(b.Cmd, b.Flag); !ok || got != b {
			t.Errorf("BoundOf(%q, %q) = %+v, %v", b.Cmd, b.Flag, got, ok)
		}
	}
}

// A value out of range is refused with the flag, the value and the range;
// both ends are accepted.
func TestBoundRefusesOutOfRange(t *testing.T) {
	b, ok := BoundOf("bench", "sizes")
	if !ok {
		t.Fatal("no bound for bench --sizes")
	}
	err := b.Check(999_999_999_999)
	if err == nil || !strings.Contains(err.Error(), "--sizes 999999999999: want at most 1000000 drawers (range 1 to 1000000: a palace") {
		t.Errorf("--sizes 999999999999: %v", err)
	}
	if err := b.Check(-3); err == nil || !strings.Contains(err.Error(), "--sizes -3: want at least 1 drawer (range 1 to 1000000") {
		t.Errorf("--sizes -3: %v", err)
	}
	if err := b.Check(0); err == nil {
		t.Error("--sizes 0 accepted")
	}
	for _, v := range []int64{1, MaxDrawers} {
		if err := b.Check(v); err != nil {
			t.Errorf("--sizes %d: %v", v, err)
		}
	}
}

// The library's entry points refuse what the CLI refuses, before any
// work: Suite and Vectors make no folder for such options.
func TestOptionsOutOfBounds(t *testing.T) {
	tmp := t.TempDir()
	ctx := context.Background()
	for name, err := range map[string]error{
		"suite sizes":       SuiteOptions{Sizes: []int{500, 999_999_999_999}}.Check(),
		"suite groups":      SuiteOptions{Only: []string{"nope"}}.Check(),
		"vectors dim":       VectorsOptions{Dim: 100_000}.Check(),
		"vectors bytes":     VectorsOptions{Sizes: []int{MaxDrawers}, Dim: 4096}.Check(),
		"vectors negative":  VectorsOptions{Queries: -1}.Check(),
		"team members":      TeamOptions{Drawers: 10, Members: 1, Writes: 1, Samples: 1}.Check(),
		"team writes":       TeamOptions{Drawers: 10, Members: 2, Writes: 100_001, Samples: 1}.Check(),
		"code max":          CodeOptions{Max: MaxQueries + 1}.Check(),
		"relevant max":      RelevantOptions{Max: -1}.Check(),
		"mine against":      second(MineAgainst(ctx, tmp, "x", "y", 101)),
		"embed iters":       second(Embed(ctx, EmbedOptions{ModelDir: tmp, Iters: 10_001})),
		"suite run":         second(Suite(ctx, SuiteOptions{Exe: "palace", Sizes: []int{999_999_999_999}, TmpDir: tmp})),
		"vectors run":       second(Vectors(ctx, VectorsOptions{Sizes: []int{999_999_999_999}, TmpDir: tmp})),
		"vectors run bytes": second(Vectors(ctx, VectorsOptions{Sizes: []int{MaxDrawers}, Dim: 2048, TmpDir: tmp})),
	} {
		if err == nil || !strings.Contains(err.Error(), "want") {
			t.Errorf("%s: %v, want a refusal saying what is wanted", name, err)
		}
	}
	if es, _ := os.ReadDir(tmp); len(es) > 0 {
		t.Errorf("refused runs left %d entries in %s", len(es), tmp)
	}
	for name, err := range map[string]error{
		"suite defaults":   SuiteOptions{}.Check(),
		"vectors defaults": VectorsOptions{}.Check(),
		"vectors largest":  VectorsOptions{Sizes: []int{MaxDrawers}, Dim: 1024}.Check(),
		"team defaults":    TeamOptions{Drawers: DefaultTeamDrawers, Members: DefaultTeamMembers, Writes: DefaultTeamWrites, Samples: DefaultTeamSamples}.Check(),
		"code defaults":    CodeOptions{Max: DefaultCodeMax}.Check(),
	} {
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// smallTree is a folder of a few source files to mine.
func smallTree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for i, text := range []string{"package a\n\n// parse the config file\nfunc Parse() {}\n", "package a\n\n// open the database\nfunc Open() {}\n"} {
		if err := os.WriteFile(filepath.Join(dir, string(rune('a'+i))+".go"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var ns []string
	for _, e := range es {
		ns = append(ns, e.Name())
	}
	return ns
}

// A bench mine that fails leaves home as it found it, so the next run
// into the same home is cold and accepted: for a folder that does not
// exist, and for a run cancelled mid-way, in a home that held a file and
// in one that did not exist.
func TestMineFailedRunLeavesHomeAsFound(t *testing.T) {
	src := smallTree(t)
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "keep.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := Mine(ctx, filepath.Join(src, "nonexistent"), home, 1); err == nil || !strings.Contains(err.Error(), "no such file or folder") {
		t.Errorf("a missing folder: %v", err)
	}
	if got := names(t, home); !slices.Equal(got, []string{"keep.txt"}) {
		t.Errorf("after a missing folder home holds %v, want keep.txt only", got)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Mine(cancelled, src, home, 1); err == nil {
		t.Error("a cancelled mine succeeded")
	}
	if got := names(t, home); !slices.Equal(got, []string{"keep.txt"}) {
		t.Errorf("after a cancelled mine home holds %v, want keep.txt only", got)
	}
	fresh := filepath.Join(t.TempDir(), "new")
	if _, err := Mine(cancelled, src, fresh, 1); err == nil {
		t.Error("a cancelled mine succeeded")
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("a cancelled mine into a new home left it: %v", err)
	}
	r, err := Mine(ctx, src, home, 1)
	if err != nil || r.Drawers == 0 {
		t.Fatalf("the next run: %v", err)
	}
	// A finished run's palace is kept, and a cold mine cannot go there.
	if _, err := os.Stat(filepath.Join(home, unfinishedMark)); !os.IsNotExist(err) {
		t.Errorf("a finished run left its mark: %v", err)
	}
	if _, err := Mine(ctx, src, home, 1); err == nil || !strings.Contains(err.Error(), "already holds a palace") {
		t.Errorf("a run into a finished run's palace: %v", err)
	}
}

// A run killed before it could clean up (its mark still in home, a
// palace half made beside it) does not block the next: that run removes
// what the killed one made, keeps what home held before, and mines cold.
func TestMineAfterAKilledRun(t *testing.T) {
	src := smallTree(t)
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "keep.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	// What a killed run leaves: its mark, a palace with drawers and the
	// floor's database.
	if _, err := markUnfinished(home); err != nil {
		t.Fatal(err)
	}
	p, err := palace.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := timedMine(context.Background(), p, src, mine.Options{}); err != nil {
		t.Fatal(err)
	}
	p.Close()
	if err := os.WriteFile(filepath.Join(home, "floor.db"), []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Mine(context.Background(), src, home, 1)
	if err != nil {
		t.Fatalf("the run after a killed one: %v", err)
	}
	if r.Cold.Mined != 2 {
		t.Errorf("cold mine mined %d files, want 2: the killed run's palace was not removed", r.Cold.Mined)
	}
	got := names(t, home)
	if !slices.Contains(got, "keep.txt") || !slices.Contains(got, store.DBName) || slices.Contains(got, "floor.db") || slices.Contains(got, unfinishedMark) {
		t.Errorf("home holds %v: want keep.txt and the new palace, no floor.db, no mark", got)
	}
}
