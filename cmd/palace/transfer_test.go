//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// exportTo runs palace export on home into a file and returns its path.
func exportTo(t *testing.T, home string, extra ...string) string {
	t.Helper()
	out, errOut, code := runPalace(t, home, append([]string{"export"}, extra...)...)
	if code != 0 {
		t.Fatalf("export: exit %d, %s", code, errOut)
	}
	path := filepath.Join(t.TempDir(), "export.jsonl")
	if err := os.WriteFile(path, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// A functional predicate declared in one palace is functional in the
// palace that imports its export (issue 15, defect 6), and the import
// prints a summary a person reads, not Go maps (defect 11).
func TestImportCarriesSettingsAndPrintsSummary(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	palaceOK(t, a, nil, "remember", "tokexported the release is on Friday", "--wing", "proj")
	kgRun(t, a, 0, "functional", "add", "leads")
	kgAdd(t, a, 0, "Bob", "leads", "Team A", "--from", "2024-01-01")
	kgAdd(t, a, exitConflict, "Bob", "leads", "Team B", "--from", "2024-01-01")
	file := exportTo(t, a)

	out, errOut, code := runPalace(t, b, "import", file)
	if code != 0 || errOut != "" {
		t.Fatalf("import: exit %d, %s", code, errOut)
	}
	want := "added      1 setting, 1 drawer, 2 entities, 1 fact\nunchanged  nothing\nconflicts  none\n"
	if out != want {
		t.Errorf("import summary:\n%s\nwant:\n%s", out, want)
	}
	kgAdd(t, b, exitConflict, "Bob", "leads", "Team B", "--from", "2024-01-01")

	// Again: everything is held already; the JSON form counts by row type.
	var res struct {
		File      string         `json:"file"`
		Added     map[string]int `json:"added"`
		Unchanged map[string]int `json:"unchanged"`
		Conflicts []string       `json:"conflicts"`
	}
	palaceOK(t, b, &res, "import", file, "--json")
	if res.File != file || len(res.Added) != 0 || res.Unchanged["setting"] != 1 || res.Unchanged["drawer"] != 1 || res.Conflicts == nil {
		t.Errorf("second import --json: %+v", res)
	}

	// A palace with its own list keeps it and says so.
	c := t.TempDir()
	kgRun(t, c, 0, "functional", "add", "owns")
	out = palaceOK(t, c, nil, "import", file)
	if !strings.Contains(out, "conflicts  1 (this palace kept its own):\n  setting kg.functional\n") || strings.Contains(out, "map[") {
		t.Errorf("import with a conflicting setting:\n%s", out)
	}
}

// Export and import refuse what they cannot do: an unknown wing is a usage
// error (not an empty file), a missing file names itself, nothing written.
func TestExportImportRefusals(t *testing.T) {
	home := t.TempDir()
	palaceOK(t, home, nil, "remember", "tokrefusal a note", "--wing", "proj")
	out, errOut, code := runPalace(t, home, "export", "--wing", "nope")
	if code != 2 || out != "" || !strings.Contains(errOut, `"nope": no such wing (wings: proj)`) {
		t.Errorf("export --wing nope: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	missing := filepath.Join(t.TempDir(), "gone.jsonl")
	_, errOut, code = runPalace(t, home, "import", missing)
	if code != 1 || !strings.Contains(errOut, missing) {
		t.Errorf("import of a missing file: exit %d, %q", code, errOut)
	}
	_, errOut, code = runPalace(t, home, "import", "")
	if code != 2 || !strings.Contains(errOut, "file is empty") {
		t.Errorf("import of a blank name: exit %d, %q", code, errOut)
	}
}
