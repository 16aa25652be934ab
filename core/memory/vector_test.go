package memory

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/vectors"
)

func tinyModel(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "embed", "testdata", "tiny"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func openWithModel(t *testing.T, dir string) *palace.Palace {
	t.Helper()
	cfg := embed.Config{ModelDir: dir, Backend: embed.BackendGo, LibDirs: []string{}}
	p := palacetest.OpenPalace(t, palace.Options{Embed: &cfg})
	return p
}

// With a model and vectors, Remember checks by vectors and lexically, and
// embeds the new note at once. (The tiny test model's vectors carry no
// meaning, so the finder is tested on identical text and a high threshold.)
func TestRememberWithVectors(t *testing.T) {
	ctx := context.Background()
	p := openWithModel(t, tinyModel(t))
	parser := "The parser leaks goroutines when the context is cancelled."
	first := remember(t, p, note(parser, "proj"), false)
	// No vector yet is the palace's state, not a problem with this note:
	// no notice.
	if !reflect.DeepEqual(first.NearChecks, []string{"lexical"}) || first.Embedded || first.Notice != "" {
		t.Errorf("before any vector: checks %q, embedded %v, notice %q", first.NearChecks, first.Embedded, first.Notice)
	}
	if _, err := vectors.Fill(ctx, p, vectors.Options{}); err != nil {
		t.Fatal(err)
	}
	res := remember(t, p, note(pnpm, "proj"), true)
	if !reflect.DeepEqual(res.NearChecks, []string{"vector", "lexical"}) || !res.Embedded || res.Notice != "" {
		t.Errorf("with vectors: %+v", res)
	}
	if vi, err := p.Store.VecInfo(ctx); err != nil || vi.Pending != 0 || vi.Vectors != 2 {
		t.Errorf("the new note should have its vector: %+v %v", vi, err)
	}
	ns, err := VectorFinder{P: p, Threshold: 0.999}.FindNear(ctx, "proj", parser)
	if err != nil || len(ns) != 1 || ns[0].ID != first.ID || ns[0].Similarity < 0.999 || ns[0].Citation != DefaultSource {
		t.Errorf("vector finder: %+v %v", ns, err)
	}
	if ns, err := (VectorFinder{P: p, Threshold: 0.999}).FindNear(ctx, "other", parser); err != nil || len(ns) != 0 {
		t.Errorf("vector finder in another wing: %+v %v", ns, err)
	}
	// Through Remember, with only the vector finder: a near duplicate.
	again, err := Remember(ctx, p, note(parser+" ", "proj"), RememberOptions{Near: []NearFinder{VectorFinder{P: p, Threshold: 0.999}}})
	if err != nil || again.Added || len(again.Duplicates) != 1 || again.Duplicates[0].Kind != "exact" {
		t.Errorf("remember with the vector finder: %+v %v", again, err)
	}
}

// A model that is configured but does not load leaves the lexical check and
// a notice; the note is still written.
func TestRememberWithBrokenModel(t *testing.T) {
	bad := t.TempDir()
	for _, f := range []string{"tokenizer.json", "config.json"} {
		b, err := os.ReadFile(filepath.Join(tinyModel(t), f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bad, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(bad, "model.onnx"), []byte("not a model"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := openWithModel(t, bad)
	res := remember(t, p, note(pnpm, "proj"), false)
	// The notice is search's, naming what is wrong with the model.
	if !res.Added || !reflect.DeepEqual(res.NearChecks, []string{"lexical"}) ||
		!strings.Contains(res.Notice, "vector check skipped") || !strings.Contains(res.Notice, "model unusable") {
		t.Errorf("broken model: %+v", res)
	}
}
