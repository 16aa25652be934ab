package mine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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

// The workers' threads run below the writer while the mine runs, and end
// with it: a worker that gave its thread back to the runtime would leave
// a low-priority thread that later runs the writer or a server's requests.
func TestWorkerThreadsEndWithTheMine(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("pkg/f%02d.go", i)] = fmt.Sprintf("package pkg\n\n// F%d answers.\nfunc F%d() int { return %d }\n", i, i, i)
	}
	root := tree(t, files)
	p := openPalace(t)
	base := ownNice(t)
	low := min(base+workerNice, 19)
	if low == base {
		t.Skipf("the process already runs at the lowest priority (nice %d)", base)
	}
	lowBefore := map[int]bool{} // a main thread parked by another test
	for tid, nice := range threadNices(t) {
		lowBefore[tid] = nice == low
	}
	lowDuring := 0
	_, err := Run(context.Background(), p, root, Options{Wing: "w", Workers: 2, Progress: func(done, total int) {
		n := 0
		for tid, nice := range threadNices(t) {
			if nice == low && !lowBefore[tid] {
				n++
			}
		}
		lowDuring = max(lowDuring, n)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if lowDuring == 0 {
		t.Errorf("no thread ran at nice %d during the mine", low)
	}
	// A goroutine's locked thread is ended just after the goroutine.
	var left []int
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		left = left[:0]
		for tid, nice := range threadNices(t) {
			if nice == low && !lowBefore[tid] {
				left = append(left, tid)
			}
		}
		if len(left) == 0 {
			return
		}
	}
	t.Errorf("threads %v still run at nice %d after the mine", left, low)
}
