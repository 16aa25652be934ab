package hook

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A settings file kept in a dotfiles repository and linked into place
// stays a link through install and uninstall: the hooks are written where
// the link leads (atomically, in that folder), and uninstall gives the
// linked file its bytes back. Claude Code's settings.json and Codex's
// hooks.json, by an absolute and a relative link; a link to a file not
// there yet gets the file, and loses it at uninstall, keeping the link.
func TestInstallThroughSymlink(t *testing.T) {
	const original = "{\n  \"model\": \"opus\",\n  \"theme\":   \"dark\"\n}\n"
	for _, c := range []struct {
		name, agent string
		relative    bool
		absent      bool
	}{
		{"claude absolute", AgentClaudeCode, false, false},
		{"claude relative", AgentClaudeCode, true, false},
		{"codex absolute", AgentCodex, false, false},
		{"claude dangling", AgentClaudeCode, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := opts(t, c.agent)
			o.StateDir = t.TempDir()
			settings, err := o.SettingsPath()
			if err != nil {
				t.Fatal(err)
			}
			dotfiles := filepath.Join(o.UserHome, "dotfiles", c.agent)
			target := filepath.Join(dotfiles, "settings.json")
			if err := os.MkdirAll(dotfiles, 0o755); err != nil {
				t.Fatal(err)
			}
			if !c.absent {
				if err := os.WriteFile(target, []byte(original), 0o640); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
				t.Fatal(err)
			}
			linkTo := target
			if c.relative {
				if linkTo, err = filepath.Rel(filepath.Dir(settings), target); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Symlink(linkTo, settings); err != nil {
				t.Skipf("symlinks unavailable: %v", err)
			}
			stillLink := func(when string) {
				t.Helper()
				if got, err := os.Readlink(settings); err != nil || got != linkTo {
					t.Fatalf("%s: %s is no longer the link to %s (%q, %v)", when, settings, linkTo, got, err)
				}
				if left, _ := filepath.Glob(filepath.Join(filepath.Dir(settings), ".palace-*")); len(left) > 0 {
					t.Errorf("%s: temporary files left: %v", when, left)
				}
			}

			p, err := hooksPlan(PlanInstall, o)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Apply(); err != nil {
				t.Fatal(err)
			}
			stillLink("after install")
			b, err := os.ReadFile(target)
			if err != nil || !bytes.Contains(b, []byte(marker(c.agent))) {
				t.Fatalf("the linked file after install (%v):\n%s", err, b)
			}
			if fi, err := os.Stat(target); err == nil && !c.absent && fi.Mode().Perm() != 0o640 {
				t.Errorf("the linked file's mode became %v", fi.Mode().Perm())
			}

			if p, err = hooksPlan(PlanUninstall, o); err != nil {
				t.Fatal(err)
			}
			if err := p.Apply(); err != nil {
				t.Fatal(err)
			}
			stillLink("after uninstall")
			b, err = os.ReadFile(target)
			switch {
			case c.absent && !os.IsNotExist(err):
				t.Errorf("the file install created behind the link is still there (%v): %s", err, b)
			case !c.absent && (err != nil || string(b) != original):
				t.Errorf("the linked file after uninstall (%v):\n%s\nwant\n%s", err, b, original)
			}
		})
	}
}

// The Claude Code plugin's files are written through links too.
func TestPluginFilesThroughSymlink(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	target := filepath.Join(elsewhere, "plugin.json")
	if err := os.WriteFile(target, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "plugin.json")
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	if err := WriteFiles(dir, map[string][]byte{"plugin.json": []byte("{\"name\": \"palace\"}\n"), "sub/x.json": []byte("{}\n")}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("plugin.json is no longer a link: %v %v", fi, err)
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), "palace") {
		t.Errorf("the linked plugin file: %s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "sub", "x.json")); err != nil {
		t.Errorf("a plain file: %v", err)
	}
}

// A loop of links is an error naming the file, and nothing is written.
func TestInstallSymlinkLoop(t *testing.T) {
	o := opts(t, AgentClaudeCode)
	settings, _ := o.SettingsPath()
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(filepath.Dir(settings), "other.json")
	if err := os.Symlink(other, settings); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	if err := os.Symlink(settings, other); err != nil {
		t.Fatal(err)
	}
	p, err := hooksPlan(PlanInstall, o)
	if err == nil {
		err = p.Apply()
	}
	if err == nil || !strings.Contains(err.Error(), settings) {
		t.Fatalf("install through a loop of links: %v; want an error naming %s", err, settings)
	}
	if fi, err := os.Lstat(settings); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi, err)
	}
}
