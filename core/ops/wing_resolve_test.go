package ops

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/palace/palacetest"
)

// writeFiles writes each relative path under root with its body; a path
// ending in / is a folder.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(root, rel)
		if strings.HasSuffix(rel, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestResolveWing holds the one rule of "which project is this": the
// nearest palace.yaml at or above the folder (its wing, else its folder's
// name), else the git work tree's root, else the folder's own name; never
// a home folder's palace.yaml or repository; a home folder itself is
// refused; a broken palace.yaml is an error naming it.
func TestResolveWing(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home", "bob")
	t.Setenv("HOME", home)
	writeFiles(t, home, map[string]string{
		// A dotfiles repository and a palace.yaml in the home folder must
		// not make every project below one.
		".git/":       "",
		"palace.yaml": "wing: everything\n",

		"yaml/palace.yaml":                "wing: billing\n",
		"yaml/src/api/x.go":               "package api\n",
		"bare/palace.yaml":                "rooms:\n  - name: docs\n    keywords: [docs]\n",
		"bare/docs/a.md":                  "a\n",
		"Git Proj/.git/HEAD":              "ref: refs/heads/main\n",
		"Git Proj/src/cmd/main.go":        "package main\n",
		"Git Proj/vendor/lib/palace.yaml": "wing: lib\n",
		"worktree/.git":                   "gitdir: /elsewhere\n", // a linked work tree: .git is a file
		"worktree/pkg/a.go":               "package pkg\n",
		"loose/deep/":                     "",
		"broken/palace.yaml":              "wing: [unclosed\n",
		"broken/sub/":                     "",
		"badname/palace.yaml":             "wing: \"a/b\"\n",
	})

	for _, c := range []struct {
		path, wing, project, from string
	}{
		{"yaml", "billing", "yaml", WingFromConfig},
		{"yaml/src/api", "billing", "yaml", WingFromConfig},
		{"yaml/src/api/x.go", "billing", "yaml", WingFromConfig}, // a file: its folder's project
		{"bare/docs", "bare", "bare", WingFromConfig},
		{"Git Proj/src/cmd", "git-proj", "Git Proj", WingFromGit},
		{"Git Proj", "git-proj", "Git Proj", WingFromGit},
		{"Git Proj/vendor/lib", "lib", "Git Proj/vendor/lib", WingFromConfig}, // the nearer palace.yaml
		{"worktree/pkg", "worktree", "worktree", WingFromGit},
		{"loose/deep", "deep", "loose/deep", WingFromFolder},
	} {
		got, err := ResolveWing(filepath.Join(home, c.path))
		if err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		want := ResolvedWing{Wing: c.wing, Project: filepath.Join(home, c.project), From: c.from}
		if got != want {
			t.Errorf("%s: %+v, want %+v", c.path, got, want)
		}
	}

	// A relative path is the working directory's.
	t.Chdir(filepath.Join(home, "yaml", "src"))
	if got, err := ResolveWing("api"); err != nil || got.Wing != "billing" {
		t.Errorf("relative api: %+v, %v", got, err)
	}

	// A home folder, a folder holding it, the root: no project.
	for _, p := range []string{home, filepath.Dir(home), "/"} {
		_, err := ResolveWing(p)
		var ie *input.Error
		if !errors.As(err, &ie) || ie.Field != "path" || !errors.Is(err, ErrBroadFolder) || !strings.Contains(err.Error(), "belongs to no project") {
			t.Errorf("%s: %v; want a refusal matching ErrBroadFolder", p, err)
		}
	}

	// A palace.yaml that cannot be read, at the folder or above it, is
	// the error, naming the file; so is a wing no operation could use.
	for _, p := range []string{"broken", "broken/sub", "badname"} {
		_, err := ResolveWing(filepath.Join(home, p))
		file := filepath.Join(home, strings.Split(p, "/")[0], "palace.yaml")
		if err == nil || !strings.Contains(err.Error(), file) {
			t.Errorf("%s: %v; want an error naming %s", p, err, file)
		}
	}

	// Bad input is named.
	for _, p := range []string{"", "  ", filepath.Join(home, "missing"), "a\x00b", strings.Repeat("x", MaxPathBytes+1)} {
		_, err := ResolveWing(p)
		var ie *input.Error
		if !errors.As(err, &ie) || ie.Field != "path" {
			t.Errorf("%q: %v; want an invalid path", p, err)
		}
	}
}

// TestMineDefaultsToTheProjectWing: `palace mine DIR` of a folder inside a
// project (below its palace.yaml or in its git work tree) fills the
// project's wing, as a session there saves into it; it used to fill a wing
// named after the folder. --wing and DefaultWing still decide first.
func TestMineDefaultsToTheProjectWing(t *testing.T) {
	base := t.TempDir()
	t.Setenv("HOME", filepath.Join(base, "home"))
	writeFiles(t, base, map[string]string{
		"proj/palace.yaml":   "wing: shop\n",
		"proj/docs/guide.md": "how the checkout retries payments\n",
		"repo/.git/HEAD":     "ref: refs/heads/main\n",
		"repo/notes/a.md":    "the deploy runs on fridays\n",
	})
	p := palacetest.OpenPalace(t)
	ctx := context.Background()
	for _, c := range []struct {
		req  MineRequest
		wing string
	}{
		{MineRequest{Path: filepath.Join(base, "proj", "docs"), NoVectors: true}, "shop"},
		{MineRequest{Path: filepath.Join(base, "repo", "notes"), NoVectors: true}, "repo"},
		{MineRequest{Path: filepath.Join(base, "repo", "notes"), Wing: "mine", NoVectors: true}, "mine"},
		{MineRequest{Path: filepath.Join(base, "repo", "notes"), DefaultWing: "ws", NoVectors: true}, "ws"},
	} {
		res, err := Mine(ctx, p, c.req)
		if err != nil {
			t.Fatalf("%+v: %v", c.req, err)
		}
		if res.Wing != c.wing {
			t.Errorf("mine %s (wing %q, default %q): wing %q, want %q", c.req.Path, c.req.Wing, c.req.DefaultWing, res.Wing, c.wing)
		}
	}
	// A broken palace.yaml above the folder stops the mine: its wing is
	// not known.
	writeFiles(t, base, map[string]string{"bad/palace.yaml": "wing: [\n", "bad/sub/a.md": "text\n"})
	if _, err := Mine(ctx, p, MineRequest{Path: filepath.Join(base, "bad", "sub"), NoVectors: true}); err == nil ||
		!strings.Contains(err.Error(), filepath.Join(base, "bad", "palace.yaml")) {
		t.Errorf("mine below a broken palace.yaml: %v", err)
	}
}
