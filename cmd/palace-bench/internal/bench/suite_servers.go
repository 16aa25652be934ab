package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"go.lsp.dev/protocol"
)

// SuiteMCP says what the mcp group measured on one `palace serve --mcp`.
type SuiteMCP struct {
	// Searches are palace_search tool calls with the built-in queries on
	// the mined palace, in its wing.
	Searches      Latency `json:"searches"`
	PalaceDrawers int     `json:"palace_drawers"`
}

// SuiteStart holds every start time measured, in milliseconds. The
// servers open a palace that an untimed first start of each created.
type SuiteStart struct {
	LSP []float64 `json:"lsp_ms"`
	MCP []float64 `json:"mcp_ms"`
	// IdleSettleMs is how long after the handshake the idle resident set
	// was read.
	IdleSettleMs int `json:"idle_settle_ms"`
}

// mcp runs the built-in queries through palace_search on one MCP server
// over the mined palace, then reads its peak resident set.
func (s *suiteRun) mcp(ctx context.Context) error {
	c, err := startMCP(ctx, s.o.Exe, s.mined.home, "--wing", s.mined.wing)
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			c.kill()
		}
	}()
	if err := c.initialize(ctx); err != nil {
		return err
	}
	qs := Queries()
	if s.o.Quick {
		qs = qs[:20]
	}
	var ms []float64
	hits := 0
	for _, q := range qs {
		t := time.Now()
		raw, err := c.callTool(ctx, "palace_search", map[string]any{"query": q})
		if err != nil {
			return err
		}
		ms = append(ms, msBetween(t, time.Now()))
		var res struct {
			Hits []json.RawMessage `json:"hits"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			return fmt.Errorf("palace_search %q: %w", q, err)
		}
		hits += len(res.Hits)
	}
	s.r.MCP = &SuiteMCP{Searches: latency(ms, hits), PalaceDrawers: s.mined.drawers}
	s.logf("   palace_search: p50 %.1f p95 %.1f ms over %d calls", s.r.MCP.Searches.P50, s.r.MCP.Searches.P95, len(ms))
	const peakWhat = "peak resident set of the MCP server after the palace_search calls (VmHWM)"
	if peak, err := procStatusMB(c.pid(), "VmHWM"); err == nil {
		s.r.add("mcp.peak_rss_mb", "MB", peakWhat, peak, 0)
	} else {
		s.r.unavailable("mcp.peak_rss_mb", "MB", peakWhat, err.Error(), 0)
	}
	ok = true
	return c.stop()
}

// start times each server from process start to its initialize reply,
// then reads one idle server's resident set a moment after the handshake.
func (s *suiteRun) start(ctx context.Context) error {
	home := filepath.Join(s.tmp, "start-home")
	runs := s.iters(15, 3)
	settle := time.Duration(s.iters(1000, 300)) * time.Millisecond
	out := &SuiteStart{IdleSettleMs: int(settle / time.Millisecond)}
	for _, kind := range []string{"lsp", "mcp"} {
		var times []float64
		// One untimed start creates the palace and warms the page cache.
		for i := range runs + 1 {
			st, err := s.startOnce(ctx, kind, home, 0)
			if err != nil {
				return err
			}
			if i > 0 {
				times = append(times, st.ms)
			}
		}
		if kind == "lsp" {
			out.LSP = times
		} else {
			out.MCP = times
		}
		what := fmt.Sprintf("`palace serve --%s`: process start to the initialize reply, %d starts", kind, runs)
		s.r.add(kind+".start_median_ms", "ms", what+", median", median(times), TargetStartMs)
		s.r.add(kind+".start_max_ms", "ms", what+", slowest", slices.Max(times), 0)
		s.logf("   %s start: median %.1f ms, max %.1f ms", kind, median(times), slices.Max(times))
	}
	for _, kind := range []string{"lsp", "mcp"} {
		st, err := s.startOnce(ctx, kind, home, settle)
		if err != nil {
			return err
		}
		what := fmt.Sprintf("resident set of `palace serve --%s` %s after the handshake, no model (VmRSS)", kind, settle)
		if st.rssErr != nil {
			s.r.unavailable(kind+".idle_rss_mb", "MB", what, st.rssErr.Error(), TargetIdleRSSMB)
			continue
		}
		s.r.add(kind+".idle_rss_mb", "MB", what, st.rss, TargetIdleRSSMB)
		s.logf("   %s idle: %.1f MB", kind, st.rss)
	}
	s.r.Start = out
	return nil
}

// started is one server start.
type started struct {
	ms     float64 // process start to the initialize reply
	rss    float64 // resident set once idle (MB), when asked for
	rssErr error   // why there is none
}

// startOnce starts a server, times it to the initialize reply, and stops
// it. With settle > 0 it also completes the handshake, waits settle and
// reads the resident set.
func (s *suiteRun) startOnce(ctx context.Context, kind, home string, settle time.Duration) (started, error) {
	var st started
	t := time.Now()
	if kind == "mcp" {
		c, err := startMCP(ctx, s.o.Exe, home)
		if err != nil {
			return st, err
		}
		if err := c.initialize(ctx); err != nil {
			c.kill()
			return st, err
		}
		st.ms = msBetween(t, time.Now())
		if settle > 0 {
			time.Sleep(settle)
			st.rss, st.rssErr = procStatusMB(c.pid(), "VmRSS")
		}
		return st, c.stop()
	}
	c, err := startLSP(ctx, s.o.Exe, home)
	if err != nil {
		return st, err
	}
	var res json.RawMessage
	if err := c.call(ctx, "initialize", protocol.InitializeParams{
		ProcessID: int32(os.Getpid()), ClientInfo: &protocol.ClientInfo{Name: "palace-bench"},
	}, &res); err != nil {
		c.kill()
		return st, err
	}
	st.ms = msBetween(t, time.Now())
	if settle > 0 {
		if err := c.notify(ctx, "initialized", protocol.InitializedParams{}); err != nil {
			c.kill()
			return st, err
		}
		time.Sleep(settle)
		st.rss, st.rssErr = procStatusMB(c.pid(), "VmRSS")
	}
	return st, c.stop(ctx)
}
