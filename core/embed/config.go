package embed

import (
	"os"
	"path/filepath"
	"runtime"
)

// Config says where the model and the onnxruntime library are. Open reads
// nothing from the environment itself; fronts build a Config with
// ConfigFromEnv (or by hand) so that tests and flags can override anything.
type Config struct {
	// ModelDir holds model.onnx (or onnx/model.onnx), tokenizer.json and
	// config.json. Empty or missing: no embeddings (backend "none").
	ModelDir string
	// Home is the Palace home; $Home/lib is searched for libonnxruntime.
	Home string
	// ORTLib is an explicit libonnxruntime path, searched first.
	ORTLib string
	// Backend forces a backend: "ort", "go" or "none"; empty picks the best.
	Backend string
	// LibDirs are the system folders searched last for libonnxruntime. Nil
	// means DefaultLibDirs(); an empty non-nil slice searches none.
	LibDirs []string
	// MaxBatch caps how many texts go through the model in one run; 0 means
	// 32 (also the go backend's largest compiled batch bucket).
	MaxBatch int
	// Threads is ONNX Runtime's intra-op thread count; 0 means one per CPU.
	Threads int
}

// Environment variables read by ConfigFromEnv.
const (
	EnvModelDir = "PALACE_MODEL_DIR"     // model folder
	EnvORTLib   = "PALACE_ORT_LIB"       // libonnxruntime file
	EnvBackend  = "PALACE_EMBED_BACKEND" // "ort", "go", "none" or empty
	EnvHome     = "PALACE_HOME"          // used only when home is ""
)

// ConfigFromEnv builds a Config for a front (CLI, MCP server, LSP server):
// the model folder from PALACE_MODEL_DIR, the library from PALACE_ORT_LIB,
// a forced backend from PALACE_EMBED_BACKEND. home is the Palace home the
// front resolved (from --home); if empty, PALACE_HOME, else ~/.palace. A
// front that remembers a model chosen with `palace model use` sets ModelDir
// itself when PALACE_MODEL_DIR is unset.
func ConfigFromEnv(home string) Config {
	if home == "" {
		home = os.Getenv(EnvHome)
	}
	if home == "" {
		if h, err := os.UserHomeDir(); err == nil {
			home = filepath.Join(h, ".palace")
		}
	}
	return Config{
		ModelDir: os.Getenv(EnvModelDir),
		Home:     home,
		ORTLib:   os.Getenv(EnvORTLib),
		Backend:  os.Getenv(EnvBackend),
	}
}

// DefaultLibDirs are the system library folders searched for libonnxruntime
// after PALACE_ORT_LIB and $PALACE_HOME/lib: the usual dynamic-linker paths.
func DefaultLibDirs() []string {
	switch runtime.GOOS {
	case "darwin":
		return []string{"/usr/local/lib", "/opt/homebrew/lib", "/usr/lib"}
	case "linux":
		dirs := []string{"/usr/lib", "/usr/local/lib"}
		switch runtime.GOARCH {
		case "amd64":
			dirs = append(dirs, "/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu")
		case "arm64":
			dirs = append(dirs, "/usr/lib/aarch64-linux-gnu", "/lib/aarch64-linux-gnu")
		}
		return append(dirs, "/usr/lib64", "/lib")
	default:
		return nil
	}
}

func (c Config) maxBatch() int {
	if c.MaxBatch > 0 {
		return c.MaxBatch
	}
	return 32
}

func (c Config) threads() int {
	if c.Threads > 0 {
		return c.Threads
	}
	return runtime.NumCPU()
}

func (c Config) libDirs() []string {
	if c.LibDirs == nil {
		return DefaultLibDirs()
	}
	return c.LibDirs
}
