package embed

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/knights-analytics/hugot"
	"github.com/knights-analytics/hugot/options"
	"github.com/knights-analytics/hugot/pipelines"
)

// goEmbedder runs the model with hugot's pure-Go backend (gomlx simplego):
// no shared library needed, much slower than ONNX Runtime.
type goEmbedder struct {
	session
	sess *hugot.Session
	pipe *pipelines.FeatureExtractionPipeline
}

// Buckets the go backend pads batches and sequences up to. gomlx compiles
// and caches one program per input shape with no limit, so without buckets
// every new text length costs a JIT compile (15-60 ms) and memory that is
// never returned.
var (
	goBatchBuckets = []int{1, 8, 32}
	goSeqBuckets   = []int{32, 64, 128, 256, 512}
)

// buckets keeps the standard sizes below limit and adds limit itself, so
// the largest bucket is exactly the largest input: never more positions than
// the model has embeddings for, and no "larger than max bucket" errors.
func buckets(std []int, limit int) []int {
	var out []int
	for _, b := range std {
		if b < limit {
			out = append(out, b)
		}
	}
	return append(out, limit)
}

func newGoEmbedder(m *model, cfg Config) (*goEmbedder, error) {
	e := &goEmbedder{session: session{m: m, maxBatch: cfg.maxBatch()}}
	e.destroy = func() error { return e.sess.Destroy() }
	wrap := func(err error) error { return fmt.Errorf("load model %s: %w", m.onnxPath, err) }
	// hugot finds the .onnx file by walking ModelPath but mis-joins paths in
	// subfolders (onnx/model.onnx is looked up relative to the working
	// directory), so such a model is shown to it through a folder of links.
	hugotDir := m.dir
	if filepath.Dir(m.onnxPath) != filepath.Clean(m.dir) {
		staged, err := stageFlat(m)
		if err != nil {
			return nil, wrap(err)
		}
		defer os.RemoveAll(staged)
		hugotDir = staged
	}
	err := guard(func() error {
		sess, err := hugot.NewGoSession(
			options.WithGoMLXBatchBuckets(buckets(goBatchBuckets, e.maxBatch)),
			options.WithGoMLXSequenceBuckets(buckets(goSeqBuckets, m.maxLen)),
		)
		if err != nil {
			return err
		}
		e.sess = sess
		e.pipe, err = hugot.NewPipeline(sess, hugot.FeatureExtractionConfig{
			ModelPath:    hugotDir,
			OnnxFilename: filepath.Base(m.onnxPath),
			Name:         "palace-embed",
		})
		return err
	})
	if err != nil {
		if e.sess != nil {
			e.sess.Destroy()
		}
		return nil, wrap(err)
	}
	tk := e.pipe.Model.Tokenizer
	if tk == nil || tk.GoTokenizer == nil {
		e.sess.Destroy()
		return nil, wrap(fmt.Errorf("hugot loaded no Go tokenizer"))
	}
	// Share our checked tokenizer (truncation to maxLen, accent handling as
	// in Python) so both backends produce identical token ids.
	tk.GoTokenizer.Tokenizer = m.tok.tk
	tk.MaxAllowedTokens = m.maxLen

	v, err := e.Embed(context.Background(), []string{"palace"})
	if err != nil {
		e.Close()
		return nil, wrap(err)
	}
	e.dim = len(v[0])
	return e, nil
}

// stageFlat makes a temporary folder with links to model.onnx,
// tokenizer.json and config.json. hugot reads them all while loading, so the
// folder can go as soon as the pipeline exists.
func stageFlat(m *model) (string, error) {
	dir, err := os.MkdirTemp("", "palace-embed-")
	if err != nil {
		return "", err
	}
	links := map[string]string{
		"model.onnx":     m.onnxPath,
		"tokenizer.json": filepath.Join(m.dir, "tokenizer.json"),
		"config.json":    filepath.Join(m.dir, "config.json"),
	}
	for name, target := range links {
		abs, err := filepath.Abs(target)
		if err == nil {
			err = os.Symlink(abs, filepath.Join(dir, name))
		}
		if err != nil {
			os.RemoveAll(dir)
			return "", err
		}
	}
	return dir, nil
}

func (e *goEmbedder) Backend() string { return BackendGo }

func (e *goEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	// The session tokenises first: hugot log.Fatals on a tokenizer error,
	// so a text must be known to encode before it reaches hugot (which
	// re-encodes it with the same tokenizer). The lengths drive batching.
	return e.embed(ctx, texts, func(_ []encoding, batch []int, out [][]float32) error {
		in := make([]string, len(batch))
		for k, i := range batch {
			in[k] = e.m.tok.normalize(texts[i])
		}
		var res *pipelines.FeatureExtractionOutput
		if err := guard(func() (err error) {
			res, err = e.pipe.RunPipeline(in)
			return err
		}); err != nil {
			return err
		}
		if len(res.Embeddings) != len(batch) {
			return fmt.Errorf("%d vectors for %d texts", len(res.Embeddings), len(batch))
		}
		// hugot mean-pools over the attention mask; we normalise.
		for k, i := range batch {
			out[i] = normalize32(res.Embeddings[k])
		}
		return nil
	})
}
