package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

func tinyModel(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "core", "embed", "testdata", "tiny"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// The README's vector path through the binary: mine with a model, search
// hybrid, doctor and status name the backend; without a model, lexical hits
// and the notice.
func TestHybridSearchCLI(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	clitest.WriteTree(t, dir, map[string]string{
		"a.md": "the parser leaks goroutines when the context is cancelled\n",
		"b.md": "a cache for query vectors keeps agents fast\n",
		"c.md": "filler about build scripts\n",
	})
	out, errOut, code := runPalace(t, home, "mine", dir, "--json", "--no-progress")
	if code != 0 || !strings.Contains(out, `"vectors"`) {
		t.Fatalf("mine: exit %d %q %q", code, out, errOut)
	}
	r := searchOK(t, home, "parser goroutines")
	if len(r.Hits) == 0 {
		t.Fatal("no lexical hits")
	}
	if out, _, _ := runPalace(t, home, "search", "parser", "--json"); !strings.Contains(out, "lexical only") {
		t.Errorf("without a model the search should carry the notice: %s", out)
	}
	if _, errOut, code := runPalace(t, home, "model", "use", tinyModel(t)); code != 0 {
		t.Fatalf("model use: %d %q", code, errOut)
	}
	if out, errOut, code := runPalace(t, home, "reindex", "--json"); code != 0 || !strings.Contains(out, `"embedded": 3`) {
		t.Fatalf("reindex: %d %q %q", code, out, errOut)
	}
	out, _, code = runPalace(t, home, "search", "parser goroutines", "--json")
	if code != 0 || !strings.Contains(out, `"mode": "hybrid"`) || !strings.Contains(out, `"fused"`) || !strings.Contains(out, `"vector"`) {
		t.Errorf("hybrid search JSON: %s", out)
	}
	out, _, code = runPalace(t, home, "doctor")
	if code != 0 || !strings.Contains(out, "integrity  ok") || !strings.Contains(out, "vectors    3 of model tiny-") {
		t.Errorf("doctor: %d %s", code, out)
	}
	// A changed file is re-embedded alone; the others keep their vectors.
	rewrite(t, filepath.Join(dir, "c.md"), "filler about build scripts, now longer\n")
	out, _, _ = runPalace(t, home, "mine", dir, "--json", "--no-progress")
	if !strings.Contains(out, `"embedded": 1`) {
		t.Errorf("re-mine after one change should embed one drawer: %s", out)
	}
	if out, _, code := runPalace(t, home, "dup", "parser leaks goroutines", "--json", "--limit", "1"); code != 0 || !strings.Contains(out, `"similarity"`) || !strings.Contains(out, `"finder": "vector"`) {
		t.Errorf("dup: %d %s", code, out)
	}
}

func TestCorruptModel(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	bad := t.TempDir()
	for _, f := range []string{"tokenizer.json", "config.json"} {
		b, err := os.ReadFile(filepath.Join(tinyModel(t), f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(bad, f), b, 0o644)
	}
	os.WriteFile(filepath.Join(bad, "model.onnx"), []byte("not a model"), 0o644)
	clitest.WriteTree(t, dir, map[string]string{"a.md": "some words\n"})
	mineOK(t, home, dir, "--no-vectors")
	_, errOut, code := runPalace(t, home, "--model-dir", bad, "reindex")
	if code != 1 || !strings.Contains(errOut, "model.onnx") {
		t.Errorf("reindex with a corrupt model: exit %d, %q; want 1 naming model.onnx", code, errOut)
	}
	if _, errOut, code := runPalace(t, home, "model", "use", bad); code != 1 || !strings.Contains(errOut, "model.onnx") {
		t.Errorf("model use of a corrupt model: exit %d, %q", code, errOut)
	}
	// Search still works, lexically.
	out, _, code := runPalace(t, home, "--model-dir", bad, "search", "words", "--json")
	if code != 0 || !strings.Contains(out, `"mode": "lexical"`) {
		t.Errorf("search with a corrupt model: %d %s", code, out)
	}
	if st := statusOK(t, home); st.Drawers != 1 {
		t.Errorf("palace changed: %+v", st)
	}
}

// Reindex goes through ops.Embed, as a mine's embedding does on every
// front: a negative batch is bad input naming its flag (exit 2), not
// silently the default batch.
func TestReindexBadBatch(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	clitest.WriteTree(t, dir, map[string]string{"a.md": "some words\n"})
	mineOK(t, home, dir, "--no-vectors")
	_, errOut, code := runPalace(t, home, "--model-dir", tinyModel(t), "reindex", "--batch", "-1")
	if code != 2 || !strings.Contains(errOut, "--batch -1") {
		t.Errorf("reindex --batch -1: exit %d, %q; want 2 naming --batch", code, errOut)
	}
	if out, _, _ := runPalace(t, home, "status"); !strings.Contains(out, "no vectors") {
		t.Errorf("a refused reindex embedded: %q", out)
	}
}
