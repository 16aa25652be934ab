// Package embed turns text into sentence embeddings for Palace's semantic
// search. It provides one Embedder interface and picks the best backend that
// works on this machine, saying which one and why:
//
//  1. "ort": ONNX Runtime through github.com/yalue/onnxruntime_go. The
//     libonnxruntime shared library is dlopened at run time (no link-time
//     dependency); `palace setup ort` (setup_ort.sh) installs a pinned build. Fastest.
//  2. "go": hugot's pure-Go (gomlx simplego) feature-extraction pipeline.
//     Always available, but 30-70x slower than ort on a MiniLM-sized model.
//  3. "none": no model is configured; callers fall back to keyword search.
//
// Both real backends share one tokenizer (github.com/sugarme/tokenizer, the
// pure-Go tokenizer hugot uses), truncate to the model's maximum length, and
// pool exactly as sentence-transformers does: mean over the attention mask,
// then L2 normalisation. Their vectors agree within 1e-5 (about 1e-7 on the
// test model).
//
// A model folder holds model.onnx (or onnx/model.onnx), tokenizer.json and
// config.json, as exported by Hugging Face optimum / sentence-transformers.
//
// The package keeps no mutable package-level state except one: onnxruntime_go
// initialises the ONNX Runtime environment once per process (see ortenv in
// ort.go), so the first successfully loaded library is used for the life of
// the process.
package embed

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// Embedder turns texts into L2-normalised vectors of length Dim. It is safe
// for concurrent use by several goroutines.
type Embedder interface {
	// Embed returns one vector per text, in order. Texts longer than the
	// model's maximum length are truncated (the head is kept). The same text
	// gives the same vector (to 1e-5) whether it is embedded alone or in a
	// batch. Texts are run in sub-batches grouped by length; ctx is checked
	// between sub-batches (at most 32 texts / 8192 tokens each).
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Dim is the vector length.
	Dim() int
	// ModelID identifies the model's weights: the model folder's base name
	// and the first 12 hex digits of model.onnx's SHA-256. Vectors with
	// different ModelIDs must not be compared.
	ModelID() string
	// Backend is "ort" or "go".
	Backend() string
	// Close releases the model. Embed calls after Close return ErrClosed;
	// Close waits for running Embed calls to finish.
	Close() error
}

// Backend names, as used in Config.Backend, Choice.Backend and Embedder.Backend.
const (
	BackendORT  = "ort"
	BackendGo   = "go"
	BackendNone = "none"
)

// ErrClosed is returned by Embed after Close.
var ErrClosed = errors.New("embed: embedder is closed")

// NoModelHint is the advice that ends every "no model" notice.
const NoModelHint = "run `palace model pull`, `palace model use DIR`, or set PALACE_MODEL_DIR"

// Choice says which backend Open picked and why, for one-line notices and
// `palace status`.
type Choice struct {
	Backend  string // "ort", "go" or "none"
	Reason   string // one line, no trailing period
	ModelDir string // the model folder, if any
	ORTLib   string // the onnxruntime library in use (ort backend only)
}

// String is the one-line notice: "embeddings: go (reason)".
func (c Choice) String() string {
	return fmt.Sprintf("embeddings: %s (%s)", c.Backend, c.Reason)
}

// Open loads the model in cfg.ModelDir with the best available backend, or
// the one forced by cfg.Backend.
//
//   - No model folder (unset or missing): a nil Embedder, Choice{Backend:
//     "none"} with a notice naming what to do, and a nil error.
//   - An unusable model (corrupt model.onnx, bad tokenizer.json, ...): a nil
//     Embedder, Choice{Backend: "none"} whose Reason carries the problem, and
//     an error wrapped with the offending path. Callers may treat that error
//     as a warning and carry on with keyword search.
//   - Without a forced backend, a missing or unusable onnxruntime library is
//     not an error: Open falls back to "go" and says why in Choice.Reason.
//     With Backend "ort" forced, it is an error.
func Open(cfg Config) (Embedder, Choice, error) {
	choice := Choice{Backend: BackendNone, ModelDir: cfg.ModelDir}
	switch cfg.Backend {
	case "", BackendORT, BackendGo:
	case BackendNone:
		choice.Reason = "embeddings disabled by configuration (backend \"none\")"
		return nil, choice, nil
	default:
		err := fmt.Errorf("embed: unknown backend %q (want \"ort\", \"go\", \"none\" or empty for automatic)", cfg.Backend)
		choice.Reason = err.Error()
		return nil, choice, err
	}

	if reason, ok := modelAbsent(cfg.ModelDir); ok {
		choice.Reason = reason
		return nil, choice, nil
	}
	m, err := loadModel(cfg.ModelDir)
	if err != nil {
		choice.Reason = oneLine("model unusable: " + err.Error())
		return nil, choice, err
	}

	fail := func(err error) (Embedder, Choice, error) {
		choice.Backend = BackendNone
		choice.ORTLib = ""
		choice.Reason = oneLine("model unusable: " + err.Error())
		return nil, choice, err
	}

	if cfg.Backend == BackendGo {
		e, err := newGoEmbedder(m, cfg)
		if err != nil {
			return fail(err)
		}
		choice.Backend, choice.Reason = BackendGo, "pure-Go backend requested"
		return e, choice, nil
	}

	lib, libErr := initORT(cfg)
	if libErr == nil {
		e, err := newORTEmbedder(m, cfg)
		if err != nil {
			// The library works, so this is the model's fault: the go
			// backend would not load it either.
			return fail(err)
		}
		choice.Backend, choice.ORTLib = BackendORT, lib.path
		choice.Reason = fmt.Sprintf("onnxruntime %s from %s (%s)", lib.version, lib.path, lib.source)
		return e, choice, nil
	}
	if cfg.Backend == BackendORT {
		err := fmt.Errorf("embed: backend ort requested: %w", libErr)
		choice.Reason = oneLine(err.Error())
		return nil, choice, err
	}
	e, err := newGoEmbedder(m, cfg)
	if err != nil {
		return fail(err)
	}
	choice.Backend = BackendGo
	choice.Reason = oneLine(libErr.Error()) + "; using the pure-Go backend (much slower): run `palace setup ort`"
	return e, choice, nil
}

// oneLine folds a multi-line error (ONNX Runtime's often are) into one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// session is what both backends share: the model, the batch bound, and a
// Close that waits for running Embed calls (Embed holds the read lock).
type session struct {
	m        *model
	dim      int
	maxBatch int
	destroy  func() error

	mu     sync.RWMutex
	closed bool
}

func (s *session) Dim() int        { return s.dim }
func (s *session) ModelID() string { return s.m.id }

func (s *session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	return s.destroy()
}

// embed tokenises texts, groups them into batches by length and calls run
// for each, checking ctx between batches. run fills out at the batch's
// indexes.
func (s *session) embed(ctx context.Context, texts []string, run func(encs []encoding, batch []int, out [][]float32) error) ([][]float32, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, ErrClosed
	}
	encs, err := s.m.tok.encodeAll(texts)
	if err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	out := make([][]float32, len(texts))
	for _, batch := range planBatches(encs, s.maxBatch) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := run(encs, batch, out); err != nil {
			return nil, fmt.Errorf("embed with %s: %w", s.m.onnxPath, err)
		}
	}
	return out, nil
}
