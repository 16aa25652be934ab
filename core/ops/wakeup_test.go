package ops

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace/palacetest"
)

// A project's palace.yaml sets the wake-up budget of its wing
// (wake_up.budget) for a caller working anywhere inside it: the nearest
// palace.yaml decides, a file of another wing or without the key gives
// the default, a budget the request names wins, and a file that cannot be
// read or a budget out of range is an error naming it.
func TestWakeUpBudgetOfTheProject(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	if _, err := Remember(ctx, p, RememberRequest{Wing: "shop", Text: "Checkout retries capture twice.", Importance: 3}); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	shop, inner, blog := filepath.Join(root, "shop"), filepath.Join(root, "shop", "web", "src"), filepath.Join(root, "shop", "blog")
	for _, d := range []string{inner, blog} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(dir, yaml string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "palace.yaml"), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(shop, "wing: shop\nwake_up:\n  budget: 900\n")
	write(blog, "wing: blog\n")
	for _, c := range []struct {
		dir    string
		budget int // asked
		want   int
	}{
		{inner, 0, 900},
		{shop, 0, 900},
		{shop, 50, 50},
		{blog, 0, DefaultWakeBudget}, // the nearest palace.yaml is blog's
		{root, 0, DefaultWakeBudget},
		{"", 0, DefaultWakeBudget},
	} {
		res, err := WakeUp(ctx, p, WakeUpRequest{Wing: "shop", Budget: c.budget, Dir: c.dir})
		if err != nil || res.Budget != c.want || !strings.Contains(res.Text, "Checkout retries") {
			t.Errorf("dir %q budget %d: %d, %v", c.dir, c.budget, res.Budget, err)
		}
	}
	// The session's own wing (DefaultWing) reads it too.
	if res, err := WakeUp(ctx, p, WakeUpRequest{DefaultWing: "shop", Dir: inner}); err != nil || res.Budget != 900 {
		t.Errorf("default wing: %d, %v", res.Budget, err)
	}
	if b, err := ProjectWakeBudget(inner, ""); b != 0 || err != nil {
		t.Errorf("the whole palace: %d, %v", b, err)
	}
	for _, bad := range []struct{ yaml, says string }{
		{"wing: shop\nwake_up:\n  budget: -1\n", "wake_up.budget -1"},
		{"wing: shop\nwake_up:\n  budget: 100001\n", "wake_up.budget 100001"},
		{"wing: shop\nwake_up:\n  budgit: 5\n", "budgit"},
	} {
		write(shop, bad.yaml)
		_, err := WakeUp(ctx, p, WakeUpRequest{Wing: "shop", Dir: inner})
		if err == nil || !strings.Contains(err.Error(), filepath.Join(shop, "palace.yaml")) || !strings.Contains(err.Error(), bad.says) {
			t.Errorf("%q: %v", bad.yaml, err)
		}
	}
}
