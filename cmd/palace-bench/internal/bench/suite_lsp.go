package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/palace-dev/palace/core/store"
)

// SuiteLSP says what the lsp group measured on one `palace serve --lsp`.
type SuiteLSP struct {
	// PalaceDrawers is the palace the server ran on once its startup mines
	// were done: the mined source tree plus the save workspace.
	PalaceDrawers int    `json:"palace_drawers"`
	Workspace     string `json:"workspace"`
	// StartupMines are the server's first mine of each folder, as
	// palace/status reports them.
	StartupMines []startupMine `json:"startup_mines"`
	// SaveToIndex is didSave to palace/didIndex; SaveToSearchable goes on
	// until palace/search for the saved word returns the drawer.
	SaveToIndex      Latency `json:"save_to_index"`
	SaveToSearchable Latency `json:"save_to_searchable"`
	// Relevant is palace/relevant at random positions of open files of the
	// source tree, in its wing.
	Relevant         Latency `json:"relevant"`
	RelevantFiles    int     `json:"relevant_files"`
	RelevantWithHits int     `json:"relevant_with_hits"`
	// SaveCPUMs is the server's CPU time over the timed saves divided by
	// their count: each save's mine, the palace/search requests that poll
	// until the new word is found, and whatever the server did in the 150 ms
	// pauses between saves. RelevantCPUMs is its CPU time per timed
	// palace/relevant. Both are means (Linux; 0 elsewhere): what the work
	// costs whatever else the machine is doing.
	SaveCPUMs     float64 `json:"save_cpu_ms"`
	RelevantCPUMs float64 `json:"relevant_cpu_ms"`
}

// startupMine is a folder's first mine in the LSP server.
type startupMine struct {
	Path           string  `json:"path"`
	Wing           string  `json:"wing"`
	FilesSeen      int     `json:"files_seen"`
	FilesMined     int     `json:"files_mined"`
	DrawersAdded   int     `json:"drawers_added"`
	DrawersRemoved int     `json:"drawers_removed"`
	Seconds        float64 `json:"seconds"`
	Error          string  `json:"error,omitempty"`
}

// saveWing is the save workspace's wing.
const saveWing = "bench-save"

// searchHits is the part of a palace/search answer the suite reads.
type searchHits struct {
	Hits []struct {
		Source  string `json:"source"`
		Content string `json:"content"`
	} `json:"hits"`
}

// lsp runs one LSP server on the mined palace, with two workspace folders:
// the source tree (its wing, already mined, so the startup mine is a no-op)
// and a generated workspace whose big file is saved again and again.
func (s *suiteRun) lsp(ctx context.Context) error {
	files, err := s.relevantFiles(ctx, s.iters(30, 5))
	if err != nil {
		return err
	}
	ws := filepath.Join(s.tmp, "save-workspace")
	nfiles, bigLines := s.iters(300, 40), s.iters(2000, 400)
	big, lines, err := writeWorkspace(ws, nfiles, bigLines)
	if err != nil {
		return err
	}
	out := &SuiteLSP{
		Workspace: fmt.Sprintf("%d generated Go-like files of 60 lines and one of %d lines; each save rewrites line %d of the big one with a new word",
			nfiles, bigLines, bigLines/2),
		RelevantFiles: len(files),
	}

	c, err := startLSP(ctx, s.o.Exe, s.mined.home)
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			c.kill()
		}
	}()
	folders := []protocol.WorkspaceFolder{
		{URI: uri.File(s.o.Src).String(), Name: filepath.Base(s.o.Src)},
		{URI: uri.File(ws).String(), Name: filepath.Base(ws)},
	}
	var initRes json.RawMessage
	if err := c.call(ctx, "initialize", protocol.InitializeParams{
		ProcessID: int32(os.Getpid()), ClientInfo: &protocol.ClientInfo{Name: "palace-bench"},
		WorkspaceFolders: folders,
		InitializationOptions: map[string]any{
			"wings":   map[string]string{s.o.Src: s.mined.wing, ws: saveWing},
			"vectors": false,
		},
	}, &initRes); err != nil {
		return err
	}
	if err := c.notify(ctx, "initialized", protocol.InitializedParams{}); err != nil {
		return err
	}
	t := time.Now()
	if out.PalaceDrawers, out.StartupMines, err = c.waitMined(ctx, len(folders)); err != nil {
		return err
	}
	s.logf("   startup mines done in %.1fs; palace of %d drawers", time.Since(t).Seconds(), out.PalaceDrawers)
	if err := s.saves(ctx, c, big, lines, out); err != nil {
		return err
	}
	if err := s.relevant(ctx, c, files, out); err != nil {
		return err
	}
	const peakWhat = "peak resident set of the LSP server after the saves and relevant requests (VmHWM)"
	if peak, err := procStatusMB(c.pid(), "VmHWM"); err == nil {
		s.r.add("lsp.peak_rss_mb", "MB", peakWhat, peak, 0)
	} else {
		s.r.unavailable("lsp.peak_rss_mb", "MB", peakWhat, err.Error(), 0)
	}
	ok = true
	if err := c.stop(ctx); err != nil {
		return err
	}
	s.r.LSP = out
	return nil
}

// waitMined waits until every folder has been mined once and none is
// queued or mining, and returns the palace's drawer count and the mines.
func (c *lspClient) waitMined(ctx context.Context, folders int) (int, []startupMine, error) {
	deadline := time.Now().Add(10 * time.Minute)
	for {
		// The server reads the folders' states before it counts the
		// drawers, so once every folder is idle the count includes its mine.
		var st struct {
			Drawers int `json:"drawers"`
			Server  struct {
				Folders []struct {
					Path  string       `json:"path"`
					Wing  string       `json:"wing"`
					State string       `json:"state"`
					Mines int          `json:"mines"`
					Last  *startupMine `json:"last"`
				} `json:"folders"`
			} `json:"server"`
		}
		if err := c.call(ctx, "palace/status", nil, &st); err != nil {
			return 0, nil, err
		}
		done := len(st.Server.Folders) == folders
		var mines []startupMine
		for _, f := range st.Server.Folders {
			if f.Last != nil && f.Last.Error != "" {
				return 0, nil, c.failed("mine "+f.Path, errors.New(f.Last.Error))
			}
			done = done && f.Mines > 0 && f.State == "idle" && f.Last != nil
			if f.Last != nil {
				m := *f.Last
				m.Path, m.Wing = f.Path, f.Wing
				mines = append(mines, m)
			}
		}
		if done {
			return st.Drawers, mines, nil
		}
		if time.Now().After(deadline) {
			return 0, nil, c.failed("startup mines", fmt.Errorf("not done after 10 minutes: %+v", st.Server.Folders))
		}
		select {
		case <-ctx.Done():
			return 0, nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// saves times save-to-searchable: write a new word into the big file, send
// didSave, wait for its palace/didIndex, then search for the word until the
// big file's drawer comes back. Saves are 150 ms apart, past the server's
// 100 ms burst window, so each is mined on its own.
func (s *suiteRun) saves(ctx context.Context, c *lspClient, big string, lines []string, out *SuiteLSP) error {
	n := s.iters(60, 12)
	u := uri.File(big)
	var toIndex, toSearch []float64
	var cpu cpuMeter
	for i := range n + 1 { // the first save is a warm-up
		if i == 1 {
			cpu.start(c.pid())
		}
		edited := make([]string, len(lines))
		copy(edited, lines)
		word := fmt.Sprintf("savemarker%05d", i)
		edited[len(lines)/2] = "\t// " + word + " edited here"
		time.Sleep(150 * time.Millisecond)
		t0 := time.Now()
		if err := os.WriteFile(big, []byte(strings.Join(edited, "\n")+"\n"), 0o644); err != nil {
			return fmt.Errorf("save %s: %w", big, err)
		}
		m := c.mark()
		if err := c.notify(ctx, "textDocument/didSave", protocol.DidSaveTextDocumentParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u},
		}); err != nil {
			return err
		}
		raw, err := c.waitNote(ctx, m, "palace/didIndex", func(p json.RawMessage) bool {
			var d struct {
				URI string `json:"uri"`
			}
			return json.Unmarshal(p, &d) == nil && d.URI == string(u)
		}, 30*time.Second)
		if err != nil {
			return err
		}
		t1 := time.Now()
		var d struct {
			Drawers int    `json:"drawers"`
			Skipped string `json:"skipped"`
			Error   string `json:"error"`
		}
		if err := json.Unmarshal(raw, &d); err != nil {
			return fmt.Errorf("palace/didIndex: %w", err)
		}
		if d.Skipped != "" || d.Error != "" || d.Drawers == 0 {
			return c.failed("save "+big, fmt.Errorf("palace/didIndex: %s", raw))
		}
		for {
			var res searchHits
			if err := c.call(ctx, "palace/search", map[string]any{"query": word, "mode": "lexical", "wing": saveWing, "limit": 5}, &res); err != nil {
				return err
			}
			if slicesContainsSource(res, big, word) {
				break
			}
			if time.Since(t1) > 10*time.Second {
				return c.failed("save "+big, fmt.Errorf("%s not searchable 10 s after palace/didIndex", word))
			}
			time.Sleep(time.Millisecond)
		}
		if i > 0 {
			toIndex = append(toIndex, msBetween(t0, t1))
			toSearch = append(toSearch, msBetween(t0, time.Now()))
		}
	}
	out.SaveToIndex, out.SaveToSearchable = latency(toIndex, 0), latency(toSearch, 0)
	out.SaveCPUMs = cpu.perRequest(n)
	s.logf("   save: to didIndex p50 %.1f p95 %.1f ms, to searchable p50 %.1f p95 %.1f ms (%d saves, server CPU %.1f ms each)",
		out.SaveToIndex.P50, out.SaveToIndex.P95, out.SaveToSearchable.P50, out.SaveToSearchable.P95, n, out.SaveCPUMs)
	what := fmt.Sprintf("save of a %d-line file until palace/search finds the new word (palace of %d drawers)", len(lines), out.PalaceDrawers)
	s.r.add("save_to_searchable.p50_ms", "ms", what, out.SaveToSearchable.P50, 0)
	s.r.add("save_to_searchable.p95_ms", "ms", what, out.SaveToSearchable.P95, TargetSaveP95Ms)
	return nil
}

func slicesContainsSource(res searchHits, source, word string) bool {
	for _, h := range res.Hits {
		if h.Source == source && strings.Contains(h.Content, word) {
			return true
		}
	}
	return false
}

// relevant opens the files and times palace/relevant at random positions
// in them, after a few untimed requests.
func (s *suiteRun) relevant(ctx context.Context, c *lspClient, files []string, out *SuiteLSP) error {
	type doc struct {
		uri   protocol.DocumentURI
		lines []string
	}
	var docs []doc
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("open %s: %w", f, err)
		}
		u := uri.File(f)
		lang := protocol.LanguageIdentifier("plaintext")
		if strings.HasSuffix(f, ".go") {
			lang = protocol.GoLanguage
		}
		if err := c.notify(ctx, "textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: u, LanguageID: lang, Version: 1, Text: string(text)}}); err != nil {
			return err
		}
		docs = append(docs, doc{u, strings.Split(string(text), "\n")})
	}
	n, warm := s.iters(300, 30), s.iters(10, 3)
	rng := rand.New(rand.NewPCG(DefaultVectorSeed, 4))
	var ms []float64
	var cpu cpuMeter
	hits, withHits := 0, 0
	for i := range warm + n {
		if i == warm {
			cpu.start(c.pid())
		}
		d := docs[rng.IntN(len(docs))]
		line := rng.IntN(len(d.lines))
		char := 0
		if l := d.lines[line]; len(l) > 2 {
			char = 1 + rng.IntN(len(l)-1)
		}
		var res searchHits
		t := time.Now()
		if err := c.call(ctx, "palace/relevant", protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: d.uri},
			Position:     protocol.Position{Line: uint32(line), Character: uint32(char)},
		}, &res); err != nil {
			return err
		}
		if i < warm {
			continue
		}
		ms = append(ms, msBetween(t, time.Now()))
		hits += len(res.Hits)
		if len(res.Hits) > 0 {
			withHits++
		}
	}
	if withHits == 0 {
		return fmt.Errorf("palace/relevant found nothing in %d requests", n)
	}
	out.Relevant, out.RelevantWithHits = latency(ms, hits), withHits
	out.RelevantCPUMs = cpu.perRequest(n)
	s.logf("   relevant: p50 %.1f p95 %.1f ms (%d requests, %d with hits, server CPU %.1f ms each)", out.Relevant.P50, out.Relevant.P95, n, withHits, out.RelevantCPUMs)
	what := fmt.Sprintf("palace/relevant at random positions of %d open files of the source tree (palace of %d drawers)", len(files), out.PalaceDrawers)
	s.r.add("relevant.p50_ms", "ms", what, out.Relevant.P50, 0)
	s.r.add("relevant.p95_ms", "ms", what, out.Relevant.P95, TargetRelevantP95Ms)
	return nil
}

// relevantFiles picks n mined files of the source tree, spread evenly over
// it in path order: Go files when there are any, of 20 lines to 256 KB.
func (s *suiteRun) relevantFiles(ctx context.Context, n int) ([]string, error) {
	st, err := store.Open(s.mined.home)
	if err != nil {
		return nil, err
	}
	srcs, err := st.Sources(ctx, s.mined.wing, "")
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	var goFiles, other []string
	for path, src := range srcs {
		if src.Kind != store.KindFile || src.Size > 256<<10 || src.Drawers < 2 {
			continue
		}
		if strings.HasSuffix(path, ".go") {
			goFiles = append(goFiles, path)
		} else {
			other = append(other, path)
		}
	}
	pool := goFiles
	if len(pool) == 0 {
		pool = other
	}
	if len(pool) == 0 {
		return nil, fmt.Errorf("no mined file of %s of two drawers or more to open", s.o.Src)
	}
	sort.Strings(pool)
	var out []string
	for i := range min(n, len(pool)) {
		out = append(out, pool[i*len(pool)/min(n, len(pool))])
	}
	return out, nil
}

// writeWorkspace writes files Go-like files of 60 lines in 20 packages and
// big/big.go of bigLines lines, and returns big's path and lines.
func writeWorkspace(dir string, files, bigLines int) (string, []string, error) {
	rng := rand.New(rand.NewPCG(DefaultVectorSeed, 5))
	g := newSynth(VectorsOptions{Dim: 1, Wings: 1, Seed: DefaultVectorSeed})
	write := func(rel string, lines []string) error {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("workspace: %w", err)
		}
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			return fmt.Errorf("workspace: %w", err)
		}
		return nil
	}
	for i := range files {
		if err := write(fmt.Sprintf("pkg%02d/file%03d.go", i%20, i), g.code(rng, 60)); err != nil {
			return "", nil, err
		}
	}
	lines := g.code(rng, bigLines)
	if err := write("big/big.go", lines); err != nil {
		return "", nil, err
	}
	return filepath.Join(dir, "big", "big.go"), lines, nil
}

// code is n lines of Go-like text over the synthetic vocabulary.
func (g *synth) code(rng *rand.Rand, n int) []string {
	w := func() string { return g.words[rng.IntN(len(g.words))] }
	lines := []string{"package bench"}
	for len(lines) < n {
		switch rng.IntN(6) {
		case 0:
			lines = append(lines, fmt.Sprintf("func %s(%s %s) %s {", w(), w(), w(), w()))
		case 1:
			lines = append(lines, fmt.Sprintf("\t// %s %s the %s before %s.", w(), w(), w(), w()))
		case 2:
			lines = append(lines, fmt.Sprintf("\tif %s := %s.%s(%s); %s != nil {", w(), w(), w(), w(), w()))
		case 3:
			lines = append(lines, "\t}")
		default:
			lines = append(lines, fmt.Sprintf("\t%s := %s(%s, %s)", w(), w(), w(), w()))
		}
	}
	return lines
}

// cpuMeter measures a server's CPU time over a run of requests.
type cpuMeter struct {
	pid  int
	from time.Duration
	err  error
}

func (m *cpuMeter) start(pid int) {
	m.pid = pid
	m.from, m.err = procCPU(pid)
}

// perRequest is the CPU time since start divided by n, in ms; 0 when the
// platform does not say.
func (m *cpuMeter) perRequest(n int) float64 {
	if m.err != nil || n == 0 {
		return 0
	}
	to, err := procCPU(m.pid)
	if err != nil {
		return 0
	}
	return float64((to - m.from).Microseconds()) / 1000 / float64(n)
}
