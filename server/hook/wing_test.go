package hook

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWingForIsTheProjects: a session's wing is ops.ResolveWing's, so a
// session started in a subfolder of a git project without palace.yaml
// files into the project's wing (the folder its Stop mines), not one
// named after the subfolder; a session in the home folder belongs to no
// project, and neither a palace.yaml nor a dotfiles repository in the home
// folder makes its subfolders one project.
func TestWingForIsTheProjects(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home", "ada")
	t.Setenv("HOME", home)
	for _, d := range []string{".git", "repo/.git", "repo/cmd/tool", "loose/deep"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, "palace.yaml"), []byte("wing: everything\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ cwd, want string }{
		{filepath.Join(home, "repo", "cmd", "tool"), "repo"},
		{filepath.Join(home, "loose", "deep"), "deep"},
		{home, FallbackWing},
	} {
		if got := WingFor(c.cwd); got != c.want {
			t.Errorf("WingFor(%s) = %q, want %q", c.cwd, got, c.want)
		}
		if dir := ProjectDir(c.cwd, home); c.want == "repo" && dir != filepath.Join(home, "repo") {
			t.Errorf("ProjectDir(%s) = %q: the wing's project is not the folder Stop mines", c.cwd, dir)
		}
	}
}
