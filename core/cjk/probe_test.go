package cjk

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestTrimpathBinary is the portability proof. gojieba's default dictionary
// path comes from runtime.Caller at build time; under -trimpath it is the
// relative "github.com/yanyiwu/gojieba@v1.4.6/deps/cppjieba/dict", which
// does not exist relative to the fresh working directory used here, so the
// probe can only work from the embedded dictionaries. Two probe processes
// share one fresh cache directory to exercise cross-process materialisation.
func TestTrimpathBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a cgo binary; skipped with -short")
	}
	goTool, err := exec.LookPath("go") // go test puts GOROOT/bin first in PATH
	if err != nil {
		t.Fatalf("go tool not found: %v", err)
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "cjkprobe")
	build := exec.Command(goTool, "build", "-trimpath", "-o", bin, "./internal/cjkprobe")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -trimpath: %v\n%s", err, out)
	}
	if out, err := exec.Command(goTool, "version", "-m", bin).Output(); err != nil || !strings.Contains(string(out), "-trimpath=true") {
		t.Fatalf("probe was not built with -trimpath: %v\n%s", err, out)
	}

	workDir := filepath.Join(tmp, "elsewhere")
	cache := filepath.Join(tmp, "palace-home", "cache")
	if err := os.MkdirAll(workDir, 0o755); err != nil {
		t.Fatal(err)
	}
	outs := make([]string, 2)
	var wg sync.WaitGroup
	for i := range outs {
		wg.Go(func() {
			cmd := exec.Command(bin, "-cache", cache, "我来到北京清华大学", "用SQLite实现知识图谱")
			cmd.Dir = workDir
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("probe %d: %v\n%s", i, err, out)
			}
			outs[i] = string(out)
		})
	}
	wg.Wait()
	for i, out := range outs {
		for _, want := range []string{
			"index: 我 来到 北京 清华 大学 清华大学\n",
			"query: 我 | 来到 | 北京 | 清华大学\n",
			"tag: 我/r 来到/v 北京/ns 清华大学/nt\n",
			"index: 用 SQLite 实现 知识 图谱 知识图谱\n",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("probe %d output lacks %q:\n%s", i, want, out)
			}
		}
	}
	checkCache(t, cache)
}
