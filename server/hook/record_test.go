package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Uninstall gives back the settings file install found, byte for byte:
// its formatting, an empty "hooks" object, no trailing newline. Once
// someone else has changed the file, uninstall removes Palace's entries
// and keeps their change.
func TestUninstallRestoresTheFileInstallFound(t *testing.T) {
	o := opts(t, AgentClaudeCode)
	o.StateDir = t.TempDir()
	path, _ := o.SettingsPath()
	before := `{"model":"opus",   "hooks":{}}`
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte(before), 0o600)
	apply := func(plan func(InstallOptions) ([]Plan, error)) {
		t.Helper()
		p, err := hooksPlan(plan, o)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Apply(); err != nil {
			t.Fatal(err)
		}
	}
	apply(PlanInstall)
	o.Binary = "/usr/local/bin/palace" // a moved binary: install again
	apply(PlanInstall)
	apply(PlanUninstall)
	if got, _ := os.ReadFile(path); string(got) != before {
		t.Fatalf("after install, reinstall, uninstall:\n got %q\nwant %q", got, before)
	}

	apply(PlanInstall)
	edited, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(edited), `"opus"`, `"sonnet"`, 1)), 0o600)
	apply(PlanUninstall)
	got, _ := os.ReadFile(path)
	if !strings.Contains(string(got), `"sonnet"`) || strings.Contains(string(got), "hook run") {
		t.Fatalf("uninstall after an edit:\n%s", got)
	}

	// A file install created is removed again.
	o = opts(t, AgentCodex)
	o.StateDir = t.TempDir()
	path, _ = o.SettingsPath()
	apply(PlanInstall)
	apply(PlanUninstall)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("%s still there after uninstall: %v", path, err)
	}
}
