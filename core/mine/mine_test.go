package mine

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

// tree writes files (path -> content) under a new temp dir.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		write(t, root, p, c)
	}
	return root
}

func write(t testing.TB, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func relFiles(t *testing.T, root string) []string {
	t.Helper()
	w, err := walk(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range w.files {
		out = append(out, c.rel)
	}
	return out
}

func TestIgnoreRules(t *testing.T) {
	root := tree(t, map[string]string{
		".gitignore":              "*.log\nbuild/\n!keep.log\n/rootonly.txt\n",
		"a.go":                    "package a",
		"debug.log":               "x",
		"keep.log":                "kept by negation",
		"rootonly.txt":            "ignored at root",
		"sub/rootonly.txt":        "not ignored: pattern is anchored",
		"build/out.go":            "x",
		"sub/.gitignore":          "secret.txt\n!debug2.log\n",
		"sub/secret.txt":          "x",
		"sub/debug2.log":          "re-included below",
		"other/secret.txt":        "nested rule does not reach here",
		".palaceignore":           "drafts/\n",
		"drafts/idea.md":          "x",
		".git/info/exclude":       "local-only.md\n",
		".git/config":             "x",
		"local-only.md":           "x",
		"node_modules/x/index.js": "x",
		"vendor/lib/lib.go":       "x",
		// A virtual environment is skipped; a package named venv is source.
		".venv/pyvenv.cfg":                        "home = /usr/bin\n",
		".venv/lib/python3.11/site-packages/x.py": "x",
		"Lib/venv/__init__.py":                    "x",
	})
	got := relFiles(t, root)
	want := []string{".gitignore", "Lib/venv/__init__.py", "a.go", "keep.log", "other/secret.txt", "sub/.gitignore", "sub/debug2.log", "sub/rootonly.txt"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("walk kept\n %v\nwant\n %v", got, want)
	}
}

func TestSymlinksAreNotFollowed(t *testing.T) {
	root := tree(t, map[string]string{"a/file.txt": "hello"})
	if err := os.Symlink(root, filepath.Join(root, "a", "loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "a", "file.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	w, err := walk(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.files) != 1 {
		t.Errorf("files = %d, want 1", len(w.files))
	}
	n := 0
	for _, s := range w.skipped {
		if s.Reason == ReasonSymlink {
			n++
		}
	}
	if n != 2 {
		t.Errorf("symlinks reported = %d, want 2", n)
	}
}

func TestDecode(t *testing.T) {
	cases := []struct {
		name   string
		in     []byte
		want   string
		reason string
	}{
		{"plain", []byte("hi\n"), "hi\n", ""},
		{"utf8 bom", []byte("\xEF\xBB\xBFhi"), "hi", ""},
		{"utf16le bom", []byte{0xFF, 0xFE, 'h', 0, 'i', 0}, "hi", ""},
		{"utf16be bom", []byte{0xFE, 0xFF, 0, 'h', 0, 'i'}, "hi", ""},
		{"nul", []byte("ab\x00cd"), "", ReasonBinary},
		{"latin1", []byte("caf\xe9"), "", ReasonInvalidUTF8},
	}
	for _, c := range cases {
		got, err := decode(c.in)
		if c.reason == "" {
			if err != nil || got != c.want {
				t.Errorf("%s: %q, %v", c.name, got, err)
			}
			continue
		}
		s, ok := asSkip(err)
		if !ok || s.reason != c.reason {
			t.Errorf("%s: err %v, want reason %s", c.name, err, c.reason)
		}
	}
}

func TestRoute(t *testing.T) {
	r := newRouter([]store.Room{
		{Room: "auth", Keywords: []string{"login", "token"}},
		{Room: "storage", Keywords: []string{"sqlite", "schema"}},
	})
	cases := []struct{ rel, content, want string }{
		{"auth/handler.go", "", "auth"},
		{"internal/login/x.go", "", "auth"},                 // keyword as folder
		{"pkg/sqlite.go", "", "storage"},                    // keyword as file stem
		{"pkg/x.go", "schema schema token", "storage"},      // most keyword hits
		{"cmd/main.go", "nothing relevant", "cmd"},          // top-level folder
		{"README.md", "nothing relevant", DefaultRoom},      // nothing applies
		{".github/ci.yml", "nothing relevant", DefaultRoom}, // hidden folders are no room
	}
	for _, c := range cases {
		if got := r.route(c.rel, c.content); got != c.want {
			t.Errorf("route(%s) = %s, want %s", c.rel, got, c.want)
		}
	}
}

func drawersOf(t *testing.T, st *store.Store, wing string) map[string]int {
	t.Helper()
	srcs, err := st.Sources(context.Background(), wing, "")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for p, s := range srcs {
		out[filepath.Base(p)] = s.Drawers
	}
	return out
}

func TestIncremental(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	st := p.Store
	root := tree(t, map[string]string{
		"a.md": "alpha words here",
		"b.md": "bravo words here",
		"c.md": "charlie words here",
	})
	mustRun := func() *Summary {
		t.Helper()
		s, err := Run(ctx, p, root, Options{Wing: "w"})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := mustRun()
	if s.FilesMined != 3 || s.DrawersAdded != 3 {
		t.Fatalf("cold: %+v", s)
	}
	s = mustRun()
	if s.FilesMined != 0 || s.FilesUnchanged != 3 || s.DrawersAdded != 0 || s.DrawersRemoved != 0 {
		t.Fatalf("no-op: %+v", s)
	}
	write(t, root, "a.md", "alpha changed entirely")
	write(t, root, "d.md", "delta is new")
	if err := os.Remove(filepath.Join(root, "b.md")); err != nil {
		t.Fatal(err)
	}
	write(t, root, ".gitignore", "c.md\n")
	s = mustRun()
	if s.FilesMined != 3 { // a.md changed, d.md new, .gitignore new
		t.Errorf("after changes: mined %d, want 3", s.FilesMined)
	}
	if s.SourcesPruned != 2 { // b.md deleted, c.md ignored
		t.Errorf("after changes: pruned %d, want 2", s.SourcesPruned)
	}
	got := drawersOf(t, st, "w")
	var names []string
	for n := range got {
		names = append(names, n)
	}
	sort.Strings(names)
	if strings.Join(names, ",") != ".gitignore,a.md,d.md" {
		t.Errorf("sources now %v", names)
	}
	// A touched file with the same content is not re-indexed.
	now := filepath.Join(root, "d.md")
	fi, _ := os.Stat(now)
	if err := os.Chtimes(now, fi.ModTime().Add(5e9), fi.ModTime().Add(5e9)); err != nil {
		t.Fatal(err)
	}
	s = mustRun()
	if s.FilesMined != 0 || s.DrawersAdded != 0 {
		t.Errorf("touch re-indexed: %+v", s)
	}
	s = mustRun()
	if s.FilesMined != 0 || s.FilesUnchanged != 3 {
		t.Errorf("after touch the next mine is not a pure no-op: %+v", s)
	}
	if err := st.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestCancelledMineResumesWithoutDuplicates(t *testing.T) {
	files := map[string]string{}
	for i := 0; i < 300; i++ {
		files[filepath.Join("d", strings.Repeat("x", i%7+1), "f"+string(rune('a'+i%26))+"_"+strconv.Itoa(i)+".txt")] = strings.Repeat("line of text number "+strconv.Itoa(i)+"\n", 40)
	}
	root := tree(t, files)
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	st := p.Store
	cctx, cancel := context.WithCancel(ctx)
	n := 0
	_, err := Run(cctx, p, root, Options{Wing: "w", Progress: func(done, total int) {
		if n++; n == 100 {
			cancel()
		}
	}})
	if !IsInterrupted(err) {
		t.Fatalf("want an interrupted error, got %v", err)
	}
	s, err := Run(ctx, p, root, Options{Wing: "w"})
	if err != nil {
		t.Fatal(err)
	}
	if s.SourcesPruned != 0 {
		t.Errorf("resume pruned %d sources", s.SourcesPruned)
	}
	freshP := palacetest.OpenPalace(t)
	fresh := freshP.Store
	if _, err := Run(ctx, freshP, root, Options{Wing: "w"}); err != nil {
		t.Fatal(err)
	}
	a, _ := st.Status(ctx)
	b, _ := fresh.Status(ctx)
	if a.Drawers != b.Drawers || a.Sources != b.Sources {
		t.Errorf("resumed palace has %d drawers/%d sources, a fresh one %d/%d", a.Drawers, a.Sources, b.Drawers, b.Sources)
	}
}

func TestConfig(t *testing.T) {
	root := tree(t, map[string]string{"api/h.go": "x", "db/q.go": "y", ".hidden/z": "z", "top.go": "t"})
	c, err := ProposeConfig(root)
	if err != nil {
		t.Fatal(err)
	}
	if c.Wing != Slug(filepath.Base(root)) || len(c.Rooms) != 2 || c.Rooms[0].Room != "api" || c.Rooms[1].Room != "db" {
		t.Fatalf("proposal %+v", c)
	}
	if _, err := WriteConfig(root, c, false); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteConfig(root, c, false); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("overwrite without force: %v", err)
	}
	got, err := LoadConfig(root)
	if err != nil || got.Wing != c.Wing || len(got.Rooms) != 2 || got.Rooms[1].Keywords[0] != "db" {
		t.Fatalf("load: %+v %v", got, err)
	}
	write(t, root, ConfigName, "wing: [unclosed\n")
	if _, err := LoadConfig(root); err == nil || !strings.Contains(err.Error(), ConfigName) {
		t.Errorf("malformed yaml: %v", err)
	}
	write(t, root, ConfigName, "wing: x\nwhat: 1\n")
	if _, err := LoadConfig(root); err == nil {
		t.Errorf("unknown field accepted")
	}
}

// `palace init --force` never writes through a palace.yaml that is a
// symbolic link (a repository could point it at any file of the user's).
func TestWriteConfigRefusesSymlink(t *testing.T) {
	root := tree(t, map[string]string{"a.go": "x"})
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("keep\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(root, ConfigName)); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteConfig(root, &Config{Wing: "w"}, true); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("WriteConfig through a symlink: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep\n" {
		t.Errorf("the link's target was written: %q", b)
	}
}
