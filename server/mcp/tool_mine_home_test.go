package mcp

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
)

// A client whose workspace root is the user's home folder (palace_mine
// $HOME mined 9,001 files) cannot have the home folder mined, by any of its
// names, nor with any argument; a project inside it is mined. A relative
// path is judged once resolved against the root, not the server's working
// directory: a server started in the home folder still mines "." of a
// project root.
func TestMineHomeRootRefused(t *testing.T) {
	userHome := t.TempDir()
	writeFile(t, userHome, ".bashrc", "export TOKDOTFILE=1\n")
	writeFile(t, userHome, "notes.md", "tokhomenote\n")
	writeFile(t, userHome, "proj/a.md", "tokhomeproject\n")
	t.Setenv("HOME", userHome)
	t.Chdir(userHome)

	p := palacetest.OpenPalace(t, palace.Options{Actor: "mcp"})
	c := startStdio(t, newTestServer(t, p, Options{AllowPaths: []string{userHome}}), []string{userHome})
	for _, path := range []string{".", userHome, userHome + "/", "proj/.."} {
		c.fails("palace_mine", map[string]any{"path": path}, "invalid input: path")
		c.fails("palace_mine", map[string]any{"path": path}, "it is your home folder")
	}
	c.invalid("palace_mine", map[string]any{"path": ".", "allow_home_or_root": true}, "allow_home_or_root")
	if st, err := p.Store.Status(context.Background()); err != nil || st.Drawers != 0 {
		t.Fatalf("after the refusals: %d drawers, %v; want none", st.Drawers, err)
	}
	var res struct {
		FilesMined int `json:"files_mined"`
	}
	c.ok("palace_mine", map[string]any{"path": "proj"}, &res)
	if res.FilesMined != 1 {
		t.Errorf("a project inside home: %+v", res)
	}

	proj := startStdio(t, newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{}), []string{filepath.Join(userHome, "proj")})
	proj.ok("palace_mine", map[string]any{"path": "."}, &res)
	if res.FilesMined != 1 {
		t.Errorf(`"." of a project root, the server in the home folder: %+v`, res)
	}
}
