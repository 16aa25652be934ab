package embed

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// ortenv is the one piece of process-wide state in this package, and it is
// forced on us: onnxruntime_go keeps the dlopened library and the OrtEnv in
// package variables, InitializeEnvironment fails if called twice, and
// DestroyEnvironment would pull the library out from under every live
// session. So the environment is created once per process, by the first Open
// that finds a usable library, and never destroyed (the OS reclaims it at
// exit). Later Opens reuse it, even if their Config names another library;
// Choice.ORTLib reports the one actually in use. If that first
// initialisation fails, the ort backend stays unavailable for the life of
// the process and Open falls back to the go backend.
var ortenv struct {
	once sync.Once
	lib  ortLib
	err  error
}

// initORT finds a library for cfg and makes sure the process-wide ONNX
// Runtime environment is up, returning the library in use.
func initORT(cfg Config) (ortLib, error) {
	lib, err := findORTLib(cfg)
	if err != nil {
		return ortLib{}, err
	}
	ortenv.once.Do(func() {
		if ort.IsInitialized() {
			// Another package in this process initialised onnxruntime_go.
			ortenv.lib = ortLib{path: "(loaded by another package)", version: ort.GetVersion(), source: "already initialised in this process"}
			return
		}
		ort.SetSharedLibraryPath(lib.path)
		if err := ort.InitializeEnvironment(); err != nil {
			if strings.Contains(err.Error(), "ORT API base") {
				err = fmt.Errorf("%w: the library does not serve C API version %d, so it is older than onnxruntime 1.%d; run `palace setup ort`", err, minORTMinor, minORTMinor)
			}
			ortenv.err = fmt.Errorf("load onnxruntime %s: %w", lib.path, err)
			return
		}
		lib.version = ort.GetVersion()
		ortenv.lib = lib
	})
	if ortenv.err != nil {
		return ortLib{}, ortenv.err
	}
	inUse := ortenv.lib
	if inUse.path != lib.path {
		inUse.source = "already loaded in this process; " + lib.path + " ignored"
	} else {
		inUse.source = lib.source
	}
	return inUse, nil
}

// ortEmbedder runs the model with ONNX Runtime. An ORT session's Run is
// thread-safe, so one session serves all goroutines; mu only keeps Close
// from destroying it under a running Embed.
type ortEmbedder struct {
	session
	sess   *ort.DynamicAdvancedSession
	inputs []string // the model's inputs, in the order tensors are passed
	pooled bool     // the output is already [batch, dim]
}

func newORTEmbedder(m *model, cfg Config) (*ortEmbedder, error) {
	wrap := func(err error) error { return fmt.Errorf("load model %s: %w", m.onnxPath, err) }
	var ins, outs []ort.InputOutputInfo
	if err := guard(func() (err error) {
		ins, outs, err = ort.GetInputOutputInfo(m.onnxPath)
		return err
	}); err != nil {
		return nil, wrap(err)
	}
	e := &ortEmbedder{session: session{m: m, maxBatch: cfg.maxBatch()}}
	e.destroy = func() error { return e.sess.Destroy() }
	for _, in := range ins {
		switch in.Name {
		case "input_ids", "attention_mask", "token_type_ids":
			e.inputs = append(e.inputs, in.Name)
		default:
			return nil, wrap(fmt.Errorf("unsupported model input %q (want input_ids, attention_mask, token_type_ids)", in.Name))
		}
	}
	if !contains(e.inputs, "input_ids") || !contains(e.inputs, "attention_mask") {
		return nil, wrap(errors.New("model lacks input_ids or attention_mask inputs"))
	}
	out, err := pickOutput(outs)
	if err != nil {
		return nil, wrap(err)
	}
	e.pooled = len(out.Dimensions) == 2
	if d := out.Dimensions[len(out.Dimensions)-1]; d > 0 {
		e.dim = int(d)
	}

	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, wrap(err)
	}
	defer opts.Destroy()
	// One intra-op thread per core makes a single query fast; inter-op
	// parallelism buys nothing for a sequential BERT graph.
	if err := opts.SetIntraOpNumThreads(cfg.threads()); err != nil {
		return nil, wrap(err)
	}
	if err := opts.SetInterOpNumThreads(1); err != nil {
		return nil, wrap(err)
	}
	// Idle intra-op threads normally spin for a while after each run. Here
	// they would steal the cores Go needs to tokenise and pool the next
	// batch (and the rest of Palace). Measured on a busy 2-core machine:
	// without spinning Palace's calls were 1.7x (MiniLM) to 3x (tiny model)
	// faster, and the bare model run no slower.
	if err := opts.AddSessionConfigEntry("session.intra_op.allow_spinning", "0"); err != nil {
		return nil, wrap(err)
	}
	if err := guard(func() (err error) {
		e.sess, err = ort.NewDynamicAdvancedSession(m.onnxPath, e.inputs, []string{out.Name}, opts)
		return err
	}); err != nil {
		return nil, wrap(err)
	}
	// A probe run catches models that load but cannot run, and learns the
	// dimension when the graph leaves it symbolic.
	v, err := e.Embed(context.Background(), []string{"palace"})
	if err != nil {
		e.Close()
		return nil, wrap(err)
	}
	e.dim = len(v[0])
	return e, nil
}

// pickOutput prefers the token embeddings (mean-pooled here) and accepts a
// model that already pools ([batch, dim]).
func pickOutput(outs []ort.InputOutputInfo) (ort.InputOutputInfo, error) {
	for _, want := range []string{"last_hidden_state", "token_embeddings", "sentence_embedding"} {
		for _, o := range outs {
			if o.Name == want {
				return o, checkOutput(o)
			}
		}
	}
	if len(outs) == 0 {
		return ort.InputOutputInfo{}, errors.New("model has no outputs")
	}
	return outs[0], checkOutput(outs[0])
}

func checkOutput(o ort.InputOutputInfo) error {
	if o.DataType != ort.TensorElementDataTypeFloat {
		return fmt.Errorf("output %q is %v, want float32", o.Name, o.DataType)
	}
	if n := len(o.Dimensions); n != 2 && n != 3 {
		return fmt.Errorf("output %q has shape %v, want [batch, seq, dim] or [batch, dim]", o.Name, o.Dimensions)
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (e *ortEmbedder) Backend() string { return BackendORT }

func (e *ortEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return e.embed(ctx, texts, e.run)
}

// run embeds the texts batch indexes into out, padded to the longest of them.
func (e *ortEmbedder) run(encs []encoding, batch []int, out [][]float32) error {
	n, seq := len(batch), 0
	for _, i := range batch {
		seq = max(seq, len(encs[i].ids))
	}
	ids := make([]int64, n*seq)
	mask := make([]int64, n*seq)
	types := make([]int64, n*seq)
	for r, i := range batch {
		row := r * seq
		for t := range seq {
			if t < len(encs[i].ids) {
				ids[row+t] = encs[i].ids[t]
				types[row+t] = encs[i].types[t]
				mask[row+t] = 1
			} else {
				ids[row+t] = e.m.padID
			}
		}
	}
	shape := ort.NewShape(int64(n), int64(seq))
	inputs := make([]ort.Value, len(e.inputs))
	defer func() {
		for _, v := range inputs {
			if v != nil {
				v.Destroy()
			}
		}
	}()
	for k, name := range e.inputs {
		data := map[string][]int64{"input_ids": ids, "attention_mask": mask, "token_type_ids": types}[name]
		t, err := ort.NewTensor(shape, data)
		if err != nil {
			return err
		}
		inputs[k] = t
	}
	outputs := []ort.Value{nil} // let ORT allocate the output
	if err := e.sess.Run(inputs, outputs); err != nil {
		return err
	}
	defer outputs[0].Destroy()
	t, ok := outputs[0].(*ort.Tensor[float32])
	if !ok {
		return fmt.Errorf("output is %T, want a float32 tensor", outputs[0])
	}
	data, oshape := t.GetData(), t.GetShape()
	if e.pooled {
		if len(oshape) != 2 || oshape[0] != int64(n) {
			return fmt.Errorf("output shape %v for a batch of %d", oshape, n)
		}
		dim := int(oshape[1])
		for r, i := range batch {
			out[i] = normalize32(data[r*dim : (r+1)*dim])
		}
		return nil
	}
	if len(oshape) != 3 || oshape[0] != int64(n) || oshape[1] != int64(seq) {
		return fmt.Errorf("output shape %v for input shape [%d %d]", oshape, n, seq)
	}
	dim := int(oshape[2])
	for r, i := range batch {
		out[i] = meanPool(data[r*seq*dim:(r+1)*seq*dim], len(encs[i].ids), dim)
	}
	return nil
}
