package embed

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// model is what both backends need from a model folder, read and checked
// once before any backend touches it.
type model struct {
	dir       string
	onnxPath  string // model.onnx or onnx/model.onnx
	id        string // base name + "-" + sha256(model.onnx)[:12]
	maxLen    int    // tokens per text, [CLS] and [SEP] included
	maxPos    int    // config.json max_position_embeddings
	padID     int64  // config.json pad_token_id
	hidden    int    // config.json hidden_size (0 if absent)
	tok       *tokenizer
	onnxBytes int64
}

// modelAbsent reports whether dir names no model at all, with the notice.
func modelAbsent(dir string) (string, bool) {
	if dir == "" {
		return "no model: no model folder configured; " + NoModelHint, true
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return fmt.Sprintf("no model: %s does not exist; %s", dir, NoModelHint), true
	}
	return "", false
}

// modelConfig is the part of Hugging Face's config.json Palace reads.
type modelConfig struct {
	MaxPositionEmbeddings int    `json:"max_position_embeddings"`
	PadTokenID            *int64 `json:"pad_token_id"`
	HiddenSize            int    `json:"hidden_size"`
}

// stConfig is sentence-transformers' sentence_bert_config.json, whose
// max_seq_length is the length sentence-transformers truncates to.
type stConfig struct {
	MaxSeqLength int `json:"max_seq_length"`
}

func loadModel(dir string) (*model, error) {
	m := &model{dir: dir}
	for _, rel := range []string{"model.onnx", filepath.Join("onnx", "model.onnx")} {
		p := filepath.Join(dir, rel)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			m.onnxPath, m.onnxBytes = p, st.Size()
			break
		}
	}
	if m.onnxPath == "" {
		return nil, fmt.Errorf("load model %s: no model.onnx or onnx/model.onnx", dir)
	}
	if m.onnxBytes == 0 {
		return nil, fmt.Errorf("load model %s: file is empty", m.onnxPath)
	}

	cfgPath := filepath.Join(dir, "config.json")
	raw, err := os.ReadFile(cfgPath)
	if err != nil {
		return nil, fmt.Errorf("load model %s: %w", dir, err)
	}
	var mc modelConfig
	if err := json.Unmarshal(raw, &mc); err != nil {
		return nil, fmt.Errorf("load model config %s: %w", cfgPath, err)
	}
	// Without max_position_embeddings an over-long input is not an error for
	// gomlx, which clamps position ids and returns silent garbage.
	if mc.MaxPositionEmbeddings <= 2 {
		return nil, fmt.Errorf("load model config %s: max_position_embeddings missing or too small (%d)", cfgPath, mc.MaxPositionEmbeddings)
	}
	m.maxPos, m.hidden = mc.MaxPositionEmbeddings, mc.HiddenSize
	if mc.PadTokenID != nil {
		m.padID = *mc.PadTokenID
	}

	// The truncation length: sentence-transformers' max_seq_length when the
	// folder has one (that is what sentence-transformers itself uses), else
	// tokenizer.json's truncation, capped by max_position_embeddings.
	stLen := 0
	stPath := filepath.Join(dir, "sentence_bert_config.json")
	if raw, err := os.ReadFile(stPath); err == nil {
		var sc stConfig
		if err := json.Unmarshal(raw, &sc); err != nil {
			return nil, fmt.Errorf("load model config %s: %w", stPath, err)
		}
		stLen = sc.MaxSeqLength
	}
	m.tok, err = loadTokenizer(filepath.Join(dir, "tokenizer.json"), m.maxPos, stLen)
	if err != nil {
		return nil, err
	}
	m.maxLen = m.tok.maxLen

	sum, err := fileSHA256(m.onnxPath)
	if err != nil {
		return nil, fmt.Errorf("load model %s: %w", m.onnxPath, err)
	}
	base := filepath.Base(filepath.Clean(dir))
	m.id = base + "-" + sum[:12]
	return m, nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
