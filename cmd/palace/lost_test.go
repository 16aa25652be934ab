//go:build unix

package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// lostExpect is testdata/lost/expect.json: what each front does with a
// lost or damaged palace.
type lostExpect struct {
	Tree struct {
		Files int `json:"files"`
	} `json:"tree"`
	Lost struct {
		Damages []struct {
			Name  string `json:"name"`
			State string `json:"state"`
		} `json:"damages"`
		lostCase
	} `json:"lost"`
	Half struct {
		lostCase
		Doctor struct {
			Exit int      `json:"exit"`
			Say  []string `json:"say"`
		} `json:"doctor"`
		Salvage struct {
			Exit       int  `json:"exit"`
			MinDrawers int  `json:"min_drawers"`
			Identical  bool `json:"identical"`
			DoctorOK   bool `json:"new_palace_doctor_ok"`
		} `json:"salvage"`
	} `json:"half"`
	NewHome struct {
		Commands [][]string `json:"commands"`
		Exit     int        `json:"exit"`
	} `json:"new_home"`
}

// lostCase is what every command does with one kind of damage.
type lostCase struct {
	Commands      [][]string `json:"commands"`
	LSPInitialize string     `json:"lsp_initialize"`
	Exit          int        `json:"exit"`
	Say           []string   `json:"say"`
	HomeUnchanged bool       `json:"home_unchanged"`
}

// lostTree writes n files of one short line each: one drawer per file.
func lostTree(t *testing.T, root string, n int) {
	t.Helper()
	words := strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi")
	rng := rand.New(rand.NewPCG(46, 4))
	for i := range n {
		var sb strings.Builder
		for range 24 {
			sb.WriteString(words[rng.IntN(len(words))])
			sb.WriteByte(' ')
		}
		fmt.Fprintf(&sb, "file%d\n", i)
		p := filepath.Join(root, fmt.Sprintf("d%02d", i%40), fmt.Sprintf("f%05d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// lostCopy copies the palace folder src to a new folder.
func lostCopy(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "palace")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o700)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// lostFiles is every file under dir with its bytes.
func lostFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	if err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		files[p] = string(b)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return files
}

// lostUnchanged fails the test for each file under a home that a command
// created, changed or removed.
func lostUnchanged(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for p, b := range before {
		if a, ok := after[p]; !ok {
			t.Errorf("%s removed %s", what, p)
		} else if a != b {
			t.Errorf("%s changed %s (%d bytes, was %d)", what, p, len(a), len(b))
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s created %s", what, p)
		}
	}
}

// lostCommands runs every command of c on home and checks its exit code,
// its message (c.Say and state) and that home is left as it was. The MCP
// server's start is one of the commands (stdin closed: it must refuse
// before reading any request); the LSP server is asked to initialize.
func lostCommands(t *testing.T, home, tree, state string, c lostCase) {
	t.Helper()
	before := lostFiles(t, home)
	into := filepath.Join(t.TempDir(), "new")
	for _, cmd := range c.Commands {
		args := make([]string, len(cmd))
		for i, a := range cmd {
			args[i] = strings.NewReplacer("NEW", into, "TREE", tree).Replace(a)
		}
		_, errOut, code := runPalace(t, home, args...)
		if code != c.Exit {
			t.Errorf("palace %s: exit %d, want %d; stderr %q", strings.Join(cmd, " "), code, c.Exit, errOut)
		}
		for _, say := range append([]string{state}, c.Say...) {
			if !strings.Contains(errOut, say) {
				t.Errorf("palace %s: stderr %q does not say %q", strings.Join(cmd, " "), errOut, say)
			}
		}
	}
	if c.LSPInitialize == "refused" {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		server := palaceCmd(ctx, home, "serve", "--lsp")
		stdin, err := server.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := server.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := server.Start(); err != nil {
			t.Fatal(err)
		}
		conn := jsonrpc2.NewConn(jsonrpc2.NewStream(pipeRW{stdout, stdin}))
		conn.Go(ctx, jsonrpc2.MethodNotFoundHandler)
		var res json.RawMessage
		_, err = conn.Call(ctx, "initialize", protocol.InitializeParams{
			ClientInfo:            &protocol.ClientInfo{Name: "palace-lost-test"},
			InitializationOptions: map[string]any{"vectors": false},
		}, &res)
		var we *jsonrpc2.Error
		if !errors.As(err, &we) || !strings.Contains(we.Message, state) || !strings.Contains(we.Message, "palace repair --into") {
			t.Errorf("lsp initialize: %v %s; want an error saying %q", err, res, state)
		}
		conn.Close()
		server.Wait()
		cancel()
	}
	if c.HomeUnchanged {
		lostUnchanged(t, "a refused command", before, lostFiles(t, home))
	}
	if _, err := os.Stat(into); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("repair --into created %s from a palace it refused (%v)", into, err)
	}
}

// Issue 46, class 4: a palace emptied, deleted or replaced while its audit
// log records committed writes was taken for a new one (status: 0
// drawers, exit 0; read commands created the schema; repair marked the
// committed writes failed), and one cut to half salvaged 0 drawers. Every
// front now says it is lost or damaged and changes nothing, and `repair
// --into` salvages what SQLite reads. testdata/lost/expect.json states
// the expected results.
func TestLostPalaceOnEveryFront(t *testing.T) {
	var want lostExpect
	b, err := os.ReadFile(filepath.Join("testdata", "lost", "expect.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	tree := filepath.Join(t.TempDir(), "tree")
	lostTree(t, tree, want.Tree.Files)
	orig := filepath.Join(t.TempDir(), "palace")
	if _, errOut, code := runPalace(t, orig, "mine", tree, "--no-vectors", "--no-progress"); code != 0 {
		t.Fatalf("mine: exit %d: %s", code, errOut)
	}
	drawers := crashDrawers(t, orig)
	if len(drawers) != want.Tree.Files {
		t.Fatalf("the palace holds %d drawers, want %d", len(drawers), want.Tree.Files)
	}
	// crashDrawers' reader leaves the WAL's side files; a palace at rest
	// has none.
	for _, p := range []string{"palace.db-wal", "palace.db-shm"} {
		os.Remove(filepath.Join(orig, p))
	}

	for _, d := range want.Lost.Damages {
		t.Run("lost "+d.Name, func(t *testing.T) {
			home := lostCopy(t, orig)
			db := filepath.Join(home, "palace.db")
			switch d.Name {
			case "empty":
				err = os.Truncate(db, 0)
			case "missing":
				err = os.Remove(db)
			case "no tables":
				err = lostEmptyDatabase(db)
			default:
				t.Fatalf("unknown damage %q", d.Name)
			}
			if err != nil {
				t.Fatal(err)
			}
			lostCommands(t, home, tree, d.State, want.Lost.lostCase)
		})
	}

	t.Run("half", func(t *testing.T) {
		home := lostCopy(t, orig)
		db := filepath.Join(home, "palace.db")
		fi, err := os.Stat(db)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(db, fi.Size()/2); err != nil {
			t.Fatal(err)
		}
		lostCommands(t, home, tree, "", want.Half.lostCase)

		before := lostFiles(t, home)
		_, errOut, code := runPalace(t, home, "doctor")
		if code != want.Half.Doctor.Exit {
			t.Errorf("doctor: exit %d, want %d: %s", code, want.Half.Doctor.Exit, errOut)
		}
		for _, say := range want.Half.Doctor.Say {
			if !strings.Contains(errOut, say) {
				t.Errorf("doctor: stderr %q does not say %q", errOut, say)
			}
		}

		into := filepath.Join(t.TempDir(), "salvaged")
		out, errOut, code := runPalace(t, home, "repair", "--into", into, "--json")
		lostUnchanged(t, "doctor and repair --into", before, lostFiles(t, home))
		if code != want.Half.Salvage.Exit {
			t.Errorf("repair --into: exit %d, want %d: %s", code, want.Half.Salvage.Exit, errOut)
		}
		var res struct {
			Added  map[string]int `json:"added"`
			Doctor struct {
				OK bool `json:"ok"`
			} `json:"doctor"`
			Unreadable []struct {
				Table string `json:"table"`
			} `json:"unreadable"`
		}
		clitest.Decode(t, "repair --into", out, &res)
		got := res.Added["drawer"]
		t.Logf("repair --into: %d of %d drawers salvaged from a palace cut to half", got, len(drawers))
		if got < want.Half.Salvage.MinDrawers || got >= len(drawers) {
			t.Errorf("repair --into salvaged %d of %d drawers, want at least %d", got, len(drawers), want.Half.Salvage.MinDrawers)
		}
		if res.Doctor.OK != want.Half.Salvage.DoctorOK || len(res.Unreadable) == 0 {
			t.Errorf("repair --into: new palace doctor ok %v, %d unreadable runs listed", res.Doctor.OK, len(res.Unreadable))
		}
		if want.Half.Salvage.Identical {
			salvaged := crashDrawers(t, into)
			for d := range salvaged {
				if drawers[d] == 0 {
					t.Errorf("salvaged drawer %s is not one of the palace's", d)
				}
			}
			if len(salvaged) != got {
				t.Errorf("the new palace holds %d drawers, the salvage said %d", len(salvaged), got)
			}
		}
		if entries, _ := filepath.Glob(filepath.Join(into, "salvage-*")); len(entries) != 0 {
			t.Errorf("the salvage left %v in the new palace", entries)
		}
	})

	t.Run("new home", func(t *testing.T) {
		home := filepath.Join(t.TempDir(), "fresh")
		for _, cmd := range want.NewHome.Commands {
			if _, errOut, code := runPalace(t, home, cmd...); code != want.NewHome.Exit {
				t.Errorf("palace %s in a new home: exit %d, want %d: %s", strings.Join(cmd, " "), code, want.NewHome.Exit, errOut)
			}
		}
	})
}

// lostEmptyDatabase puts a database without tables at path, in place of
// the palace.
func lostEmptyDatabase(path string) error {
	if err := os.Remove(path); err != nil {
		return err
	}
	db, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.Exec(`VACUUM`)
	return err
}
