package mine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/palace/palacetest"
)

// threadNices reads the nice value of each of this process's threads
// (field 19 of /proc/self/task/TID/stat), by thread id.
func threadNices(t *testing.T) map[int]int {
	t.Helper()
	dirs, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	out := map[int]int{}
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join("/proc/self/task", d.Name(), "stat"))
		if err != nil {
			continue // the thread ended
		}
		// The command name (field 2) is in parentheses and may hold spaces.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		nice, err := strconv.Atoi(f[16])
		if err != nil {
			t.Fatal(err)
		}
		tid, _ := strconv.Atoi(d.Name())
		out[tid] = nice
	}
	return out
}

// ownNice is the nice value of the calling goroutine's thread.
func ownNice(t *testing.T) int {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return threadNices(t)[syscall.Gettid()]
}

func TestLowerThreadPriority(t *testing.T) {
	type change struct{ tid, before, after int }
	got := make(chan change)
	others := make(chan map[int]int)
	go func() {
		// Never unlocked: the thread ends with the goroutine (or, if it
		// is the main thread, is parked for good).
		runtime.LockOSThread()
		tid := syscall.Gettid()
		before := threadNices(t)
		if err := lowerThreadPriority(); err != nil {
			t.Error(err)
		}
		after := threadNices(t)
		got <- change{tid, before[tid], after[tid]}
		delete(before, tid)
		others <- before
	}()
	c, before := <-got, <-others
	if want := min(c.before+workerNice, 19); c.after != want {
		t.Errorf("thread %d runs at nice %d, want %d (it ran at %d)", c.tid, c.after, want, c.before)
	}
	for tid, nice := range threadNices(t) {
		if was, ok := before[tid]; ok && was != nice {
			t.Errorf("thread %d moved from nice %d to %d", tid, was, nice)
		}
	}
}

// lowDuring mines root with o, counting at each file the threads that run
// at nice low and did not before; it returns the most seen at once and
// the ones still there shortly after the mine.
func lowDuring(t *testing.T, root string, o Options, low int) (most int, left []int) {
	t.Helper()
	p := palacetest.OpenPalace(t)
	before := map[int]bool{} // a main thread parked by another test
	for tid, nice := range threadNices(t) {
		before[tid] = nice == low
	}
	lowNow := func() []int {
		var out []int
		for tid, nice := range threadNices(t) {
			if nice == low && !before[tid] {
				out = append(out, tid)
			}
		}
		return out
	}
	o.Wing, o.Workers = "w", 2
	o.Progress = func(done, total int) {
		// At the first file the workers may not have begun theirs; while
		// this waits, they fill the results queue and wait in turn.
		for deadline := time.Now().Add(time.Second); ; time.Sleep(5 * time.Millisecond) {
			most = max(most, len(lowNow()))
			if done > 1 || most > 0 || time.Now().After(deadline) {
				return
			}
		}
	}
	if _, err := Run(context.Background(), p, root, o); err != nil {
		t.Fatal(err)
	}
	// A goroutine's locked thread is ended just after the goroutine; the
	// main thread, if a worker ran on it, is parked for good instead.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		left = slices.DeleteFunc(lowNow(), func(tid int) bool { return tid == syscall.Getpid() })
		if len(left) == 0 {
			break
		}
	}
	return most, left
}

// A folder mine's workers run below the writer while the mine runs, and
// end with it: a worker that gave its thread back to the runtime would
// leave a low-priority thread that later runs the writer or a server's
// requests. A save's files, no more than the workers, are parsed at full
// priority.
func TestWorkerThreadsEndWithTheMine(t *testing.T) {
	files := map[string]string{}
	for i := range 200 { // more than the results queue holds, so workers outlive the first file
		files[fmt.Sprintf("pkg/f%03d.go", i)] = fmt.Sprintf("package pkg\n\n// F%d answers.\nfunc F%d() int { return %d }\n", i, i, i)
	}
	// Two files for the save's case: while the small one is reported,
	// the big one is still being parsed by the other worker.
	var big strings.Builder
	big.WriteString("package save\n")
	for i := range 4000 {
		fmt.Fprintf(&big, "\n// B%d answers.\nfunc B%d(x int) int { if x > %d { return x - 1 }; return x + %d }\n", i, i, i, i)
	}
	files["save/a.go"] = "package save\n\nfunc A() {}\n"
	files["save/b.go"] = big.String()
	root := tree(t, files)
	base := ownNice(t)
	low := min(base+workerNice, 19)
	if low == base {
		t.Skipf("the process already runs at the lowest priority (nice %d)", base)
	}
	most, left := lowDuring(t, root, Options{}, low)
	if most == 0 {
		t.Errorf("no thread ran at nice %d during the mine of 200 files", low)
	}
	if len(left) > 0 {
		t.Errorf("threads %v still run at nice %d after the mine", left, low)
	}
	saved := []string{filepath.Join(root, "save", "a.go"), filepath.Join(root, "save", "b.go")}
	most, _ = lowDuring(t, root, Options{Only: saved}, low)
	if most > 0 {
		t.Errorf("%d threads ran at nice %d while two saved files were mined by two workers", most, low)
	}
}
