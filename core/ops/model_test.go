package ops

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace/palacetest"
)

// copyTiny puts the tiny test model where ModelPull would have put
// owner/name under home.
func copyTiny(t *testing.T, home, dirName string) string {
	t.Helper()
	src := filepath.Join("..", "embed", "testdata", "tiny")
	dst := filepath.Join(ModelsDir(home), dirName)
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"model.onnx", "tokenizer.json", "config.json"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// The models folder of a palace: listed (none, then one pulled and a
// partial pull), used by its name, then listed as in use by the next
// opening; a name neither pulled nor a folder says how to pull it.
func TestModelUseAndList(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	p := palacetest.Open(t, home)
	l, err := ModelList(ctx, p)
	if err != nil || l.InUse != "" || l.Models == nil || len(l.Models) != 0 || l.Partial == nil || len(l.Partial) != 0 {
		t.Fatalf("empty list: %+v, %v", l, err)
	}
	dir := copyTiny(t, home, "acme__tiny")
	if err := os.MkdirAll(filepath.Join(ModelsDir(home), ".partial", "acme__half"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := ModelUse(ctx, p, ModelUseRequest{Model: "acme/other"}); err == nil || !strings.Contains(err.Error(), "palace model pull acme/other") {
		t.Errorf("use of a model never pulled: %v", err)
	}
	u, err := ModelUse(ctx, p, ModelUseRequest{Model: "acme/tiny"})
	if err != nil || u.Dir != dir || !strings.HasPrefix(u.Embeddings, "embeddings: ") {
		t.Fatalf("use acme/tiny: %+v, %v", u, err)
	}
	l, err = ModelList(ctx, palacetest.Open(t, home))
	if err != nil || l.InUse != dir || len(l.Models) != 1 || l.Models[0] != (PulledModel{Name: "acme/tiny", Dir: dir, InUse: true}) ||
		len(l.Partial) != 1 || l.Partial[0] != "acme/half" {
		t.Errorf("list after use: %+v, %v", l, err)
	}
}

// A malformed model name is bad input, in the engine's own words.
func TestModelPullBadName(t *testing.T) {
	_, err := ModelPull(context.Background(), t.TempDir(), ModelPullRequest{Name: "a/b/c"})
	if Classify(err) != Invalid || !strings.HasPrefix(err.Error(), `model name "a/b/c": want OWNER/MODEL`) {
		t.Errorf("pull a/b/c: %v (%s)", err, Classify(err))
	}
	if got := (ModelPullRequest{}).Model(); got != DefaultModel {
		t.Errorf("default model %q", got)
	}
}
