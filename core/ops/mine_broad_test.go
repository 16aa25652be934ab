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

// A home folder, a folder holding it, the file system root and the
// top-level folders of users' homes are refused as a mine's path, named with
// why, before anything is read; a project or a single file inside them is
// mined; AllowHomeOrRoot (the CLI's explicit flag) mines them.
func TestMineRefusesHomeAndRoot(t *testing.T) {
	base := t.TempDir()
	users := filepath.Join(base, "users")
	userHome := filepath.Join(users, "bob")
	for rel, body := range map[string]string{
		".bashrc": "export TOKDOTFILE=1\n", "notes.md": "tokhomenote\n", "proj/a.md": "tokhomeproject\n",
	} {
		p := filepath.Join(userHome, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(base, "home-link")
	if err := os.Symlink(userHome, link); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", userHome)

	for _, c := range []struct {
		path, why string // why "": accepted
	}{
		{userHome, "it is your home folder"},
		{userHome + "/", "it is your home folder"},
		{link, "it is your home folder"},
		{users, "it holds your home folder"},
		{base, "it holds your home folder"},
		{"/", "it is the file system root"},
		{filepath.Join(userHome, "proj"), ""},
		{filepath.Join(userHome, "notes.md"), ""},
		{filepath.Join(userHome, "missing"), ""}, // the mine says it does not exist
	} {
		err := MineRequest{Path: c.path}.Validate()
		var ie *input.Error
		switch {
		case c.why == "" && err != nil:
			t.Errorf("%s: %v; want it accepted", c.path, err)
		case c.why != "" && (!errors.As(err, &ie) || ie.Field != "path" || !strings.Contains(ie.Msg, c.why)):
			t.Errorf("%s: %v; want an invalid path saying %q", c.path, err, c.why)
		case c.why != "" && !errors.Is(err, ErrBroadFolder):
			t.Errorf("%s: %v does not match ErrBroadFolder", c.path, err)
		}
	}

	t.Chdir(userHome)
	if err := (MineRequest{Path: "."}).Validate(); err == nil || !strings.Contains(err.Error(), "it is your home folder") {
		t.Errorf(`"." in the home folder: %v; want refused`, err)
	}

	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	res, err := Mine(ctx, p, MineRequest{Path: userHome, NoVectors: true})
	if !errors.Is(err, input.ErrInvalid) || res.Summary != nil {
		t.Fatalf("Mine(home) = %+v, %v; want invalid input and no summary", res.Summary, err)
	}
	if st, err := p.Store.Status(ctx); err != nil || st.Drawers != 0 {
		t.Fatalf("after the refused mine: %d drawers, %v; want none", st.Drawers, err)
	}
	// What is inside is not refused: a project, and home itself when asked.
	if _, err := Mine(ctx, p, MineRequest{Path: filepath.Join(userHome, "proj"), NoVectors: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := Mine(ctx, p, MineRequest{Path: userHome, NoVectors: true, AllowHomeOrRoot: true}); err != nil {
		t.Fatal(err)
	}
	// An editor's save names its files: only they are read, never the
	// folder, so the rule does not apply.
	if err := (MineRequest{Path: userHome, FilesOnly: true, Files: []string{filepath.Join(userHome, "notes.md")}}).Validate(); err != nil {
		t.Errorf("files only, in home: %v", err)
	}
}

// The top-level folders of users' homes are refused whoever the user is.
func TestBroadFolderHomeParents(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	for _, dir := range []string{"/home", "/root", "/Users"} {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue // not on this system
		}
		if why := BroadFolder(dir); why == "" {
			t.Errorf("BroadFolder(%s) accepts it", dir)
		}
	}
	if why := BroadFolder(t.TempDir()); why != "" {
		t.Errorf("a project folder: %q", why)
	}
}
