// Package palacetest opens throwaway palaces for tests: the one copy of
// what every package's tests did to get an empty palace that is closed when
// the test ends.
package palacetest

import (
	"testing"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/palace"
)

// OpenPalace opens an empty palace in a fresh temporary folder (see Open).
func OpenPalace(tb testing.TB, o ...palace.Options) *palace.Palace {
	tb.Helper()
	return Open(tb, tb.TempDir(), o...)
}

// Open opens (creating it if needed) the palace at home and closes it when
// the test ends. Unless o asks for an embedding configuration (Embed or
// ModelDir), the palace has no embedding model, whatever the environment
// says (PALACE_MODEL_DIR): a test is lexical unless it asks for a model.
// The rest of o (Actor, Client, NoCreate) is passed to palace.Open.
func Open(tb testing.TB, home string, o ...palace.Options) *palace.Palace {
	tb.Helper()
	var opts palace.Options
	if len(o) > 0 {
		opts = o[0]
	}
	if opts.Embed == nil && opts.ModelDir == "" {
		opts.Embed = NoModel(home)
	}
	p, err := palace.Open(home, opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { p.Close() })
	return p
}

// NoModel is the embedding configuration of a palace at home without a
// model: no model folder, and no system folder searched for ONNX Runtime.
func NoModel(home string) *embed.Config {
	return &embed.Config{Home: home, LibDirs: []string{}}
}
