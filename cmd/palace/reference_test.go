package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

var updateReference = flag.Bool("update", false, "rewrite "+referenceFile+" from the command tree (TestCLIReference)")

// The CLI reference is the commands' own help: regenerated in memory, it
// must equal the file in docs/, so a changed flag, default or description
// cannot leave the reference behind.
func TestCLIReference(t *testing.T) {
	var b bytes.Buffer
	writeReference(&b, newRoot())
	path := filepath.Join("..", "..", filepath.FromSlash(referenceFile))
	if *updateReference {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: write it with '%s'", err, referenceRegen)
	}
	if bytes.Equal(old, b.Bytes()) {
		return
	}
	oldLines, newLines := strings.Split(string(old), "\n"), strings.Split(b.String(), "\n")
	i := 0
	for i < len(oldLines) && i < len(newLines) && oldLines[i] == newLines[i] {
		i++
	}
	line := func(ls []string) string {
		if i < len(ls) {
			return ls[i]
		}
		return "(end of file)"
	}
	t.Fatalf("%s differs from the commands' help at line %d:\n  file: %s\n  help: %s\nrewrite it with '%s' and commit it",
		referenceFile, i+1, line(oldLines), line(newLines), referenceRegen)
}

// Every command a user can run has its section and its line in the
// contents, and no hidden flag or command is listed; the reference does not
// depend on who generates it (home, palace, profile).
func TestCLIReferenceCoversTheTree(t *testing.T) {
	var b bytes.Buffer
	writeReference(&b, newRoot())
	doc := b.String()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if !c.IsAvailableCommand() && c.HasParent() {
			if strings.Contains(doc, "\n## "+c.CommandPath()+"\n") {
				t.Errorf("hidden command %q is in the reference", c.CommandPath())
			}
			return
		}
		if !strings.Contains(doc, "\n## "+c.CommandPath()+"\n") {
			t.Errorf("no section for %q", c.CommandPath())
			return
		}
		if !strings.Contains(doc, "["+c.CommandPath()+"](#"+anchor(c.CommandPath())+")") {
			t.Errorf("no contents line for %q", c.CommandPath())
		}
		section := doc[strings.Index(doc, "\n## "+c.CommandPath()+"\n")+1:]
		if end := strings.Index(section[1:], "\n## "); end >= 0 {
			section = section[:end+1]
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden && strings.Contains(section, "`--"+f.Name) {
				t.Errorf("%s: the hidden flag --%s is in the reference", c.CommandPath(), f.Name)
			}
		})
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	root := newRoot()
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	walk(root)

	t.Setenv("HOME", t.TempDir())
	t.Setenv("PALACE_HOME", t.TempDir())
	t.Setenv("PALACE_MODEL_DIR", t.TempDir())
	t.Setenv("PALACE_MCP_PROFILE", "full")
	var again bytes.Buffer
	writeReference(&again, newRoot())
	if again.String() != doc {
		t.Error("the reference changes with HOME, PALACE_HOME, PALACE_MODEL_DIR or PALACE_MCP_PROFILE")
	}
}
