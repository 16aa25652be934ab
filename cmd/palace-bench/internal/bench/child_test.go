package bench

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// envChildAlloc turns this test binary, run by a test through runChild,
// into a child that allocates and touches MB megabytes, holds them HOLD
// milliseconds and exits: "MB,HOLD".
const envChildAlloc = "PALACE_BENCH_TEST_CHILD_ALLOC"

func TestMain(m *testing.M) {
	if spec := os.Getenv(envChildAlloc); spec != "" {
		os.Exit(allocChild(spec))
	}
	os.Exit(m.Run())
}

func allocChild(spec string) int {
	mbStr, holdStr, _ := strings.Cut(spec, ",")
	mb, err1 := strconv.Atoi(mbStr)
	hold, err2 := strconv.Atoi(holdStr)
	if err1 != nil || err2 != nil {
		fmt.Fprintf(os.Stderr, "%s=%q: want MB,HOLD\n", envChildAlloc, spec)
		return 2
	}
	b := touched(mb)
	time.Sleep(time.Duration(hold) * time.Millisecond)
	runtime.KeepAlive(b)
	return 0
}

// touched is mb megabytes with every page written, so all are resident.
func touched(mb int) []byte {
	b := make([]byte, mb<<20)
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
	return b
}

// runChild reports the child's own peak resident set, not the bench
// process's: Linux puts the parent's peak into a vforked child's maxrss.
func TestChildPeakIsTheChilds(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the vfork maxrss and /proc are Linux's")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// This process's peak far above the small child's.
	ballast := touched(300)
	self := selfMaxRSSMB()
	if self < 300 {
		t.Fatalf("this process's peak is %.0f MB after touching 300 MB", self)
	}

	// A child smaller than this process: its maxrss is this process's
	// peak, so the figure is the VmHWM read while it held its memory.
	t.Setenv(envChildAlloc, "40,300")
	run, err := runChild(ctx, exe, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if run.peakErr != nil || run.peakMB < 40 || run.peakMB > self/2 || !strings.HasPrefix(run.peakFrom, "VmHWM") {
		t.Errorf("a 40 MB child next to a %.0f MB parent: peak %.1f MB from %q (%v)", self, run.peakMB, run.peakFrom, run.peakErr)
	}

	// A child larger than this process, growing until it exits: the
	// polling may miss the end, maxrss does not.
	big := int(self) + 64
	t.Setenv(envChildAlloc, fmt.Sprintf("%d,0", big))
	run, err = runChild(ctx, exe, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if run.peakErr != nil || run.peakMB < float64(big) || run.peakFrom != "rusage maxrss" {
		t.Errorf("a %d MB child next to a %.0f MB parent: peak %.1f MB from %q (%v)", big, self, run.peakMB, run.peakFrom, run.peakErr)
	}
	runtime.KeepAlive(ballast)
}

func TestChildPeakUnavailable(t *testing.T) {
	if _, _, err := childPeak(300, 310, 0); err == nil || !strings.Contains(err.Error(), "310 MB") {
		t.Errorf("a maxrss below the parent's peak and nothing polled: %v, want unavailable", err)
	}
	if _, _, err := childPeak(0, 0, 0); err == nil {
		t.Error("no rusage and nothing polled should be unavailable")
	}
}
