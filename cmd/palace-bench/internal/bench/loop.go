package bench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/extract"
	"github.com/palace-dev/palace/core/lang"
	"github.com/palace-dev/palace/core/mine"
)

// The targets for the memory loop.
const (
	TargetContinuity      = 0.95
	TargetLatestFirst     = 1.0
	TargetNoise           = 0.0
	TargetLeaks           = 0
	TargetHookP95Ms       = 300.0
	TargetExtractPrecison = 0.9
	TargetExtractRecall   = 0.7
)

// LoopOptions configure `palace bench loop`.
type LoopOptions struct {
	// Exe is the palace binary whose hooks and MCP server are driven.
	Exe       string
	Scenarios []LoopScenario
	// Talk is the labelled set extraction is scored on, TalkName its
	// name; nil is the held-back part of core/extract's set.
	Talk     []extract.TalkLine
	TalkName string
	// Progress gets a line per scenario; nil for none.
	Progress io.Writer
}

// LoopReport is what `palace bench loop` measured.
type LoopReport struct {
	Exe         string  `json:"exe"`
	Cores       int     `json:"cores"`
	Seconds     float64 `json:"seconds"`
	Scenarios   int     `json:"scenarios"`
	Sessions    int     `json:"sessions"`
	Turns       int     `json:"turns"`
	Saves       int     `json:"saves"`
	SavesFailed int     `json:"saves_failed"`
	// Continuity is the share of expected items the next SessionStart
	// showed, within its budget, on lines that are not noise.
	Continuity LoopShare `json:"continuity"`
	// LatestFirst is the share of [newer, older] pairs shown newer
	// first (or the older left out).
	LatestFirst LoopShare `json:"latest_first"`
	// Noise is the share of SessionStart characters on lines of tool-call
	// JSON, raw tool output or raw code, in scenarios that saved notes.
	Noise LoopNoise `json:"noise"`
	// Leaks are items of another project a SessionStart showed.
	Leaks LoopLeaks `json:"cross_project_leaks"`
	// SearchFirst is the share of searches whose first hit held the item
	// expected.
	SearchFirst LoopShare    `json:"search_first"`
	MCPStart    LoopMCPStart `json:"mcp_start"`
	Hooks       LoopHooks    `json:"hooks"`
	Extraction  LoopExtract  `json:"extraction"`
	// StartChars is the mean length of the SessionStart texts checked.
	StartChars float64      `json:"start_chars_mean"`
	Results    []LoopResult `json:"results"`
}

// LoopShare is hits out of a count, and its target.
type LoopShare struct {
	Value  float64 `json:"value"`
	Hits   int     `json:"hits"`
	Of     int     `json:"of"`
	Target float64 `json:"target"`
}

func (s *LoopShare) finish(target float64) {
	s.Target, s.Value = target, 1
	if s.Of > 0 {
		s.Value = float64(s.Hits) / float64(s.Of)
	}
}

// LoopNoise is noisy characters out of all.
type LoopNoise struct {
	Value      float64 `json:"value"`
	NoisyChars int     `json:"noisy_chars"`
	Chars      int     `json:"chars"`
	Target     float64 `json:"target"`
}

// LoopLeaks counts another project's items shown, of those checked.
type LoopLeaks struct {
	Shown  int `json:"shown"`
	Of     int `json:"of"`
	Target int `json:"target"`
}

// LoopHooks are the hook runs' wall times, process start to exit, by the
// agent's event name; P95 is over Stop and SessionStart together.
type LoopHooks struct {
	Events map[string]LoopTimes `json:"events"`
	P95    float64              `json:"stop_sessionstart_p95_ms"`
	Target float64              `json:"target_ms"`
}

// LoopTimes summarises wall times in ms.
type LoopTimes struct {
	Runs int     `json:"runs"`
	P50  float64 `json:"p50_ms"`
	P95  float64 `json:"p95_ms"`
	Max  float64 `json:"max_ms"`
}

func loopTimes(ms []float64) LoopTimes {
	l := latency(ms, 0)
	return LoopTimes{Runs: l.Queries, P50: l.P50, P95: l.P95, Max: l.Max}
}

// LoopExtract is extraction's precision and recall on a labelled set.
type LoopExtract struct {
	Set string `json:"set"`
	extract.TalkScore
	Precision       float64 `json:"precision"`
	Recall          float64 `json:"recall"`
	TargetPrecision float64 `json:"target_precision"`
	TargetRecall    float64 `json:"target_recall"`
}

// LoopResult is one scenario's run.
type LoopResult struct {
	Name     string   `json:"name"`
	Shapes   []string `json:"shapes"`
	Sessions int      `json:"sessions"`
	Turns    int      `json:"turns"`
	Saves    int      `json:"saves"`
	// FailedSaves are the saves the server refused, with its answer.
	FailedSaves []string `json:"failed_saves,omitempty"`
	// Blocks counts the hook answers that held the agent to ask it to
	// save (Stop, PreCompact).
	Blocks int `json:"blocks"`
	// NoHooks says which agents install gave no hooks, and why.
	NoHooks []string `json:"no_hooks,omitempty"`
	// Complaints are the first lines hooks wrote on stderr.
	Complaints []string    `json:"hook_complaints,omitempty"`
	Checks     []LoopCheck `json:"checks"`
	Seconds    float64     `json:"seconds"`
}

// LoopCheck is one expectation's outcome: the SessionStart text and what
// it showed, in order, and the searches.
type LoopCheck struct {
	Project    string `json:"project"`
	Agent      string `json:"agent"`
	Source     string `json:"source"`
	Text       string `json:"text"`
	Chars      int    `json:"chars"`
	NoisyChars int    `json:"noisy_chars"`
	// NoisyLines are the lines counted as noise.
	NoisyLines []string `json:"noisy_lines,omitempty"`
	Expected   int      `json:"expected"`
	Shown      int      `json:"shown"`
	Missing    []string `json:"missing,omitempty"`
	Pairs      int      `json:"pairs"`
	InOrder    int      `json:"in_order"`
	Misordered []string `json:"misordered,omitempty"`
	Absent     int      `json:"absent"`
	Leaked     []string `json:"leaked,omitempty"`
	Searches   int      `json:"searches"`
	SearchHits int      `json:"search_hits"`
	// SearchMisses name the query, the item and what came first instead.
	SearchMisses []string `json:"search_misses,omitempty"`
}

// Loop runs every scenario on its own fresh palace and user home, then
// measures the MCP start cost and extraction, and sums it all up.
func Loop(ctx context.Context, o LoopOptions) (*LoopReport, error) {
	if len(o.Scenarios) == 0 {
		return nil, errors.New("bench loop: no scenarios")
	}
	t0 := time.Now()
	tmp, err := os.MkdirTemp("", "palace-bench-loop-")
	if err != nil {
		return nil, fmt.Errorf("bench loop: %w", err)
	}
	defer os.RemoveAll(tmp)
	r := &LoopReport{Exe: o.Exe, Cores: runtime.NumCPU(), Scenarios: len(o.Scenarios)}
	ms := map[string][]float64{}
	for i, s := range o.Scenarios {
		st := time.Now()
		m, err := newLoopMachine(o.Exe, filepath.Join(tmp, fmt.Sprintf("s%02d", i)))
		if err != nil {
			return nil, err
		}
		res, err := runLoopScenario(ctx, m, s)
		if err != nil {
			return nil, fmt.Errorf("scenario %s: %w", s.Name, err)
		}
		res.Seconds = time.Since(st).Seconds()
		for ev, xs := range m.ms {
			ms[ev] = append(ms[ev], xs...)
		}
		r.Results = append(r.Results, res)
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "bench loop: %-28s %s (%.1f s)\n", s.Name, res.line(), res.Seconds)
		}
		// Each scenario's palace is its own: none is kept to fill the disk.
		if err := os.RemoveAll(m.home); err != nil {
			return nil, fmt.Errorf("bench loop: %w", err)
		}
	}
	m, err := newLoopMachine(o.Exe, filepath.Join(tmp, "start"))
	if err != nil {
		return nil, err
	}
	if r.MCPStart, err = m.mcpStart(ctx); err != nil {
		return nil, fmt.Errorf("bench loop: MCP start cost: %w", err)
	}
	if r.Extraction, err = loopExtraction(o.Talk, o.TalkName); err != nil {
		return nil, err
	}
	r.sum(ms)
	r.Seconds = time.Since(t0).Seconds()
	return r, nil
}

// sum adds the scenarios' results up into the report's measures.
func (r *LoopReport) sum(ms map[string][]float64) {
	checks := 0
	for _, res := range r.Results {
		r.Sessions += res.Sessions
		r.Turns += res.Turns
		r.Saves += res.Saves
		r.SavesFailed += len(res.FailedSaves)
		saved := res.Saves > len(res.FailedSaves)
		for _, c := range res.Checks {
			checks++
			r.StartChars += float64(c.Chars)
			r.Continuity.Hits += c.Shown
			r.Continuity.Of += c.Expected
			r.LatestFirst.Hits += c.InOrder
			r.LatestFirst.Of += c.Pairs
			r.Leaks.Shown += len(c.Leaked)
			r.Leaks.Of += c.Absent
			r.SearchFirst.Hits += c.SearchHits
			r.SearchFirst.Of += c.Searches
			if saved {
				r.Noise.NoisyChars += c.NoisyChars
				r.Noise.Chars += c.Chars
			}
		}
	}
	if checks > 0 {
		r.StartChars /= float64(checks)
	}
	r.Continuity.finish(TargetContinuity)
	r.LatestFirst.finish(TargetLatestFirst)
	r.SearchFirst.finish(1)
	r.Leaks.Target = TargetLeaks
	r.Noise.Target = TargetNoise
	if r.Noise.Chars > 0 {
		r.Noise.Value = float64(r.Noise.NoisyChars) / float64(r.Noise.Chars)
	}
	r.Hooks = LoopHooks{Events: map[string]LoopTimes{}, Target: TargetHookP95Ms}
	for ev, xs := range ms {
		r.Hooks.Events[ev] = loopTimes(xs)
	}
	r.Hooks.P95 = loopTimes(append(slices.Clone(ms["Stop"]), ms["SessionStart"]...)).P95
}

func (res LoopResult) line() string {
	var shown, exp, ord, pairs, leaks, hits, searches, noisy, chars int
	for _, c := range res.Checks {
		shown, exp, ord, pairs = shown+c.Shown, exp+c.Expected, ord+c.InOrder, pairs+c.Pairs
		leaks, hits, searches = leaks+len(c.Leaked), hits+c.SearchHits, searches+c.Searches
		noisy, chars = noisy+c.NoisyChars, chars+c.Chars
	}
	return fmt.Sprintf("shown %d/%d, in order %d/%d, leaks %d, search first %d/%d, noise %d/%d chars, saves failed %d/%d, blocks %d",
		shown, exp, ord, pairs, leaks, hits, searches, noisy, chars, len(res.FailedSaves), res.Saves, res.Blocks)
}

// loopExtraction scores extraction on lines, or on the held-back set.
func loopExtraction(lines []extract.TalkLine, name string) (LoopExtract, error) {
	if lines == nil {
		var err error
		if lines, err = extract.HeldBackTalk(); err != nil {
			return LoopExtract{}, fmt.Errorf("bench loop: the held-back set: %w", err)
		}
		name = "core/extract/testdata/talk_heldback.jsonl (held back)"
	}
	sc, _, err := extract.ScoreTalk(extract.New(nil), lines)
	if err != nil {
		return LoopExtract{}, fmt.Errorf("bench loop: extraction: %w", err)
	}
	return LoopExtract{Set: name, TalkScore: sc, Precision: sc.Precision(), Recall: sc.Recall(),
		TargetPrecision: TargetExtractPrecison, TargetRecall: TargetExtractRecall}, nil
}

// loopSessionID is a session id of the form agents use (a UUID), the
// same for the same scenario and session on every run.
func loopSessionID(scenario string, n int) string {
	h := sha256.Sum256([]byte(fmt.Sprintf("%s/%d", scenario, n)))
	x := hex.EncodeToString(h[:16])
	return x[:8] + "-" + x[8:12] + "-4" + x[13:16] + "-8" + x[17:20] + "-" + x[20:32]
}

// loopRun is one scenario being played.
type loopRun struct {
	m     *loopMachine
	s     LoopScenario
	res   LoopResult
	dirs  map[string]string // project name to its folder
	wings map[string]string // project name to its wing
	refs  noiseRefs
	// last is the last session played, for a check after its compaction.
	last struct{ agent, id, transcript, cwd string }
}

func runLoopScenario(ctx context.Context, m *loopMachine, s LoopScenario) (LoopResult, error) {
	run := &loopRun{m: m, s: s, res: LoopResult{Name: s.Name, Shapes: s.Shapes}, dirs: map[string]string{}, wings: map[string]string{}}
	if err := run.projects(); err != nil {
		return run.res, err
	}
	for _, ss := range s.Sessions {
		if err := m.install(ctx, agentOr(ss.Agent)); err != nil {
			return run.res, err
		}
	}
	for _, e := range s.Expect {
		if err := m.install(ctx, agentOr(e.Agent)); err != nil {
			return run.res, err
		}
	}
	for agent, why := range m.noHooks {
		run.res.NoHooks = append(run.res.NoHooks, agent+": "+why)
	}
	slices.Sort(run.res.NoHooks)
	for i, ss := range s.Sessions {
		if err := run.session(ctx, i, ss); err != nil {
			return run.res, fmt.Errorf("session %d: %w", i+1, err)
		}
	}
	for i, e := range s.Expect {
		c, err := run.check(ctx, i, e)
		if err != nil {
			return run.res, fmt.Errorf("expect %d: %w", i+1, err)
		}
		run.res.Checks = append(run.res.Checks, c)
	}
	run.res.Complaints = m.complaints
	return run.res, nil
}

// projects writes the project folders side by side.
func (run *loopRun) projects() error {
	names := make([]string, 0, len(run.s.Projects))
	for name := range run.s.Projects {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p := run.s.Projects[name]
		dir := filepath.Join(run.m.work, name)
		files := map[string]string{}
		if p.Wing != "" {
			files[mine.ConfigName] = "wing: " + p.Wing + "\n"
		} else {
			// A git work tree is what makes the Stop hook mine a
			// project that has no palace.yaml.
			files[filepath.Join(".git", "HEAD")] = "ref: refs/heads/main\n"
		}
		for f, content := range p.Files {
			files[f] = content
			// Code, not prose (README.md, notes.txt), is what a
			// SessionStart must not quote.
			if ext := filepath.Ext(f); ext != "" && lang.ByExt(ext).Kind != lang.Prose {
				run.refs.add(content)
			}
		}
		for f, content := range files {
			path := filepath.Join(dir, f)
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return fmt.Errorf("bench loop: %w", err)
			}
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				return fmt.Errorf("bench loop: %w", err)
			}
		}
		wing, err := mine.WingOfDir(dir)
		if err != nil {
			return fmt.Errorf("bench loop: project %s: %w", name, err)
		}
		run.dirs[name], run.wings[name] = dir, wing
	}
	return nil
}

// hookInput is the JSON the agent sends its hook for event, in the shape
// of the recorded inputs in cmd/palace/testdata/hooks/AGENT/.
func hookInput(agent, event, session, transcript, cwd string, extra map[string]any) map[string]any {
	in := map[string]any{"session_id": session, "transcript_path": transcript, "cwd": cwd, "hook_event_name": event}
	if agent == loopCodex {
		in["model"] = "gpt-5-codex"
		if event == "SessionStart" || event == "Stop" {
			in["permission_mode"] = "default"
		}
	} else if event == "Stop" {
		in["permission_mode"] = "default"
	}
	for k, v := range extra {
		in[k] = v
	}
	return in
}

// session plays one session: SessionStart, then each turn written to the
// transcript with its saves made through MCP and a Stop after it, the
// compactions, and SessionEnd when the agent has that hook.
func (run *loopRun) session(ctx context.Context, n int, ss LoopSession) error {
	m, agent, cwd := run.m, agentOr(ss.Agent), filepath.Join(run.dirs[ss.Project], ss.Dir)
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		return fmt.Errorf("bench loop: %w", err)
	}
	id := loopSessionID(run.s.Name, n)
	tr, err := newLoopTranscript(m.user, agent, id, cwd)
	if err != nil {
		return err
	}
	run.res.Sessions++
	run.res.Turns += len(ss.Turns)
	run.last.agent, run.last.id, run.last.transcript, run.last.cwd = agent, id, tr.path, cwd
	startPath := any(tr.path)
	if agent == loopCodex {
		startPath = nil // Codex sends none before its first turn
	}
	hook := func(event string, extra map[string]any) (map[string]any, error) {
		in := hookInput(agent, event, id, tr.path, cwd, extra)
		if event == "SessionStart" && extra["source"] == loopSourceStart {
			in["transcript_path"] = startPath
		}
		a, _, err := m.hook(ctx, agent, event, cwd, in)
		return a, err
	}
	if _, err := hook("SessionStart", map[string]any{"source": loopSourceStart}); err != nil {
		return err
	}
	var c *loopMCP
	defer func() {
		if c != nil {
			c.kill()
		}
	}()
	for t, turn := range ss.Turns {
		if turn.User != "" {
			if err := tr.user(turn.User); err != nil {
				return err
			}
		}
		for _, tl := range turn.Tools {
			input, result := tl.Input, tl.Result
			if tl.File != "" {
				result = run.s.Projects[ss.Project].Files[tl.File]
				if tl.Name == "Read" {
					result = readResult(result)
				}
				if input == nil {
					input = map[string]any{"file_path": filepath.Join(run.dirs[ss.Project], tl.File)}
				}
			}
			run.refs.add(result)
			if err := tr.tool(tl.Name, input, result); err != nil {
				return err
			}
		}
		for _, sv := range turn.Saves {
			if c == nil {
				if c, _, err = m.startMCP(ctx, agent, cwd); err != nil {
					return err
				}
			}
			tool, args := sv.call(run.wings[ss.Project])
			run.res.Saves++
			out, toolErr, err := c.call(ctx, tool, args)
			if err != nil {
				return err
			}
			result := string(out)
			if toolErr != "" {
				result = toolErr
				run.res.FailedSaves = append(run.res.FailedSaves, fmt.Sprintf("%s %s: %s", tool, describe(args), firstLine(toolErr)))
			}
			if err := tr.tool(mcpToolName(tool), args, result); err != nil {
				return err
			}
		}
		if turn.Reply != "" {
			if err := tr.reply(turn.Reply); err != nil {
				return err
			}
		}
		stop := map[string]any{"stop_hook_active": false}
		if agent == loopCodex {
			stop["turn_id"], stop["last_assistant_message"] = fmt.Sprint(t+1), turn.Reply
		}
		a, err := hook("Stop", stop)
		if err != nil {
			return err
		}
		if blocks(a) {
			// The agent saves as asked (its saves are the scenario's)
			// and stops again, with the hook marked active.
			run.res.Blocks++
			stop["stop_hook_active"] = true
			if _, err := hook("Stop", stop); err != nil {
				return err
			}
		}
		if turn.Compact != "" {
			pre := map[string]any{"trigger": turn.Compact}
			if agent == loopCodex {
				pre["turn_id"] = fmt.Sprint(t + 1)
			} else {
				pre["custom_instructions"] = ""
			}
			a, err := hook("PreCompact", pre)
			if err != nil {
				return err
			}
			if blocks(a) {
				// A held /compact is typed again.
				run.res.Blocks++
				if _, err := hook("PreCompact", pre); err != nil {
					return err
				}
			}
			if _, err := hook("SessionStart", map[string]any{"source": loopSourceComp}); err != nil {
				return err
			}
		}
	}
	if c != nil {
		err := c.stop()
		c = nil
		if err != nil {
			return err
		}
	}
	_, err = hook("SessionEnd", map[string]any{"reason": "other"})
	return err
}

// call is the MCP tool and arguments of a save, $WING replaced by wing.
func (sv LoopSave) call(wing string) (string, map[string]any) {
	tool, args, action := "palace_remember", sv.Remember, ""
	switch {
	case sv.Diary != nil:
		tool, args, action = "palace_diary", sv.Diary, "write"
	case sv.KG != nil:
		tool, args, action = "palace_kg", sv.KG, "add"
	}
	out := map[string]any{}
	if action != "" {
		out["action"] = action
	}
	for k, v := range args {
		if s, ok := v.(string); ok {
			v = strings.ReplaceAll(s, loopWingVar, wing)
		}
		out[k] = v
	}
	return tool, out
}

// describe names a save's call by what matters in a miss: whether it
// named a wing, and the start of what it saved.
func describe(args map[string]any) string {
	what := ""
	for _, k := range []string{"content", "text", "subject"} {
		if s, ok := args[k].(string); ok {
			what = s
			break
		}
	}
	if len([]rune(what)) > 40 {
		what = string([]rune(what)[:40]) + "…"
	}
	wing := "without a wing"
	if w, ok := args["wing"].(string); ok {
		wing = "with wing " + w
	}
	return fmt.Sprintf("%s (%q)", wing, what)
}

// check starts the next session in the expectation's project (or the
// last session again after its compaction) and scores its SessionStart
// text, then runs the expectation's searches through MCP.
func (run *loopRun) check(ctx context.Context, n int, e LoopExpect) (LoopCheck, error) {
	m, agent, cwd := run.m, agentOr(e.Agent), filepath.Join(run.dirs[e.Project], e.Dir)
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		return LoopCheck{}, fmt.Errorf("bench loop: %w", err)
	}
	c := LoopCheck{Project: e.Project, Agent: agent, Source: loopSourceStart}
	id := loopSessionID(run.s.Name+"/check", n)
	var transcript any = filepath.Join(m.user, "not-yet", id+".jsonl")
	if agent == loopCodex {
		transcript = nil
	}
	if e.Source == loopSourceComp {
		c.Source = loopSourceComp
		agent, id, transcript, cwd = run.last.agent, run.last.id, run.last.transcript, run.last.cwd
		c.Agent = agent
	}
	in := hookInput(agent, "SessionStart", id, "", cwd, map[string]any{"source": c.Source, "transcript_path": transcript})
	answer, ran, err := m.hook(ctx, agent, "SessionStart", cwd, in)
	if err != nil {
		return c, err
	}
	if !ran {
		c.Text = "(no SessionStart hook for " + agent + ")"
	} else {
		c.Text = contextOf(answer)
	}
	c.NoisyChars, c.Chars = run.refs.noise(c.Text)
	// An item counts as shown on a clean line only: one that surfaces
	// inside a tool call's JSON was cut there by chance, and is not what
	// the agent is meant to read. Leaks count on every line.
	lines := strings.Split(c.Text, "\n")
	clean := make([]string, len(lines))
	for i, l := range lines {
		if run.refs.noisy(l) {
			c.NoisyLines = append(c.NoisyLines, l)
		} else {
			clean[i] = l
		}
	}
	c.Expected = len(e.Start)
	for _, id := range e.Start {
		switch {
		case run.s.Items[id].lineOf(clean) >= 0:
			c.Shown++
		case run.s.Items[id].lineOf(lines) >= 0:
			c.Missing = append(c.Missing, id+" (only inside a tool call)")
		default:
			c.Missing = append(c.Missing, id)
		}
	}
	c.Pairs = len(e.Order)
	for _, pair := range e.Order {
		newer, older := run.s.Items[pair[0]].lineOf(clean), run.s.Items[pair[1]].lineOf(clean)
		switch {
		case newer >= 0 && (older < 0 || newer < older):
			c.InOrder++
		case newer < 0:
			c.Misordered = append(c.Misordered, pair[0]+" not shown")
		case newer == older:
			c.Misordered = append(c.Misordered, pair[0]+" only on the line of "+pair[1])
		default:
			c.Misordered = append(c.Misordered, pair[1]+" before "+pair[0])
		}
	}
	c.Absent = len(e.Absent)
	for _, id := range e.Absent {
		if run.s.Items[id].lineOf(lines) >= 0 {
			c.Leaked = append(c.Leaked, id)
		}
	}
	if len(e.Search) > 0 {
		if err := run.searches(ctx, agent, cwd, e.Search, &c); err != nil {
			return c, err
		}
	}
	return c, nil
}

// searches asks palace_search each query, as the agent would (no wing:
// the session's roots say the project), and reads the first hit whole
// with palace_get to see which item it is.
func (run *loopRun) searches(ctx context.Context, agent, cwd string, qs []LoopSearch, c *LoopCheck) error {
	cl, _, err := run.m.startMCP(ctx, agent, cwd)
	if err != nil {
		return err
	}
	if err := run.search(ctx, cl, qs, c); err != nil {
		cl.kill()
		return err
	}
	return cl.stop()
}

func (run *loopRun) search(ctx context.Context, cl *loopMCP, qs []LoopSearch, c *LoopCheck) error {
	for _, q := range qs {
		c.Searches++
		out, toolErr, err := cl.call(ctx, "palace_search", map[string]any{"query": q.Query})
		if err != nil {
			return err
		}
		var res struct {
			Hits []struct {
				ID string `json:"id"`
			} `json:"hits"`
		}
		miss := func(why string) {
			c.SearchMisses = append(c.SearchMisses, fmt.Sprintf("%q wants %s first: %s", q.Query, q.First, why))
		}
		if toolErr != "" {
			miss("refused: " + firstLine(toolErr))
			continue
		}
		if err := json.Unmarshal(out, &res); err != nil {
			return fmt.Errorf("palace_search %q: %w", q.Query, err)
		}
		if len(res.Hits) == 0 {
			miss("no hit")
			continue
		}
		got, toolErr, err := cl.call(ctx, "palace_get", map[string]any{"id": res.Hits[0].ID})
		if err != nil {
			return err
		}
		if toolErr != "" {
			miss("palace_get refused its first hit: " + firstLine(toolErr))
			continue
		}
		var v any
		if err := json.Unmarshal(got, &v); err != nil {
			return fmt.Errorf("palace_get %s: %w", res.Hits[0].ID, err)
		}
		text := strings.Join(jsonStrings(v, nil), "\n")
		if run.s.Items[q.First].holds(text) {
			c.SearchHits++
			continue
		}
		content := text
		if d, ok := v.(map[string]any); ok {
			if s, ok := d["content"].(string); ok {
				content = s
			}
		}
		miss("the first hit was " + firstLine(squash(content)))
	}
	return nil
}

// jsonStrings collects every string value of v, depth first.
func jsonStrings(v any, out []string) []string {
	switch x := v.(type) {
	case string:
		out = append(out, x)
	case []any:
		for _, e := range x {
			out = jsonStrings(e, out)
		}
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			out = jsonStrings(x[k], out)
		}
	}
	return out
}
