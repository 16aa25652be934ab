package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStatusSaysOneAndNoModel: one drawer is "1 drawer", and without an
// embedding model no drawer is said to wait for a vector (none ever will):
// the line says searches are lexical. It said "1 drawers ..., 1 sources"
// and "0 vectors, 1 drawers waiting for one".
func TestStatusSaysOneAndNoModel(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "billing.md"), []byte("Dana owns the billing service.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runPalace(t, home, "mine", dir); code != 0 {
		t.Fatalf("mine: exit %d, %s", code, errOut)
	}
	out, errOut, code := runPalace(t, home, "status")
	if code != 0 {
		t.Fatalf("status: exit %d, %s", code, errOut)
	}
	if !strings.Contains(out, "\n1 drawer (0 deleted), 1 source\n") {
		t.Errorf("want one drawer and one source in the singular:\n%s", out)
	}
	if !strings.Contains(out, "embeddings: none (") || !strings.HasSuffix(strings.Split(out, "\n")[2], "; no vectors: no embedding model, searching lexically") {
		t.Errorf("want the embeddings line to say searches are lexical:\n%s", out)
	}
	if strings.Contains(out, "waiting") {
		t.Errorf("no model will embed a drawer, yet one is said to wait:\n%s", out)
	}
}
