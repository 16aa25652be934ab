//go:build unix

// Integration tests for the palace command line. TestMain builds the real
// binary once; every test runs it with os/exec against temporary trees, each
// with its own --home, and reads the JSON outputs.
package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/palace-dev/palace/cmd/internal/clitest"
	"github.com/palace-dev/palace/core/store"
)

var (
	box       *clitest.Sandbox // shared scratch: the binary, the child's HOME and fallback PALACE_HOME
	palaceBin string           // the binary under test
	sandbox   string           // box.Dir
)

// envHome is the PALACE_HOME every child sees; commands always get --home,
// so TestMain fails if anything ever created it.
func envHome() string { return box.EnvHome() }

func TestMain(m *testing.M) {
	var err error
	if box, err = clitest.New("palace-cli-test-", clitest.Build{Name: "palace", Pkg: "."}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	palaceBin, sandbox = box.Bin("palace"), box.Dir
	os.Exit(box.End(m.Run()))
}

// ---- running the binary ----

const nobody = 65534

// palaceCmd prepares the binary with a sandboxed environment; home "" leaves
// out --home.
func palaceCmd(ctx context.Context, home string, args ...string) *exec.Cmd {
	return box.Command(ctx, palaceBin, home, args...)
}

// runPalace runs palace with --home home (if not empty) and a 30s limit.
func runPalace(t *testing.T, home string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return box.Run30(t, palaceBin, home, args...)
}

// runAsNobody runs palace as uid/gid 65534 when the tests run as root, so
// permission bits apply; otherwise as the current user.
func runAsNobody(t *testing.T, home string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := palaceCmd(ctx, home, args...)
	cmd.Dir = sandbox
	if os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	}
	return clitest.Run(t, cmd)
}

// ---- JSON outputs ----

type skip struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
	Detail string `json:"detail"`
}

type mineSummary struct {
	Wing           string         `json:"wing"`
	Root           string         `json:"root"`
	FilesSeen      int            `json:"files_seen"`
	FilesMined     int            `json:"files_mined"`
	FilesUnchanged int            `json:"files_unchanged"`
	SkippedBy      map[string]int `json:"skipped_by_reason"`
	Skipped        []skip         `json:"skipped"`
	DrawersAdded   int            `json:"drawers_added"`
	DrawersRemoved int            `json:"drawers_removed"`
	SourcesPruned  int            `json:"sources_pruned"`
	Interrupted    bool           `json:"interrupted"`
	Errors         []skip         `json:"errors"`
}

type hit struct {
	ID        string     `json:"id"`
	Wing      string     `json:"wing"`
	Room      string     `json:"room"`
	Kind      string     `json:"kind"`
	Source    string     `json:"source"`
	LineStart int        `json:"line_start"`
	LineEnd   int        `json:"line_end"`
	Content   string     `json:"content"`
	Score     float64    `json:"score"`
	Match     string     `json:"match"`
	Citation  string     `json:"citation"`
	DeletedAt *time.Time `json:"deleted_at"` // drawer show only
	Time      *time.Time `json:"time"`
	Metadata  struct {
		Format   string   `json:"format"`
		Speakers []string `json:"speakers"`
		FirstMsg int      `json:"first_msg"`
		LastMsg  int      `json:"last_msg"`
	} `json:"metadata"`
}

type searchResult struct {
	Query  string `json:"query"`
	Hits   []hit  `json:"hits"`
	Notice string `json:"notice"`
}

type roomCount struct {
	Wing    string `json:"wing"`
	Room    string `json:"room"`
	Drawers int    `json:"drawers"`
}

type statusOut struct {
	Home          string      `json:"home"`
	Database      string      `json:"database"`
	SchemaVersion int         `json:"schema_version"`
	DBBytes       int64       `json:"db_bytes"`
	Drawers       int         `json:"drawers"`
	Deleted       int         `json:"deleted_drawers"`
	Sources       int         `json:"sources"`
	Rooms         []roomCount `json:"rooms"`
}

// mineOK mines dir with --json and expects exit 0.
func mineOK(t *testing.T, home, dir string, extra ...string) mineSummary {
	t.Helper()
	out, errOut, code := runPalace(t, home, append([]string{"mine", dir, "--json"}, extra...)...)
	if code != 0 {
		t.Fatalf("mine %s: exit %d, stderr %q", dir, code, errOut)
	}
	var s mineSummary
	clitest.Decode(t, "mine", out, &s)
	return s
}

// searchOK runs search ... --json and expects exit 0.
func searchOK(t *testing.T, home string, args ...string) searchResult {
	t.Helper()
	out, errOut, code := runPalace(t, home, append(append([]string{"search"}, args...), "--json")...)
	if code != 0 {
		t.Fatalf("search %v: exit %d, stderr %q", args, code, errOut)
	}
	var r searchResult
	clitest.Decode(t, "search", out, &r)
	return r
}

func statusOK(t *testing.T, home string) statusOut {
	t.Helper()
	out, errOut, code := runPalace(t, home, "status", "--json")
	if code != 0 {
		t.Fatalf("status: exit %d, stderr %q", code, errOut)
	}
	var s statusOut
	clitest.Decode(t, "status", out, &s)
	return s
}

func showDrawer(t *testing.T, home, id string) hit {
	t.Helper()
	out, errOut, code := runPalace(t, home, "drawer", "show", id, "--json")
	if code != 0 {
		t.Fatalf("drawer show %s: exit %d, stderr %q", id, code, errOut)
	}
	var d hit
	clitest.Decode(t, "drawer show", out, &d)
	return d
}

func sourcesOf(r searchResult) []string {
	var s []string
	for _, h := range r.Hits {
		s = append(s, h.Source)
	}
	sort.Strings(s)
	return s
}

// ---- trees ----

// rewrite replaces a file's content and moves its mtime forward so the change
// is seen even on filesystems with coarse timestamps.
func rewrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
}

// openTempDir is a t.TempDir other users can enter.
func openTempDir(t *testing.T) string {
	t.Helper()
	d := t.TempDir()
	for _, p := range []string{filepath.Dir(d), d} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// oneLine checks an error message: exactly one line, prefixed "palace:".
func oneLine(t *testing.T, stderr string) {
	t.Helper()
	if !strings.HasPrefix(stderr, "palace: ") || !strings.HasSuffix(stderr, "\n") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr should be one line starting with 'palace: ', got %q", stderr)
	}
}

// checkCitation reads the cited file and compares lines start..end with the
// drawer's content.
func checkCitation(t *testing.T, h hit) {
	t.Helper()
	b, err := os.ReadFile(h.Source)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if h.LineStart < 1 || h.LineEnd < h.LineStart || h.LineEnd > len(lines) {
		t.Fatalf("%s: bad line range %d-%d for a %d-line file", h.ID, h.LineStart, h.LineEnd, len(lines))
	}
	if got := strings.Join(lines[h.LineStart-1:h.LineEnd], ""); got != h.Content {
		t.Errorf("%s cites %s:%d-%d but the lines there are\n%q\nnot the content\n%q", h.ID, h.Source, h.LineStart, h.LineEnd, got, h.Content)
	}
	if want := fmt.Sprintf("%s:%d-%d", h.Source, h.LineStart, h.LineEnd); h.Citation != want {
		t.Errorf("citation %q, want %q", h.Citation, want)
	}
}

// ---- 1. mining a project ----

func TestMineHonoursIgnoreRules(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(t.TempDir(), "Widget Works")
	mined := map[string]string{
		"README.md":          "tokreadme project overview\n",
		"src/main.go":        "package main\n\n// tokmain entry point\nfunc main() {}\n",
		"src/util/helper.go": "package util\n\n// tokhelper does things\n",
		"docs/guide.md":      "# Guide\n\ntokguide explains\n",
		".gitignore":         "*.log\nbuild/\n",
		"sub/.gitignore":     "*.tmp\n!keep.tmp\n",
		"sub/keep.tmp":       "tokkeeptmp survives the nested negation\n",
		"logs/.gitignore":    "!important.log\n",
		"logs/important.log": "tokimportant survives the root pattern\n",
	}
	ignored := map[string]string{
		"secret.md":             "toksecret\n",
		"excluded.md":           "tokexcluded\n",
		"sub/a.tmp":             "tokatmp\n",
		"logs/debug.log":        "tokdebuglog\n",
		"build/out.go":          "tokbuild\n",
		"node_modules/x/pkg.js": "toknodemodules\n",
		".git/info/exclude":     "excluded.md\n",
		".git/HEAD":             "tokgithead\n",
	}
	// Read by the mine, never mined.
	config := map[string]string{".palaceignore": "secret.md\n"}
	clitest.WriteTree(t, proj, mined)
	clitest.WriteTree(t, proj, ignored)
	clitest.WriteTree(t, proj, config)

	s := mineOK(t, home, proj)
	if s.Wing != "widget-works" {
		t.Errorf("wing %q, want the folder name's slug widget-works", s.Wing)
	}
	if s.Root != proj {
		t.Errorf("root %q, want %q", s.Root, proj)
	}
	if s.FilesSeen != len(mined) || s.FilesMined != len(mined) {
		t.Errorf("files_seen %d, files_mined %d, want %d each", s.FilesSeen, s.FilesMined, len(mined))
	}
	// Ignored: secret.md, excluded.md, sub/a.tmp, logs/debug.log, build/,
	// node_modules/, .git/. Metadata: .palaceignore.
	if want := map[string]int{"ignored": 7, "metadata": 1}; fmt.Sprint(s.SkippedBy) != fmt.Sprint(want) {
		t.Errorf("skipped_by_reason %v, want %v", s.SkippedBy, want)
	}
	if len(s.Skipped) != 1 || s.Skipped[0].Path != filepath.Join(proj, ".palaceignore") {
		t.Errorf("ignored entries should not be listed in skipped, .palaceignore should: %v", s.Skipped)
	}
	if s.DrawersAdded != len(mined) { // every file is one small chunk
		t.Errorf("drawers_added %d, want %d", s.DrawersAdded, len(mined))
	}
	for rel, content := range mined {
		if !strings.Contains(content, "tok") {
			continue
		}
		tok := strings.Fields(content[strings.Index(content, "tok"):])[0]
		r := searchOK(t, home, tok)
		want := filepath.Join(proj, filepath.FromSlash(rel))
		if len(r.Hits) != 1 || r.Hits[0].Source != want || r.Hits[0].Wing != "widget-works" {
			t.Errorf("search %s: sources %v, want exactly %s in wing widget-works", tok, sourcesOf(r), want)
		}
	}
	for rel, content := range ignored {
		if !strings.HasPrefix(content, "tok") {
			continue
		}
		tok := strings.TrimSpace(content)
		if r := searchOK(t, home, tok); len(r.Hits) != 0 {
			t.Errorf("%s is ignored but search %s found %v", rel, tok, sourcesOf(r))
		}
	}
	if st := statusOK(t, home); st.Sources != len(mined) || st.Drawers != len(mined) {
		t.Errorf("status: %d sources, %d drawers, want %d each", st.Sources, st.Drawers, len(mined))
	}

	// --wing overrides the folder name.
	home2 := t.TempDir()
	if s := mineOK(t, home2, proj, "--wing", "custom"); s.Wing != "custom" {
		t.Errorf("--wing custom: wing %q", s.Wing)
	}
	if r := searchOK(t, home2, "tokmain", "--wing", "custom"); len(r.Hits) != 1 {
		t.Errorf("search --wing custom after mine --wing custom: %d hits, want 1", len(r.Hits))
	}
	if _, errOut, code := runPalace(t, home2, "search", "tokmain", "--wing", "widget-works"); code != 2 || !strings.Contains(errOut, "no such wing (wings: custom)") {
		t.Errorf("wing widget-works should not exist after --wing custom: exit %d, %q", code, errOut)
	}
}

func TestMineWingFromPalaceYAML(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "folder-name")
	clitest.WriteTree(t, proj, map[string]string{
		"palace.yaml": "wing: yamlwing\n",
		"a.md":        "tokyaml text\n",
	})
	home := t.TempDir()
	if s := mineOK(t, home, proj); s.Wing != "yamlwing" {
		t.Errorf("wing %q, want palace.yaml's yamlwing", s.Wing)
	}
	if r := searchOK(t, home, "tokyaml"); len(r.Hits) != 1 || r.Hits[0].Wing != "yamlwing" {
		t.Errorf("search tokyaml: %+v, want one hit in wing yamlwing", r.Hits)
	}
	if s := mineOK(t, t.TempDir(), proj, "--wing", "flagwing"); s.Wing != "flagwing" {
		t.Errorf("--wing should beat palace.yaml: wing %q", s.Wing)
	}
}

// A relative DIR is resolved against the working directory.
func TestMineRelativeDir(t *testing.T) {
	parent := t.TempDir()
	clitest.WriteTree(t, parent, map[string]string{"relproj/a.md": "tokrelative\n"})
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := palaceCmd(ctx, home, "mine", "relproj", "--json")
	cmd.Dir = parent
	out, errOut, code := clitest.Run(t, cmd)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s mineSummary
	clitest.Decode(t, "mine", out, &s)
	if s.Root != filepath.Join(parent, "relproj") || s.Wing != "relproj" || s.FilesMined != 1 {
		t.Errorf("got root %q wing %q mined %d", s.Root, s.Wing, s.FilesMined)
	}
}

// ---- 2. search ----

func TestSearchJSONShapeAndCitations(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "cite")
	var long strings.Builder
	for i := 1; i <= 120; i++ {
		if i%10 == 0 {
			long.WriteString("\n")
			continue
		}
		fmt.Fprintf(&long, "line %d of the citeword file, item%d\n", i, i)
	}
	clitest.WriteTree(t, proj, map[string]string{
		"notes/long.md": long.String(),
		"short.md":      "first line\r\nsecond citeword line\r\n\tthird  line  \n",
	})
	home := t.TempDir()
	mineOK(t, home, proj)

	out, errOut, code := runPalace(t, home, "search", "citeword", "--json", "--limit", "100")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var raw map[string]any
	clitest.Decode(t, "search", out, &raw)
	if raw["query"] != "citeword" {
		t.Errorf("query %v, want citeword", raw["query"])
	}
	hits, _ := raw["hits"].([]any)
	if len(hits) == 0 {
		t.Fatalf("no hits: %s", out)
	}
	for _, h := range hits {
		m, _ := h.(map[string]any)
		for _, k := range []string{"id", "wing", "room", "kind", "source", "line_start", "line_end", "content", "score"} {
			if _, ok := m[k]; !ok {
				t.Errorf("hit lacks %q: %v", k, m)
			}
		}
	}

	var r searchResult
	clitest.Decode(t, "search", out, &r)
	perSource := map[string]int{}
	ids := map[string]bool{}
	for _, h := range r.Hits {
		perSource[filepath.Base(h.Source)]++
		if ids[h.ID] || !strings.HasPrefix(h.ID, "d_") {
			t.Errorf("bad or repeated id %q", h.ID)
		}
		ids[h.ID] = true
		if h.Kind != "file" || h.Wing != "cite" || h.Score <= 0 {
			t.Errorf("hit %s: kind %q wing %q score %v", h.ID, h.Kind, h.Wing, h.Score)
		}
		checkCitation(t, h)
	}
	if perSource["long.md"] < 2 || perSource["short.md"] != 1 {
		t.Errorf("hits per file %v: want long.md split in several drawers and short.md in one", perSource)
	}

	// Punctuation alone searches nothing, but the shape holds.
	r = searchOK(t, home, "!!!")
	if r.Hits == nil || len(r.Hits) != 0 || r.Notice == "" {
		t.Errorf("search !!!: hits %v notice %q, want [] and a notice", r.Hits, r.Notice)
	}
}

func TestSearchFilters(t *testing.T) {
	home := t.TempDir()
	alpha := filepath.Join(t.TempDir(), "alpha")
	beta := filepath.Join(t.TempDir(), "beta")
	clitest.WriteTree(t, alpha, map[string]string{
		"api/one.go":   "package api // filterword one\n",
		"api/two.go":   "package api // filterword two\n",
		"web/three.js": "// filterword three\n",
		"web/four.js":  "// filterword four\n",
	})
	clitest.WriteTree(t, beta, map[string]string{
		"api/five.go": "package api // filterword five\n",
	})
	mineOK(t, home, alpha)
	mineOK(t, home, beta)

	if r := searchOK(t, home, "filterword", "--limit", "50"); len(r.Hits) != 5 {
		t.Fatalf("unfiltered: %d hits, want 5", len(r.Hits))
	}
	cases := []struct {
		args []string
		n    int
		ok   func(hit) bool
	}{
		{[]string{"--wing", "alpha"}, 4, func(h hit) bool { return h.Wing == "alpha" }},
		{[]string{"--wing", "beta"}, 1, func(h hit) bool { return h.Wing == "beta" }},
		{[]string{"--room", "api"}, 3, func(h hit) bool { return h.Room == "api" }},
		{[]string{"--wing", "alpha", "--room", "web"}, 2, func(h hit) bool { return h.Wing == "alpha" && h.Room == "web" }},
		{[]string{"--kind", "file"}, 5, func(h hit) bool { return h.Kind == "file" }},
		{[]string{"--kind", "note"}, 0, nil},
		{[]string{"--source", filepath.Join(alpha, "api") + "/"}, 2, func(h hit) bool { return strings.HasPrefix(h.Source, filepath.Join(alpha, "api")+"/") }},
		{[]string{"--limit", "2"}, 2, nil},
	}
	for _, c := range cases {
		r := searchOK(t, home, append([]string{"filterword"}, c.args...)...)
		if len(r.Hits) != c.n {
			t.Errorf("search %v: %d hits, want %d", c.args, len(r.Hits), c.n)
		}
		for _, h := range r.Hits {
			if c.ok != nil && !c.ok(h) {
				t.Errorf("search %v returned %s (%s/%s, %s)", c.args, h.Source, h.Wing, h.Room, h.Kind)
			}
		}
	}
}

func TestSearchAllWordsRankFirst(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "rank")
	clitest.WriteTree(t, proj, map[string]string{
		"one.md":   "the quasar quasar quasar quasar quasar shines\n",
		"both.md":  "a long note that mentions a quasar once, somewhere in the middle of plenty of other text about telescopes and the sky, and also a nebula\n",
		"other.md": "nebulous unrelated words\n",
	})
	home := t.TempDir()
	mineOK(t, home, proj)
	r := searchOK(t, home, "quasar", "nebula")
	if r.Query != "quasar nebula" {
		t.Errorf("query %q, want the arguments joined", r.Query)
	}
	if len(r.Hits) != 2 {
		t.Fatalf("hits %v, want both.md and one.md", sourcesOf(r))
	}
	if filepath.Base(r.Hits[0].Source) != "both.md" || r.Hits[0].Match != "all" {
		t.Errorf("first hit %s (match %q), want both.md holding both words", r.Hits[0].Source, r.Hits[0].Match)
	}
	if filepath.Base(r.Hits[1].Source) != "one.md" || r.Hits[1].Match != "any" {
		t.Errorf("second hit %s (match %q), want one.md holding one word", r.Hits[1].Source, r.Hits[1].Match)
	}
}

// ---- 3. incremental mining ----

func TestIncrementalMine(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "incr")
	clitest.WriteTree(t, proj, map[string]string{
		"a.md":       "tokoldalpha original text\n",
		"b.md":       "tokbravo text\n",
		"c.md":       "tokcharlie text\n",
		".gitignore": "*.bak\n",
		"dup1.md":    "identical twin paragraph tokdup\n",
		"dup2.md":    "identical twin paragraph tokdup\n",
	})
	home := t.TempDir()
	first := mineOK(t, home, proj)
	if first.FilesMined != 6 || first.DrawersAdded != 6 {
		t.Fatalf("first mine: %d files, %d drawers, want 6 and 6", first.FilesMined, first.DrawersAdded)
	}

	// Identical text in two files is two drawers; a search shows the
	// content once.
	one, two := searchOK(t, home, "tokdup", "--source", filepath.Join(proj, "dup1.md")), searchOK(t, home, "tokdup", "--source", filepath.Join(proj, "dup2.md"))
	if len(one.Hits) != 1 || len(two.Hits) != 1 || one.Hits[0].ID == two.Hits[0].ID {
		t.Errorf("identical text in two files: hits %+v and %+v, want two drawers with distinct ids", one.Hits, two.Hits)
	}
	if r := searchOK(t, home, "tokdup"); len(r.Hits) != 1 {
		t.Errorf("identical text in two files: %d hits, want the content once", len(r.Hits))
	}

	again := mineOK(t, home, proj)
	if again.FilesMined != 0 || again.DrawersAdded != 0 || again.DrawersRemoved != 0 || again.SourcesPruned != 0 || again.FilesUnchanged != 6 {
		t.Errorf("second mine should be a no-op: %+v", again)
	}

	rewrite(t, filepath.Join(proj, "a.md"), "toknewalpha replaced text\n")
	s := mineOK(t, home, proj)
	if s.FilesMined != 1 || s.DrawersAdded != 1 || s.DrawersRemoved != 1 || s.SourcesPruned != 0 {
		t.Errorf("after changing a.md: %+v, want 1 file mined, 1 drawer added and 1 removed", s)
	}
	if r := searchOK(t, home, "tokoldalpha"); len(r.Hits) != 0 {
		t.Errorf("old content of a.md still found: %v", sourcesOf(r))
	}
	if r := searchOK(t, home, "toknewalpha"); len(r.Hits) != 1 {
		t.Errorf("new content of a.md: %d hits, want 1", len(r.Hits))
	}

	if err := os.Remove(filepath.Join(proj, "b.md")); err != nil {
		t.Fatal(err)
	}
	s = mineOK(t, home, proj)
	if s.SourcesPruned != 1 || s.DrawersRemoved != 1 || s.FilesMined != 0 {
		t.Errorf("after deleting b.md: %+v, want 1 source pruned, 1 drawer removed", s)
	}
	if r := searchOK(t, home, "tokbravo"); len(r.Hits) != 0 {
		t.Errorf("deleted b.md still found: %v", sourcesOf(r))
	}

	rewrite(t, filepath.Join(proj, ".gitignore"), "*.bak\nc.md\n")
	s = mineOK(t, home, proj)
	if s.SourcesPruned != 1 || s.FilesMined != 1 || s.SkippedBy["ignored"] != 1 {
		t.Errorf("after ignoring c.md: %+v, want c.md pruned and .gitignore re-mined", s)
	}
	if r := searchOK(t, home, "tokcharlie"); len(r.Hits) != 0 {
		t.Errorf("newly ignored c.md still found: %v", sourcesOf(r))
	}
	if st := statusOK(t, home); st.Sources != 4 || st.Drawers != 4 {
		t.Errorf("status: %d sources, %d drawers, want 4 each (a, .gitignore, dup1, dup2)", st.Sources, st.Drawers)
	}
}

// A file whose content is unchanged but whose mtime moved is not re-chunked.
func TestTouchedFileIsNotRemined(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "touch")
	clitest.WriteTree(t, proj, map[string]string{"a.md": "toktouch\n"})
	home := t.TempDir()
	mineOK(t, home, proj)
	id := searchOK(t, home, "toktouch").Hits[0].ID
	rewrite(t, filepath.Join(proj, "a.md"), "toktouch\n")
	s := mineOK(t, home, proj)
	if s.FilesMined != 0 || s.DrawersAdded != 0 || s.DrawersRemoved != 0 || s.FilesUnchanged != 1 {
		t.Errorf("touched file: %+v, want it counted unchanged", s)
	}
	if r := searchOK(t, home, "toktouch"); len(r.Hits) != 1 || r.Hits[0].ID != id {
		t.Errorf("touched file's drawer changed: %+v", r.Hits)
	}
}

// ---- 4. drawer show / rm ----

func TestDrawerShowAndRm(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "drawers")
	content := "héllo\ttokverbatim  \r\nsecond line with trailing space \nno newline at end"
	clitest.WriteTree(t, proj, map[string]string{"v.md": content, "other.md": "tokverbatim elsewhere\n"})
	home := t.TempDir()
	mineOK(t, home, proj)

	r := searchOK(t, home, "tokverbatim", "--source", filepath.Join(proj, "v.md"))
	if len(r.Hits) != 1 {
		t.Fatalf("want one hit in v.md, got %v", sourcesOf(r))
	}
	id := r.Hits[0].ID
	d := showDrawer(t, home, id)
	if d.ID != id || d.Content != content || d.LineStart != 1 || d.LineEnd != 3 || d.DeletedAt != nil {
		t.Errorf("drawer show: %+v, want content %q verbatim at lines 1-3, not deleted", d, content)
	}

	out, errOut, code := runPalace(t, home, "drawer", "rm", id)
	if code != 0 || !strings.Contains(out, id) {
		t.Fatalf("drawer rm: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	r = searchOK(t, home, "tokverbatim")
	if len(r.Hits) != 1 || r.Hits[0].ID == id {
		t.Errorf("after rm search still returns the drawer or lost the other: %+v", r.Hits)
	}
	d = showDrawer(t, home, id)
	if d.DeletedAt == nil || d.Content != content {
		t.Errorf("drawer show after rm: deleted_at %v content %q, want a deletion time and the content", d.DeletedAt, d.Content)
	}
	if st := statusOK(t, home); st.Drawers != 1 || st.Deleted != 1 {
		t.Errorf("status after rm: %d live, %d deleted, want 1 and 1", st.Drawers, st.Deleted)
	}
	// An unchanged re-mine does not bring it back.
	mineOK(t, home, proj)
	if r := searchOK(t, home, "tokverbatim"); len(r.Hits) != 1 || r.Hits[0].ID == id {
		t.Errorf("re-mine resurrected the deleted drawer: %+v", r.Hits)
	}

	// Forgetting a forgotten drawer is an answer, as on every front.
	out, errOut, code = runPalace(t, home, "drawer", "rm", id)
	if code != 0 || errOut != "" || !strings.HasPrefix(out, id+" was already forgotten at ") {
		t.Errorf("second rm: exit %d, stdout %q, stderr %q; want 0 and %s was already forgotten", code, out, errOut, id)
	}

	const unknown = "d_000000000000000000000000"
	for _, sub := range []string{"rm", "show", "purge", "unpurge"} {
		out, errOut, code = runPalace(t, home, "drawer", sub, unknown)
		if code != 1 || out != "" || !strings.Contains(errOut, unknown) {
			t.Errorf("drawer %s of an unknown id: exit %d, stdout %q, stderr %q", sub, code, out, errOut)
		}
		oneLine(t, errOut)
	}
}

// ---- 5. exit codes ----

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		want string // in stderr
	}{
		{"unknown command", []string{"bogus"}, "bogus"},
		{"unknown subcommand", []string{"drawer", "bogus"}, "bogus"},
		{"unknown flag", []string{"mine", "--bogus", dir}, "--bogus"},
		{"unknown global flag", []string{"--bogus", "status"}, "--bogus"},
		{"mine without dir", []string{"mine"}, "mine"},
		{"mine two dirs", []string{"mine", dir, dir}, "mine"},
		{"search without query", []string{"search"}, "search"},
		{"drawer show without id", []string{"drawer", "show"}, "show"},
		{"drawer rm without id", []string{"drawer", "rm"}, "rm"},
		{"drawer purge without id", []string{"drawer", "purge"}, "purge"},
		{"drawer purge blank id", []string{"drawer", "purge", " "}, "id is empty"},
		{"init without dir", []string{"init"}, "init"},
		{"status with an argument", []string{"status", "extra"}, "extra"},
		{"bogus kind", []string{"search", "x", "--kind", "bogus"}, "bogus"},
		{"zero limit", []string{"search", "x", "--limit", "0"}, "--limit"},
		{"negative limit", []string{"search", "x", "--limit", "-3"}, "--limit"},
		{"limit not a number", []string{"search", "x", "--limit", "ten"}, "ten"},
		{"max-size not a number", []string{"mine", dir, "--max-size", "big"}, "big"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home := filepath.Join(t.TempDir(), "home")
			out, errOut, code := runPalace(t, home, c.args...)
			if code != 2 {
				t.Errorf("palace %v: exit %d, want 2 (stderr %q)", c.args, code, errOut)
			}
			if out != "" {
				t.Errorf("palace %v: stdout should be empty, got %q", c.args, out)
			}
			oneLine(t, errOut)
			if !strings.Contains(errOut, c.want) {
				t.Errorf("palace %v: stderr %q does not mention %q", c.args, errOut, c.want)
			}
			if _, err := os.Stat(home); err == nil {
				t.Errorf("palace %v: a usage error created the palace home", c.args)
			}
		})
	}
}

func TestMineBadDirArgument(t *testing.T) {
	home := t.TempDir()
	missing := filepath.Join(t.TempDir(), "no-such-dir")
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	// A path that names no file or folder is a mistake in the call, as
	// for palace_mine over MCP: exit 2.
	for _, dir := range []string{missing, fifo} {
		out, errOut, code := runPalace(t, home, "mine", dir, "--json")
		if code != 2 || out != "" || !strings.Contains(errOut, dir) {
			t.Errorf("mine %s: exit %d, stdout %q, stderr %q; want 2, nothing, the path named", dir, code, out, errOut)
		}
		oneLine(t, errOut)
	}
}

// A single file is mined on its own (an export, a transcript).
func TestMineSingleFile(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(t.TempDir(), "plain.txt")
	clitest.WriteTree(t, filepath.Dir(file), map[string]string{"plain.txt": "lonely quokka text\n", "other.txt": "not mined\n"})
	s := mineOK(t, home, file)
	if s.FilesSeen != 1 || s.FilesMined != 1 {
		t.Errorf("single file: %+v", s)
	}
	if r := searchOK(t, home, "quokka"); len(r.Hits) != 1 {
		t.Errorf("single file not searchable")
	}
	if r := searchOK(t, home, "mined"); len(r.Hits) != 0 {
		t.Errorf("its neighbour was mined too")
	}
	if again := mineOK(t, home, file); again.FilesMined != 0 || again.SourcesPruned != 0 {
		t.Errorf("re-mining one file: %+v", again)
	}
}

// ---- 6. bad input ----

func TestMineBadInputIsReported(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "bad")
	utf16 := []byte{0xFF, 0xFE}
	for _, r := range "utf sixteen tokzebrafish\nsecond line\n" {
		utf16 = append(utf16, byte(r), byte(r>>8))
	}
	clitest.WriteTree(t, proj, map[string]string{
		"ok.md":        "tokplain normal text\n",
		"bin.dat":      "tokbinary\x00\x01\x02 more",
		"latin1.txt":   "caf\xe9 toklatin\n",
		"utf16.txt":    string(utf16),
		"bom.md":       "\xEF\xBB\xBFtokbom first line\nsecond\n",
		"sub/deep.txt": "tokdeep\n",
	})
	big, err := os.Create(filepath.Join(proj, "big.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := big.Truncate(50 << 20); err != nil {
		t.Fatal(err)
	}
	big.Close()
	if err := os.Symlink("..", filepath.Join(proj, "sub", "loop")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(proj, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()

	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	out, errOut, code := clitest.Run(t, palaceCmd(ctx, home, "mine", proj, "--json"))
	if ctx.Err() != nil {
		t.Fatal("mine hung on a FIFO or a symlink loop")
	}
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s mineSummary
	clitest.Decode(t, "mine", out, &s)
	want := map[string]int{"binary": 1, "invalid_utf8": 1, "too_large": 1, "symlink": 1, "not_regular": 1}
	if fmt.Sprint(s.SkippedBy) != fmt.Sprint(want) {
		t.Errorf("skipped_by_reason %v, want %v", s.SkippedBy, want)
	}
	listed := map[string]string{}
	for _, k := range s.Skipped {
		listed[k.Path] = k.Reason
	}
	for rel, reason := range map[string]string{
		"bin.dat": "binary", "latin1.txt": "invalid_utf8", "big.txt": "too_large",
		"sub/loop": "symlink", "fifo": "not_regular",
	} {
		if p := filepath.Join(proj, filepath.FromSlash(rel)); listed[p] != reason {
			t.Errorf("skipped lists %s as %q, want %q", p, listed[p], reason)
		}
	}
	// ok, utf16, bom, deep: mined; the rest seen and skipped.
	if s.FilesMined != 4 || s.DrawersAdded != 4 {
		t.Errorf("files_mined %d drawers_added %d, want 4 and 4", s.FilesMined, s.DrawersAdded)
	}
	for _, tok := range []string{"tokbinary", "toklatin"} {
		if r := searchOK(t, home, tok); len(r.Hits) != 0 {
			t.Errorf("%s from a skipped file is searchable: %v", tok, sourcesOf(r))
		}
	}
	r := searchOK(t, home, "tokzebrafish")
	if len(r.Hits) != 1 || r.Hits[0].Content != "utf sixteen tokzebrafish\nsecond line\n" || r.Hits[0].LineEnd != 2 {
		t.Errorf("UTF-16 file: %+v, want its decoded text", r.Hits)
	}
	r = searchOK(t, home, "tokbom")
	if len(r.Hits) != 1 || r.Hits[0].Content != "tokbom first line\nsecond\n" {
		t.Errorf("UTF-8 BOM file: %+v, want the text without its BOM", r.Hits)
	}
	if r := searchOK(t, home, "tokdeep"); len(r.Hits) != 1 {
		t.Errorf("sub/deep.txt beside the symlink loop: %d hits, want 1", len(r.Hits))
	}
}

func TestMineMaxSize(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "maxsize")
	clitest.WriteTree(t, proj, map[string]string{
		"small.md": "toksmall\n",
		"large.md": strings.Repeat("toklarge words\n", 200),
	})
	home := t.TempDir()
	s := mineOK(t, home, proj, "--max-size", "1000")
	if s.SkippedBy["too_large"] != 1 || s.FilesMined != 1 || len(s.Skipped) != 1 || s.Skipped[0].Path != filepath.Join(proj, "large.md") {
		t.Errorf("--max-size 1000: %+v, want large.md skipped as too_large", s)
	}
	// Raising the limit mines it.
	if s := mineOK(t, home, proj); s.FilesMined != 1 || s.SkippedBy["too_large"] != 0 {
		t.Errorf("default max size: %+v, want large.md mined now", s)
	}
}

func TestMineEmptyDir(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "empty")
	if err := os.Mkdir(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	s := mineOK(t, t.TempDir(), proj)
	if s.FilesSeen != 0 || s.FilesMined != 0 || s.DrawersAdded != 0 || len(s.SkippedBy) != 0 {
		t.Errorf("empty dir: %+v", s)
	}
}

func TestMineUnreadableFile(t *testing.T) {
	root := openTempDir(t)
	proj := filepath.Join(root, "unreadable")
	clitest.WriteTree(t, proj, map[string]string{"a.md": "tokreadable\n", "b.md": "tokhidden\n"})
	locked := filepath.Join(proj, "b.md")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o644) })
	home := filepath.Join(root, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		if err := os.Chown(home, nobody, nobody); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := runAsNobody(t, home, "mine", proj, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s mineSummary
	clitest.Decode(t, "mine", out, &s)
	if s.SkippedBy["unreadable"] != 1 || s.FilesMined != 1 || len(s.Skipped) != 1 || s.Skipped[0].Path != locked || s.Skipped[0].Reason != "unreadable" {
		t.Errorf("summary %+v, want b.md skipped as unreadable and a.md mined", s)
	}
	if out, _, code := runAsNobody(t, home, "search", "tokreadable", "--json"); code != 0 || !strings.Contains(out, filepath.Join(proj, "a.md")) {
		t.Errorf("a.md not searchable after the mine: exit %d, %s", code, out)
	}
}

func TestHomeNotWritable(t *testing.T) {
	root := openTempDir(t)
	proj := filepath.Join(root, "proj")
	clitest.WriteTree(t, proj, map[string]string{"a.md": "tokro\n"})
	ro := filepath.Join(root, "ro-home")
	if err := os.Mkdir(ro, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(ro, 0o755) })
	for _, home := range []string{ro, filepath.Join(ro, "sub")} {
		out, errOut, code := runAsNobody(t, home, "mine", proj, "--json")
		if code != 1 || out != "" || !strings.Contains(errOut, home) {
			t.Errorf("home %s: exit %d, stdout %q, stderr %q; want 1, nothing, the path named", home, code, out, errOut)
		}
		oneLine(t, errOut)
		if ents, err := os.ReadDir(ro); err != nil || len(ents) != 0 {
			t.Errorf("home %s: left files behind: %v %v", home, ents, err)
		}
	}
}

func TestHomeUnderAFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "not-a-dir")
	clitest.WriteTree(t, filepath.Dir(file), map[string]string{"not-a-dir": "x"})
	out, errOut, code := runPalace(t, filepath.Join(file, "home"), "status", "--json")
	if code != 1 || out != "" || !strings.Contains(errOut, file) {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1, nothing, %s named", code, out, errOut, file)
	}
	oneLine(t, errOut)
}

// Without --home, PALACE_HOME names the palace.
func TestPalaceHomeEnv(t *testing.T) {
	home := filepath.Join(t.TempDir(), "env-home")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// A write creates the palace there; status, a read, never would.
	create := palaceCmd(ctx, "", "remember", "tokenvhome", "--wing", "env")
	create.Env = append(create.Env, "PALACE_HOME="+home)
	if _, errOut, code := clitest.Run(t, create); code != 0 {
		t.Fatalf("remember: exit %d: %s", code, errOut)
	}
	cmd := palaceCmd(ctx, "", "status", "--json")
	cmd.Env = append(cmd.Env, "PALACE_HOME="+home) // the last value wins
	out, errOut, code := clitest.Run(t, cmd)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var s statusOut
	clitest.Decode(t, "status", out, &s)
	if s.Database != filepath.Join(home, "palace.db") {
		t.Errorf("database %q, want it under PALACE_HOME %s", s.Database, home)
	}
}

// ---- 7. init ----

type yamlConfig struct {
	Wing  string `yaml:"wing"`
	Rooms []struct {
		Name     string   `yaml:"name"`
		Keywords []string `yaml:"keywords"`
	} `yaml:"rooms"`
}

func TestInit(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "Shop Front")
	clitest.WriteTree(t, proj, map[string]string{
		"api/handler.go":        "package api // tokhandler\n",
		"web/app.js":            "// tokapp\n",
		"top.md":                "top level\n",
		".hidden/x.md":          "hidden\n",
		"node_modules/m/i.js":   "dep\n",
		"ignored/skip.md":       "skip\n",
		".gitignore":            "ignored/\n",
		"web/components/btn.js": "// button\n",
	})
	out, errOut, code := runPalace(t, "", "init", proj)
	if code != 0 || !strings.Contains(out, "shop-front") {
		t.Fatalf("init: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	cfgPath := filepath.Join(proj, "palace.yaml")
	b, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	var cfg yamlConfig
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatalf("palace.yaml: %v\n%s", err, b)
	}
	var rooms []string
	for _, r := range cfg.Rooms {
		rooms = append(rooms, r.Name+":"+strings.Join(r.Keywords, ","))
	}
	if cfg.Wing != "shop-front" || strings.Join(rooms, " ") != "api:api web:web" {
		t.Errorf("palace.yaml wing %q rooms %v, want shop-front and api, web\n%s", cfg.Wing, rooms, b)
	}

	out, errOut, code = runPalace(t, "", "init", proj)
	if code != 1 || out != "" || !strings.Contains(errOut, "already exists") || !strings.Contains(errOut, cfgPath) {
		t.Errorf("second init: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	oneLine(t, errOut)
	if b2, _ := os.ReadFile(cfgPath); !bytes.Equal(b, b2) {
		t.Errorf("refused init changed palace.yaml")
	}
	if _, errOut, code = runPalace(t, "", "init", proj, "--force"); code != 0 {
		t.Errorf("init --force: exit %d, %s", code, errOut)
	}

	home := t.TempDir()
	if s := mineOK(t, home, proj); s.Wing != "shop-front" {
		t.Errorf("mine after init: wing %q", s.Wing)
	}
	if r := searchOK(t, home, "tokhandler"); len(r.Hits) != 1 || r.Hits[0].Room != "api" || r.Hits[0].Wing != "shop-front" {
		t.Errorf("api/handler.go: %+v, want room api of wing shop-front", r.Hits)
	}

	// The file's rooms are what routes: rename the room and api/ follows it.
	clitest.WriteTree(t, proj, map[string]string{"palace.yaml": "wing: shop-front\nrooms:\n  - name: backend\n    keywords: [api]\n"})
	home2 := t.TempDir()
	mineOK(t, home2, proj)
	if r := searchOK(t, home2, "tokhandler"); len(r.Hits) != 1 || r.Hits[0].Room != "backend" {
		t.Errorf("with room backend keyed by api: %+v, want room backend", r.Hits)
	}

	for _, bad := range []string{"wing: [unclosed\n", "wing: x\nrooms: 5\n"} {
		clitest.WriteTree(t, proj, map[string]string{"palace.yaml": bad})
		out, errOut, code = runPalace(t, t.TempDir(), "mine", proj, "--json")
		if code != 1 || out != "" || !strings.Contains(errOut, cfgPath) {
			t.Errorf("malformed palace.yaml %q: exit %d, stdout %q, stderr %q", bad, code, out, errOut)
		}
	}
}

func TestInitDryRunAndMissingDir(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "dry")
	clitest.WriteTree(t, proj, map[string]string{"lib/a.go": "package lib\n"})
	out, errOut, code := runPalace(t, "", "init", proj, "--dry-run")
	if code != 0 || !strings.Contains(out, "wing: dry") || !strings.Contains(out, "name: lib") {
		t.Errorf("init --dry-run: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(proj, "palace.yaml")); err == nil {
		t.Errorf("--dry-run wrote palace.yaml")
	}
	missing := filepath.Join(t.TempDir(), "missing")
	out, errOut, code = runPalace(t, "", "init", missing)
	if code != 1 || out != "" || !strings.Contains(errOut, missing) {
		t.Errorf("init of a missing dir: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// ---- 8. status ----

func TestStatusJSON(t *testing.T) {
	home := newPalace(t)
	if st := statusOK(t, home); st.Drawers != 0 || st.Sources != 0 || st.Rooms == nil || st.SchemaVersion != store.SchemaVersion() {
		t.Errorf("fresh palace: %+v", st)
	}
	one := filepath.Join(t.TempDir(), "one")
	two := filepath.Join(t.TempDir(), "two")
	clitest.WriteTree(t, one, map[string]string{
		"api/a.go": "package api\n", "api/b.go": "package api\n", "web/c.js": "c\n", "d.md": "d\n",
	})
	clitest.WriteTree(t, two, map[string]string{"lib/e.go": "package lib\n"})
	mineOK(t, home, one)
	mineOK(t, home, two)
	st := statusOK(t, home)
	want := []roomCount{{"one", "api", 2}, {"one", "general", 1}, {"one", "web", 1}, {"two", "lib", 1}}
	if fmt.Sprint(st.Rooms) != fmt.Sprint(want) {
		t.Errorf("rooms %v, want %v", st.Rooms, want)
	}
	if st.Drawers != 5 || st.Sources != 5 || st.Deleted != 0 {
		t.Errorf("drawers %d sources %d deleted %d, want 5, 5, 0", st.Drawers, st.Sources, st.Deleted)
	}
	if st.SchemaVersion != store.SchemaVersion() || st.DBBytes <= 0 {
		t.Errorf("schema_version %d db_bytes %d", st.SchemaVersion, st.DBBytes)
	}
	if st.Home != home || st.Database != filepath.Join(home, "palace.db") {
		t.Errorf("home %q database %q", st.Home, st.Database)
	}
}

// ---- 9. version ----

func TestVersion(t *testing.T) {
	out, errOut, code := runPalace(t, t.TempDir(), "--version")
	if code != 0 || errOut != "" {
		t.Fatalf("--version: exit %d, stderr %q", code, errOut)
	}
	v := strings.TrimSpace(strings.TrimPrefix(out, "palace version"))
	if !strings.HasPrefix(out, "palace version ") || v == "" || strings.Contains(v, "\n") {
		t.Errorf("--version printed %q", out)
	}
}

// ---- 10. interrupt ----

func TestInterruptedMineResumes(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "big")
	words := strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau")
	var sb strings.Builder
	for i := 0; i < 3000; i++ {
		sb.Reset()
		for l := 0; l < 40; l++ {
			for w := 0; w < 10; w++ {
				sb.WriteString(words[(i*7+l*3+w*w)%len(words)])
				sb.WriteByte(' ')
			}
			fmt.Fprintf(&sb, "file%d line%d\n", i, l)
		}
		p := filepath.Join(proj, fmt.Sprintf("d%02d", i%30), fmt.Sprintf("f%04d.md", i))
		if i < 30 {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	home := newPalace(t)
	for _, delay := range []time.Duration{100 * time.Millisecond, 400 * time.Millisecond} {
		before := statusOK(t, home)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cmd := palaceCmd(ctx, home, "mine", proj, "--json")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The delay counts from when the mine has opened the palace (its
		// write-ahead log exists only while a connection is open): a loaded
		// machine can take longer than the delay just to start the binary,
		// and a SIGINT before main installs its handler kills the process.
		wal := filepath.Join(home, "palace.db-wal")
		for start := time.Now(); ; time.Sleep(5 * time.Millisecond) {
			if _, err := os.Stat(wal); err == nil || time.Since(start) > 20*time.Second {
				break
			}
		}
		time.Sleep(delay)
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Logf("signal: %v (the mine may have finished)", err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Fatalf("mine did not exit within 5s of SIGINT")
		}
		cancel()
		code := cmd.ProcessState.ExitCode()
		t.Logf("SIGINT after %v: exit %d, stderr %q", delay, code, errb.String())
		if code != 0 {
			var s mineSummary
			clitest.Decode(t, "interrupted mine", out.String(), &s)
			if !s.Interrupted || !strings.Contains(errb.String(), "interrupted") {
				t.Errorf("interrupted mine: exit %d, interrupted %v, stderr %q", code, s.Interrupted, errb.String())
			}
			// The summary reports what was written, nothing more.
			after := statusOK(t, home)
			if s.DrawersAdded != after.Drawers-before.Drawers || s.FilesMined != after.Sources-before.Sources {
				t.Errorf("interrupted mine reports %d files mined and %d drawers added, but the palace gained %d sources and %d drawers",
					s.FilesMined, s.DrawersAdded, after.Sources-before.Sources, after.Drawers-before.Drawers)
			}
		}
	}
	resumed := mineOK(t, home, proj)
	if resumed.FilesSeen != 3000 || resumed.FilesMined+resumed.FilesUnchanged != 3000 {
		t.Errorf("resumed mine: %+v", resumed)
	}
	if again := mineOK(t, home, proj); again.FilesMined != 0 || again.DrawersAdded != 0 || again.DrawersRemoved != 0 {
		t.Errorf("mine after resume should be a no-op: %+v", again)
	}

	fresh := t.TempDir()
	mineOK(t, fresh, proj)
	got, want := statusOK(t, home), statusOK(t, fresh)
	if got.Drawers != want.Drawers || got.Sources != want.Sources || want.Sources != 3000 {
		t.Errorf("after interrupt and resume: %d drawers, %d sources; a fresh mine has %d and %d",
			got.Drawers, got.Sources, want.Drawers, want.Sources)
	}
	st, err := store.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cs, err := st.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if !c.OK && (c.Name == store.CheckIntegrity || c.Name == store.CheckFTS) {
			t.Errorf("check %s: %s", c.Name, c.Detail)
		}
	}
}

// ---- paths that are not ASCII ----

// A project under a non-ASCII folder must mine incrementally and prune like
// any other, and --source must filter by it.
func TestNonASCIIProjectPath(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "café")
	clitest.WriteTree(t, proj, map[string]string{"a.md": "tokcroissant\n", "sub/b.md": "tokbaguette\n"})
	home := t.TempDir()
	mineOK(t, home, proj)
	if s := mineOK(t, home, proj); s.FilesMined != 0 || s.DrawersAdded != 0 || s.DrawersRemoved != 0 {
		t.Errorf("second mine of %s should be a no-op: %+v", proj, s)
	}
	if err := os.Remove(filepath.Join(proj, "sub", "b.md")); err != nil {
		t.Fatal(err)
	}
	if s := mineOK(t, home, proj); s.SourcesPruned != 1 {
		t.Errorf("deleted sub/b.md: sources_pruned %d, want 1", s.SourcesPruned)
	}
	if r := searchOK(t, home, "tokbaguette"); len(r.Hits) != 0 {
		t.Errorf("deleted file still found: %v", sourcesOf(r))
	}
	if r := searchOK(t, home, "tokcroissant", "--source", proj+"/"); len(r.Hits) != 1 {
		t.Errorf("--source %s/: %d hits, want 1", proj, len(r.Hits))
	}
}
