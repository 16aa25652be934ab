//go:build unix

// The bad-input suite (issue #11): one table of named cases across the three
// fronts — the CLI binary, `palace serve --mcp` driven by mcp-go's client and
// `palace serve --lsp` driven by a go.lsp.dev/jsonrpc2 connection. Every case
// starts from a palace that already holds known content, expects a clear
// error (or a stated, harmless outcome), and then proves that nothing was lost
// or half-written: the export rows before and after differ only by what the
// case legitimately adds, and `palace doctor` finds the database intact.
package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"go.lsp.dev/jsonrpc2"

	"github.com/palace-dev/palace/cmd/internal/clitest"
	"github.com/palace-dev/palace/core/store"
)

// badCase is one bad input on one front.
type badCase struct {
	name  string
	front string // "cli", "mcp" or "lsp"
	// setup prepares inputs (files, a broken database) before the
	// "before" snapshot is taken. Optional.
	setup func(t *testing.T, e *badEnv)
	// act does the bad thing once and returns what the front answered.
	act func(t *testing.T, e *badEnv) badResult
	// code is the expected exit code (CLI), JSON-RPC error code (MCP, LSP),
	// badToolError for an MCP tool result with isError, 0 for success, or
	// badEither when check decides.
	code int
	// want is a regexp the error text must match: stderr (CLI), the
	// JSON-RPC error message or the tool error's text. "" means no error
	// text at all.
	want string
	// raw marks a palace that is broken or locked on purpose: the database
	// file's bytes and mtime are compared instead of its export.
	raw bool
	// check asserts the case's own outcome, including every row it added.
	// When nil the case must add nothing.
	check func(t *testing.T, e *badEnv, r badResult, added []badRow)
}

// Outcome codes besides exit and JSON-RPC codes.
const (
	badToolError = 1     // an MCP tool result with isError: true
	badEither    = -9999 // check decides which outcome is right
)

// badResult is what a front answered.
type badResult struct {
	code int    // exit code; JSON-RPC error code; badToolError; 0
	out  string // stdout, or the result as JSON
	err  string // stderr, the JSON-RPC error message or the tool error text
}

// badEnv is a palace with known content, and the servers of its front.
type badEnv struct {
	root string // a temp folder user nobody may enter
	home string // the palace
	proj string // the mined project, wing "proj"
	mcp  *badMCP
	lsp  *badLSP
}

// badKnown is the project every case starts from; "tokknown" is in every
// file and note, so a search for it finds badKnownHits drawers.
var badKnown = map[string]string{
	"README.md":     "tokknown readme of the project\n",
	"src/main.go":   "package main // tokknown entry point\n\nfunc main() {}\n",
	"docs/guide.md": "# Guide\n\ntokknown guide for new people\n",
}

const badKnownHits = 5 // the three files and the two notes

func badNewEnv(t *testing.T) *badEnv {
	t.Helper()
	root := openTempDir(t)
	e := &badEnv{root: root, home: filepath.Join(root, "home"), proj: filepath.Join(root, "proj")}
	clitest.WriteTree(t, e.proj, badKnown)
	mineOK(t, e.home, e.proj)
	palaceOK(t, e.home, nil, "remember", "tokknown note: we deploy with pnpm, never npm", "--wing", "proj")
	palaceOK(t, e.home, nil, "remember", "tokknown decision: retries back off exponentially", "--wing", "proj", "--room", "decisions")
	palaceOK(t, e.home, nil, "kg", "add", "Alice", "works_at", "Acme", "--from", "2020-01-01")
	palaceOK(t, e.home, nil, "taxonomy", "set", "proj", "billing", "--keywords", "invoice")
	return e
}

// dir makes a fresh folder under the env's root that user nobody can read.
func (e *badEnv) dir(t *testing.T, name string) string {
	t.Helper()
	d := filepath.Join(e.root, name)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

func badCLI(t *testing.T, home string, args ...string) badResult {
	t.Helper()
	out, errOut, code := runPalace(t, home, args...)
	return badResult{code: code, out: out, err: errOut}
}

// ---- snapshots ----

// badRow is one line of `palace export`.
type badRow struct {
	Type string         `json:"type"`
	Row  map[string]any `json:"row"`
}

func (r badRow) str(k string) string {
	s, _ := r.Row[k].(string)
	return s
}

func (r badRow) num(k string) int {
	f, _ := r.Row[k].(float64)
	return int(f)
}

func (r badRow) key() string {
	switch r.Type {
	case "taxonomy":
		return "taxonomy " + r.str("wing") + "\x00" + r.str("room")
	case "setting":
		return "setting " + r.str("key")
	}
	return r.Type + " " + r.str("id")
}

// badSnapshot exports the palace: rows by identity, each with its line.
func badSnapshot(t *testing.T, home string) map[string]string {
	t.Helper()
	out, errOut, code := runPalace(t, home, "export")
	if code != 0 {
		t.Fatalf("export: exit %d, %s", code, errOut)
	}
	rows := map[string]string{}
	for i, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if i == 0 {
			continue // the header
		}
		var r badRow
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("export line %d: %v: %s", i+1, err, line)
		}
		if _, dup := rows[r.key()]; dup {
			t.Errorf("export has %s twice", r.key())
		}
		rows[r.key()] = line
	}
	return rows
}

// badDiff fails for every row lost or changed and returns the added ones.
func badDiff(t *testing.T, before, after map[string]string) []badRow {
	t.Helper()
	for k, line := range before {
		switch got, ok := after[k]; {
		case !ok:
			t.Errorf("lost %s: %.300s", k, line)
		case got != line:
			t.Errorf("changed %s:\nbefore %.300s\nafter  %.300s", k, line, got)
		}
	}
	var keys []string
	for k := range after {
		if _, ok := before[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	added := make([]badRow, 0, len(keys))
	for _, k := range keys {
		var r badRow
		if err := json.Unmarshal([]byte(after[k]), &r); err != nil {
			t.Fatal(err)
		}
		added = append(added, r)
	}
	return added
}

// badDoctor expects `palace doctor` to find the database intact.
func badDoctor(t *testing.T, home string) {
	t.Helper()
	out, errOut, code := runPalace(t, home, "doctor", "--json")
	var d struct {
		Integrity string `json:"integrity"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &d) != nil || d.Integrity != "ok" {
		t.Errorf("doctor: exit %d, integrity %q, stderr %q", code, d.Integrity, errOut)
	}
}

// badFile is a file's bytes and mtime.
type badFile struct {
	sum [32]byte
	mod time.Time
}

func badStat(t *testing.T, path string) badFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return badFile{sha256.Sum256(b), fi.ModTime()}
}

// ---- checks on added rows ----

// badNone expects no added rows (for a check that also asserts more).
func badNone(t *testing.T, added []badRow) {
	t.Helper()
	for _, r := range added {
		t.Errorf("unexpected new row %s: %.200v", r.key(), r.Row)
	}
}

// badOnlyDrawers expects every added row to be a drawer that ok accepts,
// and n of them (n < 0: any number, at least one).
func badOnlyDrawers(t *testing.T, added []badRow, n int, ok func(badRow) bool) {
	t.Helper()
	for _, r := range added {
		if r.Type != "drawer" || !ok(r) {
			t.Errorf("unexpected new row %s: %.300v", r.key(), r.Row)
		}
	}
	if (n >= 0 && len(added) != n) || (n < 0 && len(added) == 0) {
		t.Errorf("%d rows added, want %d", len(added), n)
	}
}

// badWholeFiles checks that the file drawers added for each source cover
// the whole file, verbatim: mining never leaves half a file behind.
func badWholeFiles(t *testing.T, added []badRow) {
	t.Helper()
	bySource := map[string][]badRow{}
	for _, r := range added {
		if r.Type == "drawer" && r.str("kind") == "file" {
			bySource[r.str("source")] = append(bySource[r.str("source")], r)
		}
	}
	for src, rs := range bySource {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		lines := strings.Count(string(b), "\n")
		if !strings.HasSuffix(string(b), "\n") {
			lines++
		}
		sort.Slice(rs, func(i, j int) bool { return rs[i].num("line_start") < rs[j].num("line_start") })
		covered := 0
		for _, r := range rs {
			if r.num("line_start") > covered+1 {
				t.Errorf("%s: lines %d-%d have no drawer", src, covered+1, r.num("line_start")-1)
			}
			covered = max(covered, r.num("line_end"))
			if !strings.Contains(string(b), r.str("content")) {
				t.Errorf("%s: drawer %s is not verbatim text of the file", src, r.str("id"))
			}
		}
		if covered != lines {
			t.Errorf("%s: drawers cover lines 1-%d of %d", src, covered, lines)
		}
	}
}

// badHits runs search --json as the palace's owner and returns the hits.
func badHits(t *testing.T, home string, args ...string) []hit {
	t.Helper()
	return searchOK(t, home, args...).Hits
}

// ---- running a case ----

func TestBadInput(t *testing.T) {
	cases := badCases()
	if len(cases) < 30 {
		t.Fatalf("the suite has %d cases; the issue asks for at least 30", len(cases))
	}
	seen := map[string]bool{}
	byFront := map[string][]badCase{}
	for _, c := range cases {
		if seen[c.front+"/"+c.name] {
			t.Fatalf("case %s/%s is named twice", c.front, c.name)
		}
		seen[c.front+"/"+c.name] = true
		byFront[c.front] = append(byFront[c.front], c)
	}
	t.Run("cli", func(t *testing.T) {
		for _, c := range byFront["cli"] {
			t.Run(c.name, func(t *testing.T) { badRun(t, badNewEnv(t), c) })
		}
	})
	// One server per front, reused by its cases: each case compares the
	// palace before and after itself.
	t.Run("mcp", func(t *testing.T) {
		e := badNewEnv(t)
		e.mcp = badStartMCP(t, e)
		for _, c := range byFront["mcp"] {
			t.Run(c.name, func(t *testing.T) { badRun(t, e, c) })
		}
	})
	t.Run("lsp", func(t *testing.T) {
		e := badNewEnv(t)
		e.lsp = badStartLSP(t, e)
		for _, c := range byFront["lsp"] {
			t.Run(c.name, func(t *testing.T) { badRun(t, e, c) })
		}
	})
	for f := range byFront {
		if f != "cli" && f != "mcp" && f != "lsp" {
			t.Errorf("unknown front %q", f)
		}
	}
}

func badRun(t *testing.T, e *badEnv, c badCase) {
	if c.setup != nil {
		c.setup(t, e)
	}
	db := filepath.Join(e.home, store.DBName)
	var beforeRows map[string]string
	var beforeDB badFile
	if c.raw {
		beforeDB = badStat(t, db)
	} else {
		beforeRows = badSnapshot(t, e.home)
	}
	r := c.act(t, e)
	if c.code != badEither && r.code != c.code {
		t.Errorf("code %d, want %d\nerror: %.500s\noutput: %.500s", r.code, c.code, r.err, r.out)
	}
	switch {
	case c.want == "" && c.code != badEither && r.err != "":
		t.Errorf("unexpected error text %.500q", r.err)
	case c.want != "" && !regexp.MustCompile(c.want).MatchString(r.err):
		t.Errorf("error %.500q does not match %q", r.err, c.want)
	}
	if strings.Contains(r.err, "panic") || strings.Contains(r.err, "goroutine ") {
		t.Errorf("the front panicked: %.2000s", r.err)
	}
	if c.front == "cli" && r.code != 0 && r.code != badEither {
		// Errors are for people: one short line, never a dump.
		oneLine(t, r.err)
		if len(r.err) > 2000 {
			t.Errorf("stderr is %d bytes", len(r.err))
		}
	}
	var added []badRow
	if c.raw {
		if after := badStat(t, db); after != beforeDB {
			t.Errorf("%s changed (bytes or mtime) although the palace could not be used", db)
		}
	} else {
		added = badDiff(t, beforeRows, badSnapshot(t, e.home))
		badDoctor(t, e.home)
	}
	if c.check != nil {
		c.check(t, e, r, added)
	} else if !c.raw {
		badNone(t, added)
	}
}

// ---- mining a tree with one bad entry ----

// badMineCase mines a fresh folder holding good.md and one bad entry (made
// by bad, which returns its path) and expects the bad entry skipped for
// reason, good.md mined whole, and nothing else.
func badMineCase(name, reason string, bad func(t *testing.T, dir string) string, asNobody bool, extra ...string) badCase {
	var dir, badPath string
	return badCase{
		name: name, front: "cli",
		setup: func(t *testing.T, e *badEnv) {
			dir = e.dir(t, "tree")
			clitest.WriteTree(t, dir, map[string]string{"good.md": "tokgood text next to a bad file\n"})
			badPath = bad(t, dir)
		},
		act: func(t *testing.T, e *badEnv) badResult {
			args := append([]string{"mine", dir, "--json"}, extra...)
			if !asNobody {
				return badCLI(t, e.home, args...)
			}
			badChown(t, e.home)
			// A mine stuck on the bad entry is killed by runAsNobody's
			// deadline and gives no summary: check fails on it.
			out, errOut, code := runAsNobody(t, e.home, args...)
			return badResult{code, out, errOut}
		},
		check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
			var s mineSummary
			clitest.Decode(t, "mine", r.out, &s)
			found := false
			for _, k := range s.Skipped {
				if k.Path == badPath {
					found = true
					if k.Reason != reason {
						t.Errorf("%s skipped as %q (%s), want %q", badPath, k.Reason, k.Detail, reason)
					}
				}
			}
			if !found {
				t.Errorf("%s is not listed as skipped: %+v", badPath, s)
			}
			if s.FilesMined != 1 || len(s.Errors) != 0 {
				t.Errorf("files_mined %d errors %v, want good.md alone mined", s.FilesMined, s.Errors)
			}
			good := filepath.Join(dir, "good.md")
			badOnlyDrawers(t, added, 1, func(r badRow) bool { return r.str("source") == good })
			badWholeFiles(t, added)
		},
	}
}

// badChown gives a palace to user nobody when the tests run as root, so
// runAsNobody can write it.
func badChown(t *testing.T, path string) {
	t.Helper()
	if os.Geteuid() != 0 {
		return
	}
	err := filepath.Walk(path, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, nobody, nobody)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func badWrite(t *testing.T, path string, b []byte) string {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// badFixture copies one of core/convo's exports into dir.
func badFixture(t *testing.T, dir, rel string) (path string, content []byte) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "core", "convo", "testdata", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, filepath.Base(rel)), b
}

// badExportFile writes an export of a palace other than e's (one note
// e lacks) to dir and returns its path and bytes.
func badExportFile(t *testing.T, e *badEnv, dir string) (string, []byte) {
	t.Helper()
	other := filepath.Join(dir, "other-home")
	palaceOK(t, other, nil, "remember", "tokimported note from another palace", "--wing", "elsewhere")
	out, errOut, code := runPalace(t, other, "export")
	if code != 0 {
		t.Fatalf("export: %d %s", code, errOut)
	}
	p := filepath.Join(dir, "export.jsonl")
	return p, []byte(out)
}

// badEditRow replaces old with new in the first row of type kind of an
// export.
func badEditRow(t *testing.T, export []byte, kind, old, new string) []byte {
	t.Helper()
	lines := strings.SplitAfter(string(export), "\n")
	for i, l := range lines {
		if strings.Contains(l, `{"type":"`+kind+`"`) && strings.Contains(l, old) {
			lines[i] = strings.Replace(l, old, new, 1)
			return []byte(strings.Join(lines, ""))
		}
	}
	t.Fatalf("no %s row holds %s:\n%s", kind, old, export)
	return nil
}

// ---- the cases ----

func badCases() []badCase {
	var cases []badCase
	cases = append(cases, badCLICases()...)
	cases = append(cases, badMCPCases()...)
	cases = append(cases, badLSPCases()...)
	cases = append(cases, badlspprotoCases()...)
	cases = append(cases, badrouteCases()...)
	cases = append(cases, badmcpcancelCases()...)
	cases = append(cases, badsecretsCases()...)
	cases = append(cases, badCostsCases()...)
	cases = append(cases, badHooksCases()...)
	cases = append(cases, badbyfileCases()...)
	return cases
}

func badCLICases() []badCase {
	var (
		path  string // a file or folder the case made
		pathB []byte // a file's bytes
	)
	// notesIn accepts exactly n new notes in wing.
	notesIn := func(wing string, n int) func(*testing.T, *badEnv, badResult, []badRow) {
		return func(t *testing.T, e *badEnv, r badResult, added []badRow) {
			badOnlyDrawers(t, added, n, func(d badRow) bool { return d.str("kind") == "note" && d.str("wing") == wing })
		}
	}
	return []badCase{
		badMineCase("binary file", "binary", func(t *testing.T, dir string) string {
			return badWrite(t, filepath.Join(dir, "blob.dat"), []byte("tokbinary\x00\x01\x02\xff\xfe more"))
		}, false),
		badMineCase("NUL byte in a .txt", "binary", func(t *testing.T, dir string) string {
			return badWrite(t, filepath.Join(dir, "nul.txt"), []byte("toknul first line\nsecond\x00line\n"))
		}, false),
		badMineCase("file over the size cap", "too_large", func(t *testing.T, dir string) string {
			return badWrite(t, filepath.Join(dir, "big.md"), bytes.Repeat([]byte("toklarge words on a line\n"), 100_000)) // 2.5 MB, cap 1 MiB
		}, false),
		badMineCase("sparse 64 GiB file", "too_large", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "sparse.txt")
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(64 << 30); err != nil {
				t.Fatal(err)
			}
			return p
		}, false),
		badMineCase("sparse 64 GiB chat export", "too_large", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "conversations.json")
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			f.WriteString(`[{"title": "x", "mapping": {`)
			if err := f.Truncate(64 << 30); err != nil {
				t.Fatal(err)
			}
			return p
		}, false),
		badMineCase("invalid UTF-8", "invalid_utf8", func(t *testing.T, dir string) string {
			return badWrite(t, filepath.Join(dir, "latin1.txt"), []byte("caf\xe9 toklatin\n"))
		}, false),
		badMineCase("symlink loop", "symlink", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "loop")
			if err := os.Symlink(".", p); err != nil {
				t.Fatal(err)
			}
			return p
		}, false),
		badMineCase("symlink escaping the tree", "symlink", func(t *testing.T, dir string) string {
			out := filepath.Join(filepath.Dir(dir), "outside")
			clitest.WriteTree(t, out, map[string]string{"secret.md": "tokoutside secret\n"})
			p := filepath.Join(dir, "escape.md")
			if err := os.Symlink(filepath.Join(out, "secret.md"), p); err != nil {
				t.Fatal(err)
			}
			return p
		}, false),
		badMineCase("symlinked folder escaping the tree", "symlink", func(t *testing.T, dir string) string {
			out := filepath.Join(filepath.Dir(dir), "outside")
			clitest.WriteTree(t, out, map[string]string{"secret.md": "tokoutside secret\n"})
			p := filepath.Join(dir, "escape")
			if err := os.Symlink("../outside", p); err != nil {
				t.Fatal(err)
			}
			return p
		}, false),
		badMineCase("unreadable file", "unreadable", func(t *testing.T, dir string) string {
			p := badWrite(t, filepath.Join(dir, "locked.md"), []byte("toklocked\n"))
			if err := os.Chmod(p, 0); err != nil {
				t.Fatal(err)
			}
			return p
		}, true),
		badMineCase("FIFO", "not_regular", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "pipe.md")
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}, false),
		{
			// UTF-16 without a BOM cannot be told from binary with
			// certainty: skipping it is fine, mining it is fine if it is
			// decoded, storing NUL-riddled text is not.
			name: "UTF-16 without BOM", front: "cli",
			setup: func(t *testing.T, e *badEnv) {
				path = filepath.Join(e.dir(t, "utf16"), "notes.txt")
				var b []byte
				for _, r := range "tokutfsixteen text\nsecond line\n" {
					b = append(b, byte(r), 0)
				}
				badWrite(t, path, b)
			},
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "mine", filepath.Dir(path), "--json")
			},
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				for _, d := range added {
					if strings.ContainsRune(d.str("content"), 0) {
						t.Errorf("drawer %s holds NUL bytes: %q", d.str("id"), d.str("content"))
					}
				}
				if len(added) > 0 && len(badHits(t, e.home, "tokutfsixteen")) != 1 {
					t.Errorf("UTF-16 file mined but its text is not searchable: %v", added)
				}
			},
		},
		{
			name: "malformed Claude Code JSONL", front: "cli", code: 1,
			want: `partly readable.*3f2a9c1e-5b7d-4e21-9a0c-8d6f1b2e4c7a\.jsonl.*line 5`,
			setup: func(t *testing.T, e *badEnv) {
				var b []byte
				path, b = badFixture(t, e.dir(t, "cc"), "claude-code/3f2a9c1e-5b7d-4e21-9a0c-8d6f1b2e4c7a.jsonl")
				lines := strings.SplitAfter(string(b), "\n")
				broken := strings.Join(lines[:4], "") + "{not json at all\n" + strings.Join(lines[4:], "")
				badWrite(t, path, []byte(broken))
			},
			act: func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "mine", path, "--json") },
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				var s mineSummary
				clitest.Decode(t, "mine", r.out, &s)
				if len(s.Errors) != 1 || s.Errors[0].Path != path {
					t.Errorf("errors %+v, want the export named", s.Errors)
				}
				badOnlyDrawers(t, added, -1, func(d badRow) bool {
					return d.str("kind") == "conversation" && d.str("source") == path
				})
				// Mining it again adds nothing: what was mined is whole.
				again := badCLI(t, e.home, "mine", path, "--json")
				var s2 mineSummary
				clitest.Decode(t, "mine again", again.out, &s2)
				if s2.DrawersAdded != 0 || s2.DrawersRemoved != 0 {
					t.Errorf("second mine of the broken export changed drawers: %+v", s2)
				}
			},
		},
		{
			name: "truncated ChatGPT export", front: "cli", code: 1,
			want: `conversations\.json.*truncated`,
			setup: func(t *testing.T, e *badEnv) {
				var b []byte
				path, b = badFixture(t, e.dir(t, "chatgpt"), "chatgpt/conversations.json")
				badWrite(t, path, b[:len(b)*3/4]) // inside the second conversation
			},
			act: func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "mine", path, "--json") },
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				badOnlyDrawers(t, added, -1, func(d badRow) bool {
					return d.str("kind") == "conversation" && d.str("source") == path
				})
				// The whole first conversation is there, nothing of the cut one.
				if hs := badHits(t, e.home, "backoff", "--kind", "conversation"); len(hs) == 0 {
					t.Errorf("the complete first conversation was not mined")
				}
				for _, d := range added {
					if strings.Contains(d.str("content"), "revenue") {
						t.Errorf("a drawer of the truncated conversation was written: %.200s", d.str("content"))
					}
				}
			},
		},
		{
			name: "JSON export of no known format", front: "cli",
			setup: func(t *testing.T, e *badEnv) {
				path = badWrite(t, filepath.Join(e.dir(t, "unknown"), "conversations.json"),
					[]byte(`{"format": "nobody-knows", "items": [{"tokunknownformat": true}]}`+"\n"))
			},
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "mine", path, "--mode", "convos", "--json")
			},
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				var s mineSummary
				clitest.Decode(t, "mine", r.out, &s)
				if s.SkippedBy["not_conversation"] != 1 || s.FilesMined != 0 {
					t.Errorf("summary %+v, want the file skipped as not_conversation", s)
				}
				badNone(t, added)
			},
		},
		{
			name: "empty palace.yaml", front: "cli",
			setup: func(t *testing.T, e *badEnv) {
				path = e.dir(t, "emptycfg")
				clitest.WriteTree(t, path, map[string]string{"palace.yaml": "", "a.md": "tokemptycfg\n"})
			},
			act: func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "mine", path, "--json") },
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				// An empty file configures nothing: the folder name is the wing.
				badOnlyDrawers(t, added, -1, func(d badRow) bool { return d.str("wing") == "emptycfg" })
				badWholeFiles(t, added)
			},
		},
		{
			name: "malformed palace.yaml", front: "cli", code: 1,
			want: `badcfg/palace\.yaml`,
			setup: func(t *testing.T, e *badEnv) {
				path = e.dir(t, "badcfg")
				clitest.WriteTree(t, path, map[string]string{"palace.yaml": "wing: [unclosed\nrooms: {\n", "a.md": "tokbadcfg\n"})
			},
			act: func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "mine", path, "--json") },
		},
		{
			name: "import of a truncated export", front: "cli", code: 1,
			want: `export\.jsonl: line \d+`,
			setup: func(t *testing.T, e *badEnv) {
				path, pathB = badExportFile(t, e, e.dir(t, "imp"))
				badWrite(t, path, pathB[:len(pathB)-40]) // the last row loses its end
			},
			act: func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "import", path) },
		},
		{
			name: "import of a file that is not an export", front: "cli", code: 1,
			want: `not a palace-export header`,
			setup: func(t *testing.T, e *badEnv) {
				path, pathB = badFixture(t, e.dir(t, "imp"), "chatgpt/conversations.json")
				badWrite(t, path, pathB)
			},
			act: func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "import", path) },
		},
		{
			// The import refuses a malformed file whole "naming the line"
			// (import --help); a row lacking its fields is malformed.
			name: "import of an export with an incomplete row", front: "cli", code: 1,
			want: `export\.jsonl: line 3`,
			setup: func(t *testing.T, e *badEnv) {
				path, pathB = badExportFile(t, e, e.dir(t, "imp"))
				lines := strings.SplitAfter(string(pathB), "\n")
				badWrite(t, path, []byte(lines[0]+lines[1]+`{"type":"drawer","row":{"id":"d_000000000000000000000001","content":"tokhalf"}}`+"\n"))
			},
			act: func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "import", path) },
		},
		// An import checks every field as the operation that writes it
		// does (issue 16): each of these imported before and then broke
		// search, escaped the wing naming rule or misdated the drawer.
		{
			name: "import of a drawer whose metadata is not JSON", front: "cli", code: 1,
			want: `export\.jsonl: line \d+: drawer metadata "\{\\"speakers\\":" is not a JSON object`,
			setup: func(t *testing.T, e *badEnv) {
				path, pathB = badExportFile(t, e, e.dir(t, "imp"))
				badWrite(t, path, badEditRow(t, pathB, "drawer", `"metadata":"{}"`, `"metadata":"{\"speakers\":"`))
			},
			act: func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "import", path) },
		},
		{
			name: "import of a drawer in wing ../../etc", front: "cli", code: 1,
			want: `export\.jsonl: line \d+: drawer wing name "\.\./\.\./etc" contains '/'`,
			setup: func(t *testing.T, e *badEnv) {
				path, pathB = badExportFile(t, e, e.dir(t, "imp"))
				badWrite(t, path, badEditRow(t, pathB, "drawer", `"wing":"elsewhere"`, `"wing":"../../etc"`))
			},
			act: func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "import", path) },
		},
		{
			name: "import of a drawer whose hash is not its content's", front: "cli", code: 1,
			want: `export\.jsonl: line \d+: drawer content_hash .* is not the hash of the content`,
			setup: func(t *testing.T, e *badEnv) {
				path, pathB = badExportFile(t, e, e.dir(t, "imp"))
				badWrite(t, path, badEditRow(t, pathB, "drawer", `tokimported note`, `tokforged note`))
			},
			act: func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "import", path) },
		},
		{
			name: "import of a file of schema 999", front: "cli", code: 1,
			want: `export\.jsonl: line 1: schema 999 is not a database schema this palace knows`,
			setup: func(t *testing.T, e *badEnv) {
				path, pathB = badExportFile(t, e, e.dir(t, "imp"))
				badWrite(t, path, regexp.MustCompile(`"schema":\d+`).ReplaceAll(pathB, []byte(`"schema":999`)))
			},
			act: func(t *testing.T, e *badEnv) badResult { return badCLI(t, e.home, "import", path) },
		},
		{
			name: "remember 10 MB from stdin", front: "cli", code: 2,
			want: `1 MiB`,
			act: func(t *testing.T, e *badEnv) badResult {
				out, errOut, code := withStdin(t, e.home, strings.Repeat("ten megabytes ", 10<<20/14), "remember", "-", "--wing", "proj")
				return badResult{code, out, errOut}
			},
		},
		{
			name: "remember invalid UTF-8", front: "cli", code: 2,
			want: `UTF-8`,
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "remember", "caf\xe9 au lait", "--wing", "proj")
			},
		},
		{
			name: "wing names with quotes and slashes are refused by remember", front: "cli", code: 2,
			want: `wing .*neither is allowed`,
			act: func(t *testing.T, e *badEnv) badResult {
				var last badResult
				for _, w := range []string{`say "hi"`, "a/b", `"a" OR b*`, "../../etc"} {
					last = badCLI(t, e.home, "remember", "tokbadwing", "--wing", w)
					if last.code != 2 || !strings.Contains(last.err, "neither is allowed") {
						t.Errorf("wing %q: exit %d, %q", w, last.code, last.err)
					}
				}
				return last
			},
		},
		{
			// A wing name is refused the same way whichever command
			// creates it: remember and taxonomy refuse '/' and '"', so a
			// mine must not create such a wing either (it could never be
			// addressed by them afterwards).
			name: "wing names with quotes and slashes are refused by mine", front: "cli", code: 2,
			want: `wing`,
			act: func(t *testing.T, e *badEnv) badResult {
				var last badResult
				for _, w := range []string{"a/b", `say "hi"`} {
					last = badCLI(t, e.home, "mine", e.proj, "--wing", w, "--json")
					if last.code != 2 {
						t.Errorf("mine --wing %q: exit %d, stderr %q", w, last.code, last.err)
					}
				}
				return last
			},
		},
		{
			name: "wing name with SQL is stored verbatim", front: "cli",
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "remember", "toksqlwing note", "--wing", "'; DROP TABLE drawers; --")
			},
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				notesIn("'; DROP TABLE drawers; --", 1)(t, e, r, added)
				if hs := badHits(t, e.home, "toksqlwing", "--wing", "'; DROP TABLE drawers; --"); len(hs) != 1 {
					t.Errorf("the note is not found in its wing: %+v", hs)
				}
				if hs := badHits(t, e.home, "tokknown"); len(hs) != badKnownHits {
					t.Errorf("known drawers: %d hits, want %d", len(hs), badKnownHits)
				}
			},
		},
		{
			name: "wing name with FTS syntax is stored verbatim", front: "cli",
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "remember", "tokftswing note", "--wing", "NEAR(a b* OR c")
			},
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				notesIn("NEAR(a b* OR c", 1)(t, e, r, added)
				if hs := badHits(t, e.home, "tokftswing", "--wing", "NEAR(a b* OR c"); len(hs) != 1 {
					t.Errorf("the note is not found in its wing: %+v", hs)
				}
				// A prefix of the name is no wing: refused, not matched.
				if r := badCLI(t, e.home, "search", "tokftswing", "--wing", "NEAR(a b*", "--json"); r.code != 2 || !strings.Contains(r.err, "no such wing") {
					t.Errorf("a wing filter on a prefix of the name: exit %d, %s", r.code, r.err)
				}
			},
		},
		{
			name: "room names in the taxonomy", front: "cli", code: 2,
			want: `room name .*contains '/' or '"'`,
			act: func(t *testing.T, e *badEnv) badResult {
				for _, room := range []string{"'; DROP TABLE drawers; --", "NEAR(x y*", "it's"} {
					if r := badCLI(t, e.home, "taxonomy", "set", "proj", room, "--keywords", "kwverbatim"); r.code != 0 {
						t.Errorf("room %q: exit %d, %q", room, r.code, r.err)
					}
				}
				var last badResult
				for _, room := range []string{"a/b", `"quoted"`} {
					last = badCLI(t, e.home, "taxonomy", "set", "proj", room, "--keywords", "kwrefused")
				}
				return last
			},
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				var rooms []string
				for _, a := range added {
					if a.Type != "taxonomy" || a.str("wing") != "proj" {
						t.Errorf("unexpected new row %s", a.key())
					}
					rooms = append(rooms, a.str("room"))
				}
				sort.Strings(rooms)
				if want := []string{"'; DROP TABLE drawers; --", "NEAR(x y*", "it's"}; fmt.Sprint(rooms) != fmt.Sprint(want) {
					t.Errorf("rooms added %q, want %q", rooms, want)
				}
				// A note filed in such a room is found by its room.
				palaceOK(t, e.home, nil, "remember", "tokroomsql note", "--wing", "proj", "--room", "'; DROP TABLE drawers; --")
				if hs := badHits(t, e.home, "tokroomsql", "--room", "'; DROP TABLE drawers; --"); len(hs) != 1 {
					t.Errorf("note in the SQL-named room: %+v", hs)
				}
			},
		},
		{
			// Taxonomy and remember must agree on what a room name may be:
			// a room the taxonomy holds but no note can be filed in is
			// broken either way.
			name: "room name with a backslash", front: "cli", code: badEither,
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "taxonomy", "set", "proj", `back\slash`, "--keywords", "kwback")
			},
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				rem := badCLI(t, e.home, "remember", "tokbackslash", "--wing", "proj", "--room", `back\slash`)
				if (r.code == 0) != (rem.code == 0) {
					t.Errorf("taxonomy set exit %d (%q) but remember exit %d (%q) for the same room name", r.code, r.err, rem.code, rem.err)
				}
			},
		},
		{
			name: "search queries with FTS and SQL syntax", front: "cli",
			act: func(t *testing.T, e *badEnv) badResult {
				for _, q := range []string{`"a" OR b*`, `NEAR(a b`, `"unbalanced`, `'; DROP TABLE drawers; --`,
					`body:x`, `*`, `^tokknown`, `a AND OR NOT`, `(((`, `{body scope}: x`, `tokknown)`, `NEAR(tokknown readme, 2)`} {
					r := badCLI(t, e.home, "search", "--json", "--", q)
					var res searchResult
					if r.code != 0 || json.Unmarshal([]byte(r.out), &res) != nil {
						t.Errorf("search %q: exit %d, stderr %q", q, r.code, r.err)
					}
				}
				return badCLI(t, e.home, "search", "--json", "--", `"tokknown" OR readme* NEAR(`)
			},
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				var res searchResult
				clitest.Decode(t, "search", r.out, &res)
				if len(res.Hits) == 0 {
					t.Errorf("the known word inside FTS syntax found nothing")
				}
				badNone(t, added)
			},
		},
		{
			name: "search dates that are not dates", front: "cli", code: 2,
			want: `--since "99999-99-99"`,
			act: func(t *testing.T, e *badEnv) badResult {
				for _, d := range []string{"10000-01-01", "-0001-01-01", "2026-02-30", "0"} {
					if r := badCLI(t, e.home, "search", "tokknown", "--until", d); r.code != 2 || !strings.Contains(r.err, d) {
						t.Errorf("--until %s: exit %d, %q", d, r.code, r.err)
					}
				}
				return badCLI(t, e.home, "search", "tokknown", "--since", "99999-99-99")
			},
		},
		{
			name: "search since year 0", front: "cli",
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "search", "tokknown", "--since", "0000-01-01", "--json")
			},
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				var res searchResult
				clitest.Decode(t, "search", r.out, &res)
				if len(res.Hits) != badKnownHits {
					t.Errorf("--since 0000-01-01: %d hits, want all %d", len(res.Hits), badKnownHits)
				}
			},
		},
		{
			// 9999-12-31 is the last date the format takes; as an
			// exclusive bound it becomes 10000-01-01, which must still
			// come after every drawer.
			name: "search until 9999-12-31", front: "cli",
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "search", "tokknown", "--until", "9999-12-31", "--json")
			},
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				var res searchResult
				clitest.Decode(t, "search", r.out, &res)
				if len(res.Hits) != badKnownHits {
					t.Errorf("--until 9999-12-31: %d hits, want all %d", len(res.Hits), badKnownHits)
				}
			},
		},
		{
			name: "kg add with dates out of range", front: "cli", code: 2,
			want: `10000-01-01`,
			act: func(t *testing.T, e *badEnv) badResult {
				if r := badCLI(t, e.home, "kg", "add", "Bob", "knows", "Carol", "--from", "99999-99-99"); r.code != 2 {
					t.Errorf("--from 99999-99-99: exit %d, %q", r.code, r.err)
				}
				return badCLI(t, e.home, "kg", "add", "Bob", "knows", "Carol", "--from", "10000-01-01")
			},
		},
		{
			// Either outcome is sound: the fact stored and readable, or
			// the date refused as bad input. An internal error, or a fact
			// that breaks the graph's reads, is not.
			name: "kg add valid until 9999-12-31", front: "cli", code: badEither,
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "kg", "add", "Bob", "works_at", "Initech", "--from", "2020-01-01", "--to", "9999-12-31", "--json")
			},
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				q := badCLI(t, e.home, "kg", "query", "alice", "--json")
				if q.code != 0 {
					t.Errorf("the graph cannot be read afterwards: %d %q", q.code, q.err)
				}
				switch r.code {
				case 0:
					if q := badCLI(t, e.home, "kg", "query", "bob", "--as-of", "2026-01-01", "--json"); q.code != 0 || !strings.Contains(q.out, "Initech") {
						t.Errorf("the stored fact is not current in 2026: exit %d, %q %q", q.code, q.out, q.err)
					}
				case 2:
					badNone(t, added)
					if !strings.Contains(r.err, "9999-12-31") {
						t.Errorf("refusal does not name the date: %q", r.err)
					}
				default:
					t.Errorf("exit %d, want 0 (stored) or 2 (refused as bad input): %q", r.code, r.err)
					badNone(t, added)
				}
			},
		},
		{
			name: "read-only palace", front: "cli", code: 1, raw: true,
			want: `palace\.db.*(permission denied|read-only|readonly)`,
			setup: func(t *testing.T, e *badEnv) {
				badChown(t, e.home)
				badReadOnly(t, e.home)
			},
			act: func(t *testing.T, e *badEnv) badResult {
				out, errOut, code := runAsNobody(t, e.home, "remember", "tokrowrite", "--wing", "proj")
				return badResult{code, out, errOut}
			},
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				out, errOut, code := runAsNobody(t, e.home, "search", "tokknown", "--json")
				var res searchResult
				if code != 0 || json.Unmarshal([]byte(out), &res) != nil || len(res.Hits) != badKnownHits {
					t.Errorf("a read of a read-only palace: exit %d, %d hits, stderr %q; want all %d", code, len(res.Hits), errOut, badKnownHits)
				}
				if _, errOut, code := runAsNobody(t, e.home, "status", "--json"); code != 0 {
					t.Errorf("status of a read-only palace: exit %d, %q", code, errOut)
				}
				// Doctor: every check passes, what needs the write lock says
				// it was skipped, and nothing on disk changes, side files
				// (-wal, -shm) and the audit log included.
				tree := func() string {
					var b strings.Builder
					err := filepath.Walk(e.home, func(p string, fi os.FileInfo, err error) error {
						if err != nil {
							return err
						}
						fmt.Fprintln(&b, p, fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
						return nil
					})
					if err != nil {
						t.Fatal(err)
					}
					return b.String()
				}
				before := tree()
				out, errOut, code = runAsNobody(t, e.home, "doctor", "--json")
				var d struct {
					OK        bool                `json:"ok"`
					Integrity string              `json:"integrity"`
					Checks    []store.HealthCheck `json:"checks"`
				}
				if code != 0 || json.Unmarshal([]byte(out), &d) != nil || !d.OK || d.Integrity != "ok" || len(d.Checks) != 6 {
					t.Errorf("doctor of a healthy read-only palace: exit %d, stderr %q, output %.1000s", code, errOut, out)
				}
				for _, ch := range d.Checks {
					if ch.Name == store.CheckFTS && !strings.HasSuffix(ch.Detail, "FTS5 integrity-check skipped: read-only palace") {
						t.Errorf("doctor's fts check of a read-only palace: %q, want the integrity-check skipped", ch.Detail)
					}
				}
				if after := tree(); after != before {
					t.Errorf("doctor changed the read-only palace:\nbefore\n%s\nafter\n%s", before, after)
				}
				// A broken read-only palace: doctor fails without sending the
				// user to a repair that cannot run here. The index is
				// emptied by the owner, who may write again for that.
				db := filepath.Join(e.home, store.DBName)
				if err := errors.Join(os.Chmod(e.home, 0o700), os.Chmod(db, 0o600)); err != nil {
					t.Fatal(err)
				}
				sdb, err := sql.Open("sqlite3", db)
				if err != nil {
					t.Fatal(err)
				}
				_, err = sdb.Exec(`INSERT INTO drawers_fts (drawers_fts) VALUES ('delete-all')`)
				if err := errors.Join(err, sdb.Close()); err != nil {
					t.Fatal(err)
				}
				badChown(t, e.home)
				badReadOnly(t, e.home)
				_, errOut, code = runAsNobody(t, e.home, "doctor")
				if code != 1 || !regexp.MustCompile(`doctor: .*fts.* failed`).MatchString(errOut) || !strings.Contains(errOut, "read-only") ||
					strings.Contains(errOut, "run `palace repair`") {
					t.Errorf("doctor of a broken read-only palace: exit %d, %q; want 1, fts failed, no advice to run repair", code, errOut)
				}
			},
		},
		{
			name: "disk full while mining", front: "cli", code: 1,
			want: `file too large|no space`,
			setup: func(t *testing.T, e *badEnv) {
				path = e.dir(t, "bulk")
				files := map[string]string{}
				for i := range 40 {
					var sb strings.Builder
					for l := range 600 {
						fmt.Fprintf(&sb, "line %d of file %d tokbulk%d words %d\n", l, i, i, l*i)
					}
					files[fmt.Sprintf("f%02d.md", i)] = sb.String()
				}
				clitest.WriteTree(t, path, files)
			},
			act: func(t *testing.T, e *badEnv) badResult {
				// No file may grow past 256 KiB: the database opens, the
				// mine's writes fail with EFBIG (Go ignores SIGXFSZ).
				out, errOut, code := badLimited(t, 256<<10, e.home, "mine", path, "--json")
				return badResult{code, out, errOut}
			},
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				// What committed before the disk filled is whole files.
				badOnlyDrawers(t, added, len(added), func(d badRow) bool { return d.str("wing") == "bulk" })
				badWholeFiles(t, added)
			},
		},
		{
			name: "audit log on a full disk", front: "cli", code: 1,
			want: `audit log.*no space left on device.*nothing was written`,
			// Writes to /dev/full fail with ENOSPC, as on a full disk; its
			// reads never end, which no real log does, so the real log is
			// put back before anything reads it. The log is the device
			// itself (major 1, minor 7), not a link to it: Palace refuses
			// to write through a symbolic link.
			setup: func(t *testing.T, e *badEnv) {
				log := filepath.Join(e.home, "audit", "write_log.jsonl")
				if err := os.Rename(log, filepath.Join(e.root, "saved-log")); err != nil {
					t.Fatal(err)
				}
				if err := syscall.Mknod(log, syscall.S_IFCHR|0o600, 1<<8|7); err != nil {
					t.Skipf("cannot make a /dev/full node (needs root): %v", err)
				}
			},
			act: func(t *testing.T, e *badEnv) badResult {
				more := e.dir(t, "more")
				clitest.WriteTree(t, more, map[string]string{"x.md": "tokmore\n"})
				for _, args := range [][]string{{"mine", more}, {"kg", "add", "Bob", "knows", "Carol"}, {"taxonomy", "set", "proj", "ops", "--keywords", "deploy"}} {
					if r := badCLI(t, e.home, args...); r.code != 1 || !strings.Contains(r.err, "nothing was written") {
						t.Errorf("%v with a full audit log: exit %d, %q", args, r.code, r.err)
					}
				}
				r := badCLI(t, e.home, "remember", "tokfull note", "--wing", "proj")
				log := filepath.Join(e.home, "audit", "write_log.jsonl")
				if err := os.Remove(log); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(filepath.Join(e.root, "saved-log"), log); err != nil {
					t.Fatal(err)
				}
				return r
			},
		},
		{
			name: "palace from a newer schema", front: "cli", code: 1, raw: true,
			want: `palace\.db: schema version \d+ is newer than this palace binary understands .*upgrade`,
			setup: func(t *testing.T, e *badEnv) {
				db, err := sql.Open("sqlite3", filepath.Join(e.home, store.DBName))
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", store.SchemaVersion()+1)); err != nil {
					t.Fatal(err)
				}
			},
			act: func(t *testing.T, e *badEnv) badResult {
				if r := badCLI(t, e.home, "search", "tokknown"); r.code != 1 || !strings.Contains(r.err, "newer") {
					t.Errorf("search of a newer palace: exit %d, %q", r.code, r.err)
				}
				return badCLI(t, e.home, "remember", "toknewer", "--wing", "proj")
			},
		},
		{
			name: "palace.db that is not a database", front: "cli", code: 1, raw: true,
			want: `palace\.db.*not a database`,
			setup: func(t *testing.T, e *badEnv) {
				db := filepath.Join(e.home, store.DBName)
				for _, p := range []string{db, db + "-wal", db + "-shm"} {
					os.Remove(p)
				}
				badWrite(t, db, bytes.Repeat([]byte("these are not the pages you are looking for\n"), 200))
			},
			act: func(t *testing.T, e *badEnv) badResult {
				return badCLI(t, e.home, "mine", e.proj)
			},
		},
	}
}

// badReadOnly makes a palace read-only for its owner.
func badReadOnly(t *testing.T, home string) {
	t.Helper()
	var dirs []string
	err := filepath.Walk(home, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if fi.IsDir() {
			dirs = append(dirs, p)
			return nil
		}
		return os.Chmod(p, 0o400)
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if err := os.Chmod(d, 0o500); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		for _, d := range dirs {
			os.Chmod(d, 0o700)
		}
	})
}

// badLimited runs palace with RLIMIT_FSIZE set to limit bytes, the way a
// full disk looks to a writer.
func badLimited(t *testing.T, limit int, home string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := palaceCmd(ctx, home, args...)
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	// ulimit -f counts 512-byte blocks in POSIX shells (dash); bash counts
	// 1024, which only makes the limit larger than the mine still exceeds.
	cmd.Path = sh
	cmd.Args = append([]string{"sh", "-c", fmt.Sprintf(`ulimit -f %d && exec "$0" "$@"`, limit/512)}, cmd.Args...)
	return clitest.Run(t, cmd)
}

// ---- MCP ----

// badMCP is `palace serve --mcp` over stdio with mcp-go's client, which
// offers the env's project folder as its only root.
type badMCP struct {
	c    *client.Client
	logs *badLog
}

// badLog collects a server's stderr.
type badLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *badLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *badLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

type badRoots []string

func (r badRoots) ListRoots(context.Context, mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	res := &mcp.ListRootsResult{}
	for _, d := range r {
		res.Roots = append(res.Roots, mcp.Root{URI: (&url.URL{Scheme: "file", Path: d}).String(), Name: filepath.Base(d)})
	}
	return res, nil
}

func badStartMCP(t *testing.T, e *badEnv) *badMCP {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logs := &badLog{}
	tr := transport.NewStdioWithOptions(palaceBin, nil, nil, transport.WithCommandFunc(
		func(ctx context.Context, _ string, _ []string, _ []string) (*exec.Cmd, error) {
			// The full profile: bad input is tried on every tool.
			cmd := palaceCmd(ctx, e.home, "serve", "--mcp", "--profile", "full")
			cmd.Stderr = logs
			return cmd, nil
		}))
	if err := tr.Start(ctx); err != nil {
		cancel()
		t.Fatalf("start palace serve --mcp: %v", err)
	}
	c := client.NewClient(tr, client.WithRootsHandler(badRoots{e.proj}),
		client.WithProtocolVersion(mcp.LATEST_LEGACY_PROTOCOL_VERSION))
	t.Cleanup(func() {
		c.Close()
		cancel()
		if l := logs.String(); strings.Contains(l, "panic") {
			t.Errorf("the MCP server panicked:\n%s", l)
		}
	})
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	ictx, icancel := context.WithTimeout(ctx, 30*time.Second)
	defer icancel()
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "palace-badinput", Version: "1"}
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	if _, err := c.Initialize(ictx, init); err != nil {
		t.Fatalf("initialize: %v\n%s", err, logs.String())
	}
	return &badMCP{c: c, logs: logs}
}

// call calls a tool with arguments exactly as given (wrong types included).
func (m *badMCP) call(t *testing.T, tool string, args map[string]any) badResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := m.c.CallTool(ctx, req)
	if err != nil {
		code := 0
		for c, sentinel := range map[int]error{mcp.INVALID_PARAMS: mcp.ErrInvalidParams, mcp.METHOD_NOT_FOUND: mcp.ErrMethodNotFound,
			mcp.INTERNAL_ERROR: mcp.ErrInternalError, mcp.INVALID_REQUEST: mcp.ErrInvalidRequest, mcp.PARSE_ERROR: mcp.ErrParseError} {
			if errors.Is(err, sentinel) {
				code = c
			}
		}
		if code == 0 {
			t.Fatalf("%s: %v (not a JSON-RPC error)\nserver log:\n%s", tool, err, m.logs.String())
		}
		return badResult{code: code, err: err.Error()}
	}
	var text string
	for _, c := range res.Content {
		if tc, ok := mcp.AsTextContent(c); ok {
			text += tc.Text
		}
	}
	if res.IsError {
		return badResult{code: badToolError, err: text}
	}
	return badResult{out: text}
}

func badMCPCases() []badCase {
	var outside string
	call := func(tool string, args map[string]any) func(*testing.T, *badEnv) badResult {
		return func(t *testing.T, e *badEnv) badResult { return e.mcp.call(t, tool, args) }
	}
	mkOutside := func(t *testing.T, e *badEnv) {
		outside = filepath.Join(e.root, "outside")
		clitest.WriteTree(t, outside, map[string]string{"secret.md": "tokmcpoutside secret\n"})
	}
	return []badCase{
		{
			name: "palace_remember with 10 MB content", front: "mcp", code: mcp.INVALID_PARAMS,
			want: `palace_remember: "content" is 10485760 bytes; the limit is 1048576`,
			act:  call("palace_remember", map[string]any{"content": strings.Repeat("x", 10<<20)}),
		},
		{
			name: "palace_remember content of the wrong type", front: "mcp", code: mcp.INVALID_PARAMS,
			want: `"content" must be a string, got the number 5`,
			act:  call("palace_remember", map[string]any{"content": 5}),
		},
		{
			name: "palace_search limit as a string", front: "mcp", code: mcp.INVALID_PARAMS,
			want: `"limit" must be an integer, got a string`,
			act:  call("palace_search", map[string]any{"query": "tokknown", "limit": "10"}),
		},
		{
			name: "palace_remember with an unknown parameter", front: "mcp", code: mcp.INVALID_PARAMS,
			want: `unknown parameter "bogus"`,
			act:  call("palace_remember", map[string]any{"content": "tokunknownparam", "bogus": true}),
		},
		{
			name: "palace_mine with ../.. traversal", front: "mcp", code: badToolError,
			want:  `^invalid input: path .*cannot be mined.*outside`,
			setup: mkOutside,
			act: func(t *testing.T, e *badEnv) badResult {
				if r := e.mcp.call(t, "palace_mine", map[string]any{"path": "../outside"}); r.code != badToolError || !strings.Contains(r.err, "cannot be mined") {
					t.Errorf("relative ../outside: %+v", r)
				}
				return e.mcp.call(t, "palace_mine", map[string]any{"path": e.proj + "/../outside"})
			},
		},
		{
			name: "palace_mine of a symlink out of the roots", front: "mcp", code: badToolError,
			want: `^invalid input: path .*cannot be mined.*outside`,
			setup: func(t *testing.T, e *badEnv) {
				mkOutside(t, e)
				link := filepath.Join(e.proj, "link-out")
				if _, err := os.Lstat(link); err != nil {
					if err := os.Symlink(outside, link); err != nil {
						t.Fatal(err)
					}
				}
			},
			act: call("palace_mine", map[string]any{"path": "link-out"}),
		},
		{
			name: "palace_mine of /etc", front: "mcp", code: badToolError,
			want: `^invalid input: path "/etc" cannot be mined`,
			act:  call("palace_mine", map[string]any{"path": "/etc"}),
		},
		{
			// The same rule as the CLI's mine: a wing remember could never
			// address is refused.
			name: "palace_mine into a wing with a slash", front: "mcp", code: badToolError,
			want: `^invalid input: .*wing`,
			act: func(t *testing.T, e *badEnv) badResult {
				return e.mcp.call(t, "palace_mine", map[string]any{"path": e.proj, "wing": "a/b"})
			},
		},
		{
			name: "palace_remember into a wing with a quote", front: "mcp", code: badToolError,
			want: `^invalid input: wing .*neither is allowed`,
			act:  call("palace_remember", map[string]any{"content": "tokmcpquote", "wing": `say "hi"`}),
		},
		{
			name: "palace_remember into a wing named with SQL", front: "mcp",
			act: call("palace_remember", map[string]any{"content": "tokmcpsql note", "wing": "'; DROP TABLE drawers; --"}),
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				badOnlyDrawers(t, added, 1, func(d badRow) bool { return d.str("wing") == "'; DROP TABLE drawers; --" })
				s := e.mcp.call(t, "palace_search", map[string]any{"query": "tokmcpsql", "wing": "'; DROP TABLE drawers; --"})
				if s.code != 0 || !strings.Contains(s.out, "**tokmcpsql** note") {
					t.Errorf("search in the SQL-named wing: %+v", s)
				}
			},
		},
		{
			name: "palace_taxonomy room with a slash", front: "mcp", code: badToolError,
			want: `^invalid input: room name "a/b" contains`,
			act:  call("palace_taxonomy", map[string]any{"action": "set", "wing": "proj", "room": "a/b", "keywords": []string{"x"}}),
		},
		{
			name: "palace_search with FTS and SQL syntax", front: "mcp",
			act: func(t *testing.T, e *badEnv) badResult {
				for _, q := range []string{`"unbalanced`, `NEAR(a b`, `'; DROP TABLE drawers; --`, `*`, `body:x`} {
					if r := e.mcp.call(t, "palace_search", map[string]any{"query": q}); r.code != 0 {
						t.Errorf("query %q: %+v", q, r)
					}
				}
				return e.mcp.call(t, "palace_search", map[string]any{"query": `"tokknown" OR readme* NEAR(`})
			},
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				if !strings.Contains(r.out, "tokknown") {
					t.Errorf("the known word inside FTS syntax found nothing: %.300s", r.out)
				}
				badNone(t, added)
			},
		},
		{
			name: "palace_kg dates out of range", front: "mcp", code: badToolError,
			want: `^invalid input: .*"10000-01-01" is not a date`,
			act: func(t *testing.T, e *badEnv) badResult {
				if r := e.mcp.call(t, "palace_kg", map[string]any{"action": "query", "entity": "alice", "as_of": "99999-99-99"}); r.code != badToolError || !strings.HasPrefix(r.err, "invalid input:") {
					t.Errorf("as_of 99999-99-99: %+v", r)
				}
				return e.mcp.call(t, "palace_kg", map[string]any{"action": "add", "subject": "Bob", "predicate": "knows", "object": "Carol", "valid_from": "10000-01-01"})
			},
		},
		{
			// As on the CLI: stored and readable, or refused as bad input.
			name: "palace_kg valid_to 9999-12-31", front: "mcp", code: badEither,
			act: call("palace_kg", map[string]any{"action": "add", "subject": "Dana", "predicate": "works_at", "object": "Initech",
				"valid_from": "2020-01-01", "valid_to": "9999-12-31"}),
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				switch {
				case r.code == 0:
					q := e.mcp.call(t, "palace_kg", map[string]any{"action": "query", "entity": "dana", "as_of": "2026-01-01"})
					if q.code != 0 || !strings.Contains(q.out, "Initech") {
						t.Errorf("the stored fact is not current in 2026: %+v", q)
					}
				case r.code == badToolError && strings.HasPrefix(r.err, "invalid input:"):
					badNone(t, added)
				default:
					t.Errorf("want the fact stored or refused as invalid input, got %+v", r)
					badNone(t, added)
				}
				if q := e.mcp.call(t, "palace_kg", map[string]any{"action": "timeline"}); q.code != 0 {
					t.Errorf("the graph cannot be read afterwards: %+v", q)
				}
			},
		},
	}
}

// ---- LSP ----

// badLSP is `palace serve --lsp` over stdio with a jsonrpc2 connection; the
// env's project is its only workspace folder.
type badLSP struct {
	conn jsonrpc2.Conn
	logs *badLog
}

// badPipes joins the server's stdout and stdin into one stream.
type badPipes struct {
	io.Reader
	io.WriteCloser
}

func badStartLSP(t *testing.T, e *badEnv) *badLSP {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logs := &badLog{}
	cmd := palaceCmd(ctx, e.home, "serve", "--lsp")
	cmd.Stderr = logs
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(badPipes{stdout, stdin}))
	// The server asks for progress tokens and watcher registrations; a
	// client answers them off the read loop.
	conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if _, ok := req.(*jsonrpc2.Call); ok {
			go func() { _ = reply(ctx, nil, nil) }()
		}
		return nil
	})
	l := &badLSP{conn: conn, logs: logs}
	t.Cleanup(func() {
		var res any
		if err := l.rpc("shutdown", nil, &res); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		conn.Notify(context.Background(), "exit", nil)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("palace serve --lsp: %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Errorf("palace serve --lsp did not exit")
		}
		cancel()
		conn.Close()
		if strings.Contains(logs.String(), "panic") {
			t.Errorf("the LSP server panicked:\n%s", logs.String())
		}
	})
	var res map[string]any
	err = l.rpc("initialize", map[string]any{
		"processId":        os.Getpid(),
		"clientInfo":       map[string]string{"name": "palace-badinput"},
		"workspaceFolders": []map[string]string{{"uri": (&url.URL{Scheme: "file", Path: e.proj}).String(), "name": "proj"}},
		"capabilities":     map[string]any{"window": map[string]any{"workDoneProgress": true}},
	}, &res)
	if err != nil {
		t.Fatalf("initialize: %v\n%s", err, logs.String())
	}
	if err := conn.Notify(ctx, "initialized", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	// Wait for the folder's first mine (a no-op: the CLI mined it).
	deadline := time.Now().Add(30 * time.Second)
	for {
		var st struct {
			Server struct {
				Folders []struct {
					State string `json:"state"`
				} `json:"folders"`
			} `json:"server"`
		}
		if err := l.rpc("palace/status", nil, &st); err != nil {
			t.Fatal(err)
		}
		idle := len(st.Server.Folders) == 1
		for _, f := range st.Server.Folders {
			idle = idle && f.State == "idle"
		}
		if idle {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the workspace folder is still busy: %+v\n%s", st, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return l
}

func (l *badLSP) rpc(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := l.conn.Call(ctx, method, params, result)
	return err
}

// call sends a request and returns its result or its wire error.
func (l *badLSP) call(t *testing.T, method string, params any) badResult {
	t.Helper()
	var res json.RawMessage
	err := l.rpc(method, params, &res)
	var we *jsonrpc2.Error
	switch {
	case errors.As(err, &we):
		return badResult{code: int(we.Code), err: we.Message}
	case err != nil:
		t.Fatalf("%s: %v\nserver log:\n%s", method, err, l.logs.String())
	}
	return badResult{out: string(res)}
}

func badLSPCases() []badCase {
	call := func(method string, params any) func(*testing.T, *badEnv) badResult {
		return func(t *testing.T, e *badEnv) badResult { return e.lsp.call(t, method, params) }
	}
	fileURI := func(p string) string { return (&url.URL{Scheme: "file", Path: p}).String() }
	return []badCase{
		{
			name: "unknown method", front: "lsp", code: int(jsonrpc2.MethodNotFound),
			want: `palace/bogus`,
			act:  call("palace/bogus", map[string]any{}),
		},
		{
			name: "palace/search query of the wrong type", front: "lsp", code: int(jsonrpc2.InvalidParams),
			want: `query: want a string`,
			act:  call("palace/search", map[string]any{"query": 5}),
		},
		{
			name: "palace/search params that are not an object", front: "lsp", code: int(jsonrpc2.InvalidParams),
			want: `params`,
			act:  call("palace/search", []string{"tokknown"}),
		},
		{
			name: "palace/remember without text or range", front: "lsp", code: int(jsonrpc2.InvalidParams),
			want: `text|empty`,
			act:  call("palace/remember", map[string]any{}),
		},
		{
			name: "palace/remember with 10 MB text", front: "lsp", code: int(jsonrpc2.InvalidParams),
			want: `1 MiB|limit`,
			act:  call("palace/remember", map[string]any{"text": strings.Repeat("y", 10<<20)}),
		},
		{
			// Selecting lines of a file reads it from disk when it is not
			// open; a file outside every workspace folder is not the
			// editor's to hand over that way.
			name: "palace/remember of a range outside the workspace", front: "lsp", code: int(jsonrpc2.InvalidParams),
			want: `(?i)outside|workspace`,
			setup: func(t *testing.T, e *badEnv) {
				clitest.WriteTree(t, filepath.Join(e.root, "outside"), map[string]string{"secret.md": "toklspoutside secret\nline two\n"})
			},
			act: func(t *testing.T, e *badEnv) badResult {
				return e.lsp.call(t, "palace/remember", map[string]any{
					"uri":   fileURI(filepath.Join(e.root, "outside", "secret.md")),
					"range": map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": 2, "character": 0}},
				})
			},
		},
		{
			name: "palace/remember of file:///../../etc/passwd", front: "lsp", code: int(jsonrpc2.InvalidParams),
			want: `(?i)outside|workspace`,
			act: call("palace/remember", map[string]any{
				"uri":   "file:///../../etc/passwd",
				"range": map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": 1, "character": 0}},
			}),
		},
		{
			name: "palace/remember into a wing with a slash", front: "lsp", code: int(jsonrpc2.InvalidParams),
			want: `wing .*neither is allowed`,
			act:  call("palace/remember", map[string]any{"text": "toklspslash", "wing": "../../etc"}),
		},
		{
			name: "palace/remember into a wing named with FTS syntax", front: "lsp",
			act: call("palace/remember", map[string]any{"text": "toklspfts note", "wing": "NEAR(a b* OR c"}),
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				badOnlyDrawers(t, added, 1, func(d badRow) bool { return d.str("wing") == "NEAR(a b* OR c" && d.str("kind") == "note" })
				s := e.lsp.call(t, "palace/search", map[string]any{"query": "toklspfts", "wing": "NEAR(a b* OR c"})
				if s.code != 0 || !strings.Contains(s.out, "toklspfts note") {
					t.Errorf("search in the FTS-named wing: %+v", s)
				}
			},
		},
		{
			name: "palace/search with FTS and SQL syntax", front: "lsp",
			act: func(t *testing.T, e *badEnv) badResult {
				for _, q := range []string{`"unbalanced`, `NEAR(a b`, `'; DROP TABLE drawers; --`, `*`, `body:x`} {
					if r := e.lsp.call(t, "palace/search", map[string]any{"query": q}); r.code != 0 {
						t.Errorf("query %q: %+v", q, r)
					}
				}
				return e.lsp.call(t, "palace/search", map[string]any{"query": `"tokknown" OR readme* NEAR(`})
			},
			check: func(t *testing.T, e *badEnv, r badResult, added []badRow) {
				if !strings.Contains(r.out, "tokknown") {
					t.Errorf("the known word inside FTS syntax found nothing: %.300s", r.out)
				}
				badNone(t, added)
			},
		},
	}
}
