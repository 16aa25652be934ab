//go:build unix

// Crash safety (issue #11): SIGKILL the real binary while it mines and
// while it serves MCP writes, then check with `palace doctor` that nothing
// is damaged, that mining again converges on exactly what a clean mine
// gives, and that the audit log claims no write that is not in the palace.
// Every random choice comes from one seed, logged; PALACE_CRASH_SEED=N
// replays a run. PALACE_LONG=1 kills more often, in a bigger tree.
package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	sqlitevec "github.com/asg017/sqlite-vec-go-bindings/cgo"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	_ "github.com/mattn/go-sqlite3"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// crashSeed is PALACE_CRASH_SEED when set, else a fresh seed; logged so a
// failure can be replayed.
func crashSeed(t *testing.T) uint64 {
	t.Helper()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("PALACE_CRASH_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("PALACE_CRASH_SEED=%q: %v", s, err)
		}
		seed = n
	}
	t.Logf("seed %d (replay with PALACE_CRASH_SEED=%d)", seed, seed)
	return seed
}

func crashLong() bool { return os.Getenv("PALACE_LONG") != "" }

// crashCmd is palaceCmd with the repository's onnxruntime library when the
// environment names none (make build installs it), so the vector phase
// runs on the same backend as in use.
func crashCmd(ctx context.Context, home string, args ...string) *exec.Cmd {
	cmd := palaceCmd(ctx, home, args...)
	if os.Getenv("PALACE_ORT_LIB") == "" {
		if lib, err := filepath.Abs(filepath.Join("..", "..", ".cache", "ort-lib", "libonnxruntime.so")); err == nil {
			if _, err := os.Stat(lib); err == nil {
				cmd.Env = append(cmd.Env, "PALACE_ORT_LIB="+lib)
			}
		}
	}
	return cmd
}

// ---- doctor ----

type crashCheck struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

type crashDoctorOut struct {
	OK        bool         `json:"ok"`
	Integrity string       `json:"integrity"`
	Checks    []crashCheck `json:"checks"`
	Embedding struct {
		Model   string `json:"model"`
		Vectors int    `json:"vectors"`
		Pending int    `json:"pending"`
	} `json:"embedding"`
}

// crashDoctor runs doctor --json: exit 0 when all is well, 1 when a check
// fails, and the five checks in order either way.
func crashDoctor(t *testing.T, home string) crashDoctorOut {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, errOut, code := clitest.Run(t, crashCmd(ctx, home, "doctor", "--json"))
	var d crashDoctorOut
	clitest.Decode(t, "doctor --json", out, &d)
	var names []string
	for _, c := range d.Checks {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, ","); got != "integrity,fts,metadata,vectors,audit,kg" {
		t.Fatalf("doctor checks %q, want integrity,fts,metadata,vectors,audit,kg", got)
	}
	switch {
	case d.OK && code != 0, !d.OK && code != 1:
		t.Fatalf("doctor: ok %v but exit %d (stderr %q)", d.OK, code, errOut)
	case !d.OK && !strings.Contains(errOut, "run `palace repair`"):
		t.Errorf("doctor failed without pointing to repair: %q", errOut)
	}
	return d
}

func (d crashDoctorOut) check(name string) crashCheck {
	for _, c := range d.Checks {
		if c.Name == name {
			return c
		}
	}
	return crashCheck{Name: name, Detail: "missing"}
}

func (d crashDoctorOut) failing() []string {
	var out []string
	for _, c := range d.Checks {
		if !c.OK {
			out = append(out, c.Name)
		}
	}
	return out
}

// crashAfterKill is what a SIGKILL may leave: integrity, fts and vectors
// whole (vectors possibly pending, which their check passes), and at most
// an audit line of the killed write not yet corrected.
func crashAfterKill(t *testing.T, d crashDoctorOut, what string) {
	t.Helper()
	for _, name := range []string{"integrity", "fts", "vectors"} {
		if c := d.check(name); !c.OK {
			t.Fatalf("%s: check %s failed: %s", what, name, c.Detail)
		}
	}
	if c := d.check("audit"); !c.OK && !strings.Contains(c.Detail, "not yet corrected") {
		t.Fatalf("%s: audit check failed: %s", what, c.Detail)
	}
}

// ---- the database, read directly ----

// crashOpenDB opens a palace's database directly: read-only to look, so
// the test never changes what it checks; writable only to damage it.
func crashOpenDB(t *testing.T, home string, writable bool) *sql.DB {
	t.Helper()
	mode := "ro"
	if writable {
		mode = "rw"
	}
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(home, "palace.db")+"?_busy_timeout=10000&mode="+mode)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// crashDrawers is the multiset of live drawers, each as its id, wing,
// room, kind, source, line range and content hash.
func crashDrawers(t *testing.T, home string) map[string]int {
	t.Helper()
	db := crashOpenDB(t, home, false)
	defer db.Close()
	rows, err := db.Query(`SELECT id, wing, room, kind, source, line_start, line_end, content_hash FROM drawers WHERE deleted_at IS NULL`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var id, wing, room, kind, src, hash string
		var ls, le int
		if err := rows.Scan(&id, &wing, &room, &kind, &src, &ls, &le, &hash); err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprintf("%s %s/%s %s %s:%d-%d %s", id, wing, room, kind, src, ls, le, hash)]++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func crashCount(t *testing.T, home, query string, args ...any) int {
	t.Helper()
	db := crashOpenDB(t, home, false)
	defer db.Close()
	var n int
	if err := db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// crashDiff lists how got differs from want, a few lines at most.
func crashDiff(got, want map[string]int) string {
	var lines []string
	for k, n := range got {
		if n != want[k] {
			lines = append(lines, fmt.Sprintf("%dx (want %d) %s", n, want[k], k))
		}
	}
	for k, n := range want {
		if _, ok := got[k]; !ok {
			lines = append(lines, fmt.Sprintf("missing (want %d) %s", n, k))
		}
	}
	sort.Strings(lines)
	if len(lines) > 8 {
		lines = append(lines[:8], fmt.Sprintf("… %d more", len(lines)-8))
	}
	return strings.Join(lines, "\n")
}

// ---- mining ----

// crashWriteTree writes n Markdown files over 40 folders: most of one or two
// short lines (one small drawer each, so a few thousand drawers span
// several of mine's write batches yet embed quickly), one in fifty of 20
// to 80 lines (several drawers).
func crashWriteTree(t *testing.T, root string, n int, rng *rand.Rand) {
	t.Helper()
	words := strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega")
	var sb strings.Builder
	for i := 0; i < n; i++ {
		sb.Reset()
		lines := 1 + rng.IntN(2)
		if i%50 == 0 {
			lines = 20 + rng.IntN(61)
		}
		for l := 0; l < lines; l++ {
			for w := 0; w < 6; w++ {
				sb.WriteString(words[rng.IntN(len(words))])
				sb.WriteByte(' ')
			}
			fmt.Fprintf(&sb, "file%d line%d\n", i, l)
		}
		p := filepath.Join(root, fmt.Sprintf("d%02d", i%40), fmt.Sprintf("f%05d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type crashMineSummary struct {
	Seconds     float64 `json:"seconds"`
	Interrupted bool    `json:"interrupted"`
	Vectors     *struct {
		Model    string  `json:"model"`
		Embedded int     `json:"embedded"`
		Pending  int     `json:"pending"`
		Seconds  float64 `json:"seconds"`
	} `json:"vectors"`
}

func crashMineArgs(model, tree string) []string {
	return []string{"--model-dir", model, "mine", tree, "--json", "--no-progress"}
}

// crashMineOK mines to the end and expects a whole mine with its vectors.
func crashMineOK(t *testing.T, home, model, tree string) crashMineSummary {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, errOut, code := clitest.Run(t, crashCmd(ctx, home, crashMineArgs(model, tree)...))
	if code != 0 {
		t.Fatalf("mine into %s: exit %d, stderr %q", home, code, errOut)
	}
	var s crashMineSummary
	clitest.Decode(t, "mine", out, &s)
	if s.Interrupted || s.Vectors == nil || s.Vectors.Model == "" || s.Vectors.Pending != 0 {
		t.Fatalf("mine into %s did not finish with vectors: %s", home, out)
	}
	return s
}

// crashKillAt waits delay, then SIGKILLs the mine.
func crashKillAt(delay time.Duration) func(*exec.Cmd, <-chan struct{}) string {
	return func(cmd *exec.Cmd, exited <-chan struct{}) string {
		select {
		case <-time.After(delay):
		case <-exited:
		}
		cmd.Process.Signal(syscall.SIGKILL)
		return fmt.Sprintf("after %v", delay.Round(time.Microsecond))
	}
}

// crashKillOnWrite SIGKILLs the mine a moment (0 to 4 ms) after the nth
// line it appends to the audit log: the line is written inside the write
// transaction just before its commit, so the kill lands on either side of
// the commit. Without an nth write before the deadline it kills anyway.
func crashKillOnWrite(home string, nth int, after, deadline time.Duration) func(*exec.Cmd, <-chan struct{}) string {
	log := filepath.Join(home, "audit", "write_log.jsonl")
	size := func() int64 {
		fi, err := os.Stat(log)
		if err != nil {
			return 0
		}
		return fi.Size()
	}
	return func(cmd *exec.Cmd, exited <-chan struct{}) string {
		start := time.Now()
		last, seen := size(), 0
		tick := time.NewTicker(300 * time.Microsecond)
		defer tick.Stop()
		for seen < nth && time.Since(start) < deadline {
			select {
			case <-exited:
				return "it ended before its write"
			case <-tick.C:
			}
			if n := size(); n != last {
				last, seen = n, seen+1
			}
		}
		if seen < nth {
			cmd.Process.Signal(syscall.SIGKILL)
			return fmt.Sprintf("after %v, having seen %d of %d writes", time.Since(start).Round(time.Millisecond), seen, nth)
		}
		time.Sleep(after)
		cmd.Process.Signal(syscall.SIGKILL)
		return fmt.Sprintf("%v after write %d, at %v", after, nth, time.Since(start).Round(time.Millisecond))
	}
}

// crashLiveDrawers counts the live drawers and those without a vector.
func crashLiveDrawers(t *testing.T, home string) (live, pending int) {
	t.Helper()
	return crashCount(t, home, `SELECT count(*) FROM drawers WHERE deleted_at IS NULL`),
		crashCount(t, home, `SELECT count(*) FROM drawers WHERE deleted_at IS NULL AND vec_model IS NULL`)
}

// SIGKILL `palace mine` at random moments in its startup, its walk over the
// files, its writes and its vector fill, several times per palace. After
// every kill doctor must find nothing damaged, the palace must hold only
// drawers a clean mine holds, once each, and no vector committed before
// must be lost. Mining to the end must then give exactly the clean mine's
// drawers and sources, with doctor all ok.
func TestCrashMineSIGKILL(t *testing.T) {
	seed := crashSeed(t)
	rng := rand.New(rand.NewPCG(seed, 0x11))
	// Mine commits a batch per 2,000 drawers and source rows, so this
	// tree (about 5,000) takes three transactions and a kill can land
	// between them.
	files, kills, perPalace := 2400, 50, 8
	if crashLong() {
		files, kills, perPalace = 20000, 200, 8
	}
	model := tinyModel(t)
	tree := filepath.Join(t.TempDir(), "crashtree")
	crashWriteTree(t, tree, files, rng)

	// The clean mine: what every crashed palace must end up holding, and
	// how long each phase takes on this machine now.
	ref := t.TempDir()
	start := time.Now()
	sum := crashMineOK(t, ref, model, tree)
	total := time.Since(start)
	want := crashDrawers(t, ref)
	wantSources := crashCount(t, ref, `SELECT count(*) FROM sources`)
	lexical := time.Duration(sum.Seconds * float64(time.Second))
	embedding := time.Duration(sum.Vectors.Seconds * float64(time.Second))
	startup := max(total-lexical-embedding, 20*time.Millisecond)
	t.Logf("clean mine: %d files, %d drawers, %v in all: about %v starting, %v walking and writing, %v embedding",
		files, len(want), total.Round(time.Millisecond), startup.Round(time.Millisecond),
		lexical.Round(time.Millisecond), embedding.Round(time.Millisecond))
	if d := crashDoctor(t, ref); !d.OK {
		t.Fatalf("doctor on the clean mine: %+v", d.Checks)
	}

	var (
		home                   string
		inPalace               int  // kills in the current palace
		embedded               int  // drawers with a vector in it after the last kill
		complete               bool // the current palace holds everything
		partialWrites, midFill int  // kills that left part of the drawers, part of the vectors
		finished, auditOpen    int  // mines that ended first; kills that left an audit line to correct
	)
	// finish mines the current palace to the end and compares it with the
	// clean mine.
	finish := func(what string) {
		crashMineOK(t, home, model, tree)
		if got := crashDrawers(t, home); crashDiff(got, want) != "" {
			t.Fatalf("%s: after the final mine the drawers differ from a clean mine's:\n%s", what, crashDiff(got, want))
		}
		if n := crashCount(t, home, `SELECT count(*) FROM sources`); n != wantSources {
			t.Fatalf("%s: %d sources after the final mine, a clean mine has %d", what, n, wantSources)
		}
		if d := crashDoctor(t, home); !d.OK {
			t.Fatalf("%s: doctor after the final mine: %+v", what, d.Checks)
		}
	}
	for k := 0; k < kills; k++ {
		// A kill aimed at the writes needs drawers left to write: in a
		// palace that holds them all (an earlier kill came after the
		// writes) the mine has no write phase, and such kills alone once
		// left a run with no kill mid-write.
		full := false
		if k%4 == 2 && home != "" && inPalace > 0 {
			live, _ := crashLiveDrawers(t, home)
			full = live == len(want)
		}
		if home == "" || inPalace == perPalace || complete || full {
			if home != "" {
				finish(fmt.Sprintf("the palace before kill %d (seed %d)", k, seed))
			}
			home, inPalace, embedded, complete = t.TempDir(), 0, 0, false
		}
		inPalace++
		// Aim at one phase, estimating what is left of each from what the
		// palace already holds.
		live, pending := 0, 0 // a new palace has no database yet
		if inPalace > 1 {
			live, pending = crashLiveDrawers(t, home)
		}
		leftLex := time.Duration(float64(lexical) * float64(len(want)-live) / float64(len(want)))
		leftVec := time.Duration(float64(embedding) * float64(len(want)-live+pending) / float64(len(want)))
		var phase string
		var kill func(*exec.Cmd, <-chan struct{}) string
		switch k % 4 {
		case 0:
			phase, kill = "startup", crashKillAt(time.Duration(rng.Float64()*float64(startup)))
		case 1:
			phase, kill = "walk", crashKillAt(startup+time.Duration(rng.Float64()*float64(max(leftLex, 20*time.Millisecond))))
		case 2:
			phase = "write"
			kill = crashKillOnWrite(home, 1+rng.IntN(2), time.Duration(rng.IntN(4000))*time.Microsecond, startup+2*leftLex+time.Second)
		default:
			phase, kill = "embedding", crashKillAt(startup+leftLex+time.Duration(rng.Float64()*float64(max(leftVec, 50*time.Millisecond))))
		}

		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		cmd := crashCmd(ctx, home, crashMineArgs(model, tree)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		var err error
		go func() { err = cmd.Wait(); close(exited) }()
		when := kill(cmd, exited)
		<-exited
		cancel()
		ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
		killed := ws.Signaled() && ws.Signal() == syscall.SIGKILL
		what := fmt.Sprintf("kill %d (seed %d, %s phase, %s)", k, seed, phase, when)
		switch {
		case killed:
		case err == nil:
			finished++
		default:
			t.Fatalf("%s: the mine ended on its own with %v: stderr %q", what, err, errb.String())
		}

		if _, err := os.Stat(filepath.Join(home, "palace.db")); os.IsNotExist(err) {
			// Killed before it created the palace: there is nothing to
			// check, and doctor (a read) must not create one either.
			if _, errOut, code := runPalace(t, home, "doctor"); code != 1 || !strings.Contains(errOut, "no palace") {
				t.Fatalf("%s: doctor of a home without a palace: exit %d, %q", what, code, errOut)
			}
			inPalace = 0 // the next mine starts this palace afresh
			continue
		}
		d := crashDoctor(t, home)
		crashAfterKill(t, d, what)
		got := crashDrawers(t, home)
		for key, c := range got {
			if c != 1 || want[key] != 1 {
				t.Fatalf("%s: the palace holds %dx a drawer a clean mine holds %d times: %s", what, c, want[key], key)
			}
		}
		live, pending = crashLiveDrawers(t, home)
		if live-pending < embedded {
			t.Errorf("%s: %d drawers have a vector, %d did before the kill: committed vectors were lost", what, live-pending, embedded)
		}
		embedded = live - pending
		switch {
		case live < len(want):
			partialWrites++
		case pending > 0:
			midFill++
		}
		if !d.check("audit").OK {
			auditOpen++
		}
		complete = live == len(want) && pending == 0
		t.Logf("%s: killed %v; %d of %d drawers, %d without a vector; audit ok %v", what, killed, live, len(want), pending, d.check("audit").OK)
	}
	finish(fmt.Sprintf("the last palace (seed %d)", seed))
	t.Logf("%d kills: %d left part of the drawers, %d part of the vectors, %d an audit line to correct; %d mines ended first",
		kills, partialWrites, midFill, auditOpen, finished)
	if partialWrites == 0 || midFill == 0 {
		t.Errorf("the kills did not reach both phases (%d mid-write, %d mid-embedding): the timing estimate is off", partialWrites, midFill)
	}
}

// ---- the MCP server ----

// crashServer is `palace serve --mcp` driven by mcp-go's stdio client.
type crashServer struct {
	c   *client.Client
	mu  sync.Mutex
	cmd *exec.Cmd
}

func crashStartServer(t *testing.T, home, model string) *crashServer {
	t.Helper()
	s := &crashServer{}
	var err error
	s.c, err = client.NewStdioMCPClientWithOptions(palaceBin, nil, nil,
		transport.WithCommandFunc(func(ctx context.Context, _ string, _, _ []string) (*exec.Cmd, error) {
			cmd := crashCmd(ctx, home, "--model-dir", model, "serve", "--mcp", "--wing", "crash")
			s.mu.Lock()
			s.cmd = cmd
			s.mu.Unlock()
			return cmd, nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var req mcp.InitializeRequest
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "crash-test", Version: "1"}
	if _, err := s.c.Initialize(ctx, req); err != nil {
		s.c.Close()
		t.Fatalf("initialize: %v", err)
	}
	return s
}

func (s *crashServer) kill() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cmd.Process.Signal(syscall.SIGKILL)
}

// remember stores a note; ok is false when the call got no answer (the
// server died under it), and id is the new drawer when it did.
func (s *crashServer) remember(t *testing.T, note string) (id string, ok bool, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var req mcp.CallToolRequest
	req.Params.Name = "palace_remember"
	req.Params.Arguments = map[string]any{"content": note, "wing": "crash", "force": true}
	res, err := s.c.CallTool(ctx, req)
	if err != nil {
		t.Logf("palace_remember got no answer: %v", err)
		return "", false, nil
	}
	if res.IsError || len(res.Content) == 0 {
		return "", false, fmt.Errorf("palace_remember failed: %+v", res.Content)
	}
	var r struct {
		Added bool   `json:"added"`
		ID    string `json:"id"`
	}
	if err := json.Unmarshal([]byte(mcp.GetTextFromContent(res.Content[0])), &r); err != nil {
		return "", false, fmt.Errorf("palace_remember answer: %w", err)
	}
	if !r.Added || r.ID == "" {
		return "", false, fmt.Errorf("palace_remember did not add a forced unique note: %+v", r)
	}
	return r.ID, true, nil
}

type crashAuditLine struct {
	Seq    int64    `json:"seq"`
	Op     string   `json:"op"`
	IDs    []string `json:"ids"`
	Status string   `json:"status"`
}

// SIGKILL `palace serve --mcp` while a client stores notes through it: every
// note the server confirmed is in the palace exactly once, no note is in it
// twice, doctor finds nothing damaged, and after the next write the audit
// log claims no note that the palace lacks.
func TestCrashServerSIGKILL(t *testing.T) {
	seed := crashSeed(t)
	rng := rand.New(rand.NewPCG(seed, 0x22))
	rounds := 10
	if crashLong() {
		rounds = 40
	}
	model := tinyModel(t)
	home := t.TempDir()
	// A mined folder gives the palace a vector index, so each note is also
	// embedded at once: the kills land in vector writes too.
	seedDir := filepath.Join(t.TempDir(), "seed")
	clitest.WriteTree(t, seedDir, map[string]string{"a.md": "the parser leaks goroutines\n", "b.md": "query vectors are cached\n"})
	crashMineOK(t, home, model, seedDir)

	confirmed := map[string]string{} // note -> drawer id
	var sent []string
	for r := 0; r < rounds; r++ {
		s := crashStartServer(t, home, model)
		delay := time.Duration(rng.IntN(300)) * time.Millisecond
		var timer *time.Timer
		n := 0
		for {
			// No trailing space: Remember stores the note trimmed.
			note := fmt.Sprintf("crash note %d of round %d, seed %d:%s", n, r, seed, strings.Repeat(" remember", 1+rng.IntN(5)))
			n++
			sent = append(sent, note)
			id, ok, err := s.remember(t, note)
			if err != nil {
				t.Fatalf("round %d: %v", r, err)
			}
			if !ok {
				if timer == nil {
					t.Fatalf("round %d: the first note got no answer", r)
				}
				break
			}
			confirmed[note] = id
			// The first note loads the model; the kill lands among the
			// writes that follow.
			if timer == nil {
				timer = time.AfterFunc(delay, func() {
					if err := s.kill(); err != nil {
						t.Logf("round %d: kill: %v", r, err)
					}
				})
			}
		}
		s.c.Close()
		d := crashDoctor(t, home)
		crashAfterKill(t, d, fmt.Sprintf("round %d (seed %d)", r, seed))
		t.Logf("round %d: SIGKILL %v after the first note, %d notes confirmed, audit ok %v", r, delay, n-1, d.check("audit").OK)
	}

	db := crashOpenDB(t, home, false)
	inDoubt := 0 // sent, no answer, but written: killed between commit and reply
	for _, note := range sent {
		var n int
		var ids string
		if err := db.QueryRow(`SELECT count(*), coalesce(group_concat(id), '') FROM drawers WHERE content = ? AND deleted_at IS NULL`, note).Scan(&n, &ids); err != nil {
			t.Fatal(err)
		}
		id, ok := confirmed[note]
		switch {
		case ok && (n != 1 || ids != id):
			t.Errorf("confirmed note %q (%s) is in the palace %d times (%s)", note, id, n, ids)
		case n > 1:
			t.Errorf("note %q is in the palace %d times", note, n)
		case !ok && n == 1:
			inDoubt++
		}
	}

	// The next write corrects what the last kill left in the audit log.
	s := crashStartServer(t, home, model)
	if _, ok, err := s.remember(t, fmt.Sprintf("crash note after the kills, seed %d", seed)); err != nil || !ok {
		t.Fatalf("remember after the kills: %v %v", ok, err)
	}
	if err := s.c.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	if d := crashDoctor(t, home); !d.OK {
		t.Fatalf("doctor after the next write: %+v", d.Checks)
	}
	out, errOut, code := runPalace(t, home, "audit", "--json", "--op", "note.add")
	if code != 0 {
		t.Fatalf("audit: exit %d %q", code, errOut)
	}
	var lines []crashAuditLine
	clitest.Decode(t, "audit --json", out, &lines)
	logged := map[string]bool{}
	for _, l := range lines {
		if l.Status != "applied" {
			continue
		}
		for _, id := range l.IDs {
			logged[id] = true
			if n := crashCount(t, home, `SELECT count(*) FROM drawers WHERE id = ?`, id); n != 1 {
				t.Errorf("audit line seq %d says note %s was applied, but the palace holds it %d times", l.Seq, id, n)
			}
		}
	}
	for note, id := range confirmed {
		if !logged[id] {
			t.Errorf("confirmed note %q (%s) has no applied audit line", note, id)
		}
	}
	t.Logf("%d rounds: %d notes sent, %d confirmed, %d written but unanswered", rounds, len(sent), len(confirmed), inDoubt)
}

// ---- doctor and repair on the binary ----

// Damage every derived index through SQLite: doctor names each broken
// check and exits 1; repair mends them all without touching a drawer;
// doctor is happy again and search finds what it lost.
func TestCrashDoctorRepairEndToEnd(t *testing.T) {
	model := tinyModel(t)
	home, dir := t.TempDir(), t.TempDir()
	clitest.WriteTree(t, dir, map[string]string{
		"a.md": "tokzephyr winds blow over the parser\n",
		"b.md": "tokquartz crystals in the cache\n",
		"c.md": "filler about build scripts\n",
	})
	crashMineOK(t, home, model, dir)
	if d := crashDoctor(t, home); !d.OK {
		t.Fatalf("doctor on a fresh palace: %+v", d.Checks)
	}
	if r := searchOK(t, home, "tokzephyr"); len(r.Hits) != 1 {
		t.Fatalf("tokzephyr before the damage: %d hits", len(r.Hits))
	}
	before := crashDrawers(t, home)

	sqlitevec.Auto() // the vec0 module, to reach the vector table
	db := crashOpenDB(t, home, true)
	for _, q := range []string{
		// tokzephyr's drawer leaves the full-text index.
		`INSERT INTO drawers_fts (drawers_fts, rowid, body, scope, symbols, path, parts)
			SELECT 'delete', seq, body, scope, symbols, path, parts FROM drawers_search WHERE body LIKE '%tokzephyr%'`,
		// tokquartz's drawer loses its vector.
		`DELETE FROM vec_drawers WHERE drawer_seq = (SELECT seq FROM drawers WHERE content LIKE '%tokquartz%')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// A write that logged itself and died before its commit.
	var committed int64
	if err := db.QueryRow(`SELECT value FROM meta WHERE key = 'audit.seq'`).Scan(&committed); err != nil {
		t.Fatal(err)
	}
	db.Close()
	f, err := os.OpenFile(filepath.Join(home, "audit", "write_log.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, `{"seq":%d,"time":"2026-01-01T00:00:00Z","actor":"mcp","op":"note.add","ids":["d_ghost"],"status":"applied"}`+"\n", committed+1)
	f.Close()

	if r := searchOK(t, home, "tokzephyr"); len(r.Hits) != 0 {
		t.Fatalf("the damage did not take: tokzephyr still found")
	}
	out, errOut, code := runPalace(t, home, "doctor")
	if code != 1 || !strings.Contains(errOut, "fts, vectors, audit failed; run `palace repair`") {
		t.Errorf("doctor on the damaged palace: exit %d, stderr %q", code, errOut)
	}
	oneLine(t, errOut)
	for _, l := range []string{"FAIL  fts", "FAIL  vectors", "FAIL  audit", "ok    integrity"} {
		if !strings.Contains(out, l) {
			t.Errorf("doctor output lacks %q:\n%s", l, out)
		}
	}
	d := crashDoctor(t, home)
	if got := strings.Join(d.failing(), ","); got != "fts,vectors,audit" {
		t.Errorf("doctor --json failing %q, want fts,vectors,audit: %+v", got, d.Checks)
	}
	if !strings.Contains(d.check("fts").Detail, "1 live drawers missing from the index") ||
		!strings.Contains(d.check("vectors").Detail, "1 drawers marked as embedded have no vector") ||
		!strings.Contains(d.check("audit").Detail, "1 uncommitted writes not yet corrected") {
		t.Errorf("doctor details: %+v", d.Checks)
	}
	if !strings.HasPrefix(d.Integrity, "fts: ") {
		t.Errorf("integrity field %q, want the fts failure", d.Integrity)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, errOut, code = clitest.Run(t, crashCmd(ctx, home, "--model-dir", model, "repair", "--json"))
	if code != 0 {
		t.Fatalf("repair: exit %d, stderr %q, stdout %s", code, errOut, out)
	}
	var rep struct {
		AuditCorrected  int  `json:"audit_corrected"`
		Reindexed       bool `json:"reindexed"`
		FTSRebuilt      bool `json:"fts_rebuilt"`
		VectorsDropped  int  `json:"vectors_dropped"`
		VectorsUnmarked int  `json:"vectors_unmarked"`
		Vectors         struct {
			Embedded int `json:"embedded"`
			Pending  int `json:"pending"`
		} `json:"vectors"`
		OK     bool         `json:"ok"`
		Checks []crashCheck `json:"checks"`
	}
	clitest.Decode(t, "repair --json", out, &rep)
	if rep.AuditCorrected != 1 || rep.Reindexed || !rep.FTSRebuilt || rep.VectorsDropped != 0 || rep.VectorsUnmarked != 1 ||
		rep.Vectors.Embedded != 1 || rep.Vectors.Pending != 0 || !rep.OK || len(rep.Checks) != 6 {
		t.Errorf("repair --json: %s", out)
	}
	if d := crashDoctor(t, home); !d.OK || d.Embedding.Pending != 0 || d.Embedding.Vectors != 3 {
		t.Errorf("doctor after repair: %+v", d)
	}
	if r := searchOK(t, home, "tokzephyr"); len(r.Hits) != 1 {
		t.Errorf("tokzephyr after repair: %d hits", len(r.Hits))
	}
	if got := crashDrawers(t, home); crashDiff(got, before) != "" {
		t.Errorf("repair changed drawers:\n%s", crashDiff(got, before))
	}
	out, _, _ = runPalace(t, home, "audit", "--json", "--op", "repair")
	var lines []crashAuditLine
	clitest.Decode(t, "audit --json", out, &lines)
	var steps []string
	for _, l := range lines {
		steps = append(steps, l.Status+":"+strings.Join(l.IDs, ","))
	}
	if got := strings.Join(steps, " "); got != "applied:audit applied:fts applied:vectors" {
		t.Errorf("repair's audit lines %q, want one applied line per step", got)
	}
	// Nothing left to do.
	out, errOut, code = runPalace(t, home, "--model-dir", model, "repair")
	if code != 0 || !strings.HasPrefix(out, "nothing to repair\n") {
		t.Errorf("second repair: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
