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
