package cjk

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// Two Segmenters (two 130 MB instances) materialising into the same empty
// cache directory at the same time must both end up working, with complete
// files and no temp files left behind.
func TestMaterialiseConcurrentSegmenters(t *testing.T) {
	dir := t.TempDir()
	const text = "我来到北京清华大学"
	const want = "我 来到 北京 清华 大学 清华大学"
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			s := New(dir)
			defer s.Close()
			got, err := s.SegmentForIndex(text)
			if err != nil || got != want {
				t.Errorf("SegmentForIndex = %q, %v; want %q", got, err, want)
			}
		})
	}
	wg.Wait()
	checkCache(t, dir)
}

// checkCache asserts that dir holds exactly one jieba-<12 hex> directory
// with exactly the five dictionaries, each of its embedded size.
func checkCache(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || !regexp.MustCompile(`^jieba-[0-9a-f]{12}$`).MatchString(entries[0].Name()) {
		t.Fatalf("cache directory holds %v, want one jieba-<hash> directory", entries)
	}
	sub := filepath.Join(dir, entries[0].Name())
	files, err := os.ReadDir(sub)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(jiebaFiles) {
		t.Errorf("%s holds %d files, want %d (leftover temp files?): %v", sub, len(files), len(jiebaFiles), files)
	}
	for _, name := range jiebaFiles {
		want, err := embeddedSize(name)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(filepath.Join(sub, name))
		if err != nil {
			t.Error(err)
		} else if fi.Size() != want {
			t.Errorf("%s: %d bytes, want %d", name, fi.Size(), want)
		}
	}
}

func TestMaterialiseReusesAndRepairs(t *testing.T) {
	dir := t.TempDir()
	paths, err := materialise(dir)
	if err != nil {
		t.Fatal(err)
	}
	checkCache(t, dir)
	idf := paths[3]
	if filepath.Base(idf) != "idf.utf8" {
		t.Fatalf("paths[3] = %s, want the idf file (NewJieba argument order)", idf)
	}

	// A complete file is reused, not rewritten.
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(idf, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := materialise(dir); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(idf); !fi.ModTime().Equal(old) {
		t.Error("complete idf.utf8 was rewritten")
	}

	// A truncated file (e.g. from a crash of a non-atomic writer) is
	// replaced. An empty idf would make cppjieba abort the process.
	if err := os.Truncate(idf, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := materialise(dir); err != nil {
		t.Fatal(err)
	}
	checkCache(t, dir)
	s := New(dir)
	defer s.Close()
	if got := index(t, s, "清华大学"); got != "清华 大学 清华大学" {
		t.Errorf("after repair: %q", got)
	}
}

func TestCacheDirIsRegularFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cache")
	if err := os.WriteFile(file, []byte("not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := New(file)
	defer s.Close()
	_, err := s.SegmentForIndex("清华大学")
	if err == nil {
		t.Fatal("no error for a cache directory that is a regular file")
	}
	msg := err.Error()
	t.Logf("error: %s", msg)
	for _, want := range []string{"cjk:", file, "not a directory"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not mention %q", msg, want)
		}
	}
	if !strings.Contains(msg, "create jieba dictionary cache directory") {
		t.Errorf("error %q does not say what was being done", msg)
	}
	// The failure is kept (no retry per call) and covers every method...
	if _, err2 := s.SegmentQuery("北京"); err2 == nil || err2.Error() != msg {
		t.Errorf("SegmentQuery after failed load: %v", err2)
	}
	if _, err2 := s.Tag("北京"); err2 == nil {
		t.Error("Tag after failed load: no error")
	}
	// ...but text without Han still works: it never needed the dictionaries.
	if got, err := s.SegmentForIndex("plain English"); err != nil || got != "plain English" {
		t.Errorf("English after failed load: %q, %v", got, err)
	}
}

func TestCacheDirNotWritable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o700)
	s := New(filepath.Join(dir, "cache"))
	defer s.Close()
	if _, err := s.SegmentForIndex("清华大学"); err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Errorf("unwritable cache: %v", err)
	}
}

func TestCacheDirErrors(t *testing.T) {
	for _, dir := range []string{"", filepath.Join(t.TempDir(), "a|b"), filepath.Join(t.TempDir(), "a;b")} {
		s := New(dir)
		_, err := s.SegmentForIndex("北京")
		t.Logf("New(%q): %v", dir, err)
		if err == nil {
			t.Errorf("New(%q): no error", dir)
		}
		s.Close()
	}
}

// gojieba.NewJieba panics when a dictionary is missing; newJieba must turn
// that into an error.
func TestNewJiebaMissingFileIsError(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.utf8")
	j, err := newJieba([5]string{missing, missing, missing, missing, missing})
	if err == nil || j != nil {
		t.Fatalf("newJieba with missing files = %v, %v; want an error", j, err)
	}
	if !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("error %q does not explain the cause", err)
	}
}

func TestEmbeddedDictionaries(t *testing.T) {
	for _, name := range jiebaFiles {
		size, err := embeddedSize(name)
		if err != nil {
			t.Fatal(err)
		}
		if size == 0 && mustBeNonEmpty(name) {
			t.Errorf("%s is empty", name)
		}
	}
	words, err := palaceWords()
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, w := range words {
		found[w.word] = true
	}
	if !found["知识图谱"] || !found["认证中间件"] {
		t.Errorf("palace.dict.utf8 lacks 知识图谱 or 认证中间件 (%d words)", len(words))
	}
	v1, err := DictVersion()
	if err != nil {
		t.Fatal(err)
	}
	v2, _ := DictVersion()
	if v1 != v2 || !regexp.MustCompile(`^[0-9a-f]{12}$`).MatchString(v1) {
		t.Errorf("DictVersion = %q, %q", v1, v2)
	}
}
