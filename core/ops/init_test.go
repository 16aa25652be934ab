package ops

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/input"
)

// Init proposes the wing and rooms of a folder; a dry run writes nothing,
// a second write is refused unless forced, and a blank folder is bad input.
func TestInit(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "Shop")
	for _, f := range []string{"api/a.go", "web/b.ts", "src/c.go"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Init(ctx, InitRequest{Dir: dir, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Wing != "shop" || res.Rooms != 3 || res.Path != "" || !strings.Contains(res.YAML, "wing: shop") {
		t.Errorf("dry run: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(dir, "palace.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a dry run wrote palace.yaml: %v", err)
	}
	res, err = Init(ctx, InitRequest{Dir: dir})
	if err != nil || res.Path != filepath.Join(dir, "palace.yaml") {
		t.Fatalf("init: %+v, %v", res, err)
	}
	if _, err := Init(ctx, InitRequest{Dir: dir}); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("second init: %v, want already exists", err)
	}
	if _, err := Init(ctx, InitRequest{Dir: dir, Force: true}); err != nil {
		t.Errorf("forced init: %v", err)
	}
	if _, err := Init(ctx, InitRequest{Dir: " "}); !errors.Is(err, input.ErrInvalid) || Classify(err) != Invalid {
		t.Errorf("blank dir: %v, want invalid input", err)
	}
}
