package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"time"
)

// SuiteEmbed says what the embed group measured, or why it could not.
type SuiteEmbed struct {
	// Model is the model folder, or what was generated.
	Model  string       `json:"model"`
	Report *EmbedReport `json:"report,omitempty"`
}

// embedCell is one figure of the embed group.
type embedCell struct {
	key           string
	tokens, batch int
	perCall       bool // ms per call rather than chunks/s
}

func embedCells() []embedCell {
	return []embedCell{
		{"embed.ort_16x1_ms", 16, 1, true},
		{"embed.ort_16x32_chunks_per_s", 16, 32, false},
		{"embed.ort_256x32_chunks_per_s", 256, 32, false},
	}
}

func (c embedCell) unit() string {
	if c.perCall {
		return "ms"
	}
	return "chunks/s"
}

func (c embedCell) what() string {
	if c.perCall {
		return fmt.Sprintf("ORT embedding of one %d-token text (a query), median per call", c.tokens)
	}
	return fmt.Sprintf("ORT embedding throughput, texts of %d tokens, %d per call", c.tokens, c.batch)
}

// embed measures Palace's ORT backend in this process with bench embed's
// code, on --model-dir or a generated MiniLM-shaped model. No onnxruntime
// library, or no way to get a model, makes the figures unavailable, not an
// error.
func (s *suiteRun) embed(ctx context.Context) error {
	out := &SuiteEmbed{Model: s.o.ModelDir}
	s.r.Embed = out
	unavailable := func(why string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		s.logf("   embed: unavailable: %s", why)
		for _, c := range embedCells() {
			s.r.unavailable(c.key, c.unit(), c.what(), why, 0)
		}
		return nil
	}
	dir := s.o.ModelDir
	if dir == "" {
		python, script, err := FindGenerator(ctx)
		if err != nil {
			return unavailable("no model: " + err.Error())
		}
		dir = filepath.Join(s.tmp, "minilm")
		s.logf("   generating a MiniLM-shaped random-weight model (%s)", python)
		if err := GenerateMiniLM(ctx, python, script, dir); err != nil {
			return unavailable("generate a model: " + err.Error())
		}
		out.Model = "MiniLM-shaped, random weights (" + GeneratorScript + " --minilm)"
	}
	r, err := Embed(ctx, EmbedOptions{
		ModelDir: dir, Config: s.o.Embed, Tokens: []int{16, 256}, Batches: []int{1, 32}, SkipGo: true,
		Iters:       s.iters(5, 2),
		MinCellTime: time.Duration(s.iters(2000, 10)) * time.Millisecond,
		CellBudget:  time.Duration(s.iters(10_000, 2000)) * time.Millisecond,
		Progress:    s.progress,
	})
	if err != nil {
		return unavailable(err.Error())
	}
	out.Report = r
	if !r.HaveORT {
		return unavailable(r.ORT)
	}
	for _, c := range embedCells() {
		cell := findCell(r, c.tokens, c.batch)
		switch {
		case cell != nil && cell.Skipped != "":
			s.r.unavailable(c.key, c.unit(), c.what(), cell.Skipped, 0)
		case cell == nil || cell.ORT == nil:
			s.r.unavailable(c.key, c.unit(), c.what(), "not measured", 0)
		case c.perCall:
			s.r.add(c.key, c.unit(), c.what(), cell.ORT.MsPerCall, 0)
		default:
			s.r.add(c.key, c.unit(), c.what(), cell.ORT.ChunksPerSec, 0)
		}
	}
	return nil
}

func findCell(r *EmbedReport, tokens, batch int) *EmbedCell {
	for i := range r.Cells {
		if c := &r.Cells[i]; c.Tokens == tokens && c.Batch == batch {
			return c
		}
	}
	return nil
}
