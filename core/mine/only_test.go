package mine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace/palacetest"
)

// onlyTree is a folder where every rule a walk applies decides something:
// nested ignore files with a negation, .git/info/exclude, an ignored
// folder, a dependency folder, a sensitive folder, a symbolic link,
// palace.yaml with rooms (routing by folder and by keyword) and a source
// file cut at its definitions.
func onlyTree(t *testing.T) string {
	root := tree(t, map[string]string{
		"palace.yaml":         "wing: proj\nrooms:\n  - name: backend\n    keywords: [database]\n  - name: docs\n",
		".gitignore":          "*.log\nbuild/\n",
		".git/info/exclude":   "local.md\n",
		"docs/guide.md":       "# Guide\n\nHow to start.\n",
		"notes.txt":           "the database schema lives here\n",
		"local.md":            "excluded locally\n",
		"debug.log":           "ignored\n",
		"build/out.txt":       "ignored folder\n",
		"node_modules/m/a.js": "dependency\n",
		".ssh/config":         "Host x\n",
		"sub/.gitignore":      "!keep.log\nsecret.txt\n",
		"sub/keep.log":        "re-included below\n",
		"sub/secret.txt":      "ignored below\n",
		"sub/code.go":         "package sub\n\n// Hello greets.\nfunc Hello() string { return \"hi\" }\n\nfunc Other() {}\n",
	})
	if err := os.Symlink(filepath.Join(root, "notes.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	return root
}

// A mine of some files (Options.Only) stores for them exactly what a mine
// of the whole folder stores (drawers, ids, rooms, line ranges, index
// text, metadata), skips what the walk skips for the same reason, prunes
// a named file that is gone, and touches no other file.
func TestOnlyMinesFilesAsTheFolderMineDoes(t *testing.T) {
	ctx := context.Background()
	root := onlyTree(t)
	folder, only := palacetest.OpenPalace(t), palacetest.OpenPalace(t)
	if _, err := Run(ctx, folder, root, Options{}); err != nil {
		t.Fatal(err)
	}
	// Every path the tree holds, mined one call each, then all together.
	var paths []string
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			paths = append(paths, p)
		}
		return nil
	})
	skipped := map[string]string{}
	for _, p := range paths {
		sum, err := Run(ctx, only, root, Options{Only: []string{p}})
		if err != nil {
			t.Fatalf("only %s: %v", p, err)
		}
		for _, k := range sum.Skipped {
			skipped[k.Path] = k.Reason
		}
		if sum.SkippedBy[ReasonIgnored] > 0 {
			skipped[p] = ReasonIgnored
		}
	}
	sameDrawers(t, "files mined one by one", drawerDump(t, only, false), drawerDump(t, folder, false))
	for rel, reason := range map[string]string{
		"local.md": ReasonIgnored, "debug.log": ReasonIgnored, "build/out.txt": ReasonIgnored,
		"node_modules/m/a.js": ReasonIgnored, "sub/secret.txt": ReasonIgnored,
		"link.txt": ReasonSymlink, "palace.yaml": ReasonMetadata,
	} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if got := skipped[p]; got != reason {
			t.Errorf("%s skipped as %q, want %q", rel, got, reason)
		}
	}
	if skipped[filepath.Join(root, ".ssh")] != ReasonSensitive {
		t.Errorf(".ssh/config: the folder is not reported sensitive: %v", skipped)
	}
	if got := drawerDump(t, only, true); !strings.Contains(strings.Join(got, "\n"), "proj/backend") {
		t.Errorf("no drawer routed to backend by keyword: %v", got)
	}

	// An edit, a file now ignored and a file deleted, named together.
	write(t, root, "docs/guide.md", "# Guide\n\nHow to start, and the database.\n")
	write(t, root, "sub/.gitignore", "!keep.log\nsecret.txt\ncode.go\n")
	write(t, root, "new.txt", "a file the editor did not save\n")
	if err := os.Remove(filepath.Join(root, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	named := []string{filepath.Join(root, "docs/guide.md"), filepath.Join(root, "sub/code.go"), filepath.Join(root, "notes.txt"),
		filepath.Join(root, "sub/keep.log"), filepath.Join(root, "sub/.gitignore")}
	sum, err := Run(ctx, only, root, Options{Only: named})
	if err != nil {
		t.Fatal(err)
	}
	if sum.FilesSeen != 3 || sum.FilesMined != 2 || sum.FilesUnchanged != 1 || sum.SourcesPruned != 2 {
		t.Errorf("summary: seen %d, mined %d, unchanged %d, pruned %d; want 3, 2, 1, 2", sum.FilesSeen, sum.FilesMined, sum.FilesUnchanged, sum.SourcesPruned)
	}
	// A file not named is not read: the folder is not walked.
	if n := drawersOf(t, only.Store, "proj")["new.txt"]; n != 0 {
		t.Errorf("new.txt, not named, has %d drawers", n)
	}
	if _, err := Run(ctx, only, root, Options{Only: []string{filepath.Join(root, "new.txt")}}); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(ctx, folder, root, Options{}); err != nil {
		t.Fatal(err)
	}
	sameDrawers(t, "after an edit, an ignore and a delete", drawerDump(t, only, false), drawerDump(t, folder, false))

	// A path outside the folder is not this mine's: nothing is read or pruned.
	outside := filepath.Join(t.TempDir(), "x.txt")
	if sum, err := Run(ctx, only, root, Options{Only: []string{outside}}); err != nil || sum.FilesSeen != 0 || sum.SourcesPruned != 0 {
		t.Errorf("outside the folder: %+v, %v", sum, err)
	}
}
