package aaak

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLeafPackage fails if aaak imports anything but the standard library:
// it is a leaf that every front end can use without pulling in Palace.
func TestLeafPackage(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list dependencies: %v", err)
	}
	const self = "github.com/palace-dev/palace/aaak"
	out, err := exec.Command(gobin, "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", self).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, std, _ := strings.Cut(line, " ")
		seen++
		switch {
		case path == self:
		case strings.HasPrefix(path, "github.com/palace-dev/palace/"):
			t.Errorf("aaak depends on %s, a package of this module", path)
		case std != "true":
			t.Errorf("aaak depends on %s, which is not in the standard library", path)
		}
	}
	if seen < 5 {
		t.Errorf("go list returned only %d packages; is the output format right?\n%s", seen, out)
	}
}

// TestNotImportedByMiningOrSearch fails if mining, search or storage come to
// depend on aaak: AAAK formats output and is never part of how drawers are
// stored or found.
func TestNotImportedByMiningOrSearch(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list dependencies: %v", err)
	}
	const self = "github.com/palace-dev/palace/aaak"
	for _, pkg := range []string{"mine", "search", "store", "query", "chunk", "convo", "palace"} {
		path := "github.com/palace-dev/palace/core/" + pkg
		out, err := exec.Command(gobin, "list", "-deps", path).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", path, err, out)
		}
		if !strings.Contains(string(out), path) {
			t.Fatalf("go list %s did not list the package itself", path)
		}
		for _, dep := range strings.Fields(string(out)) {
			if dep == self {
				t.Errorf("%s imports aaak", path)
			}
		}
	}
}
