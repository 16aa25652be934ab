package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

type purgeOut struct {
	ID            string     `json:"id"`
	Purged        bool       `json:"purged"`
	AlreadyPurged bool       `json:"already_purged"`
	PurgedAt      *time.Time `json:"purged_at"`
	Kind          string     `json:"kind"`
	Notice        string     `json:"notice"`
}

// Defect 5 of issue 15: forget could not remove a secret (readable by id,
// exported, mined again). Purge erases it everywhere, and a re-mine of the
// unchanged file, in either secrets mode, does not bring it back until
// unpurge.
func TestDrawerPurgeCLI(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "purgeproj")
	const secret = "the vault unlock phrase is tokmarmalade-kumquat"
	clitest.WriteTree(t, proj, map[string]string{"ops.md": "# Ops\n\n" + secret + "\n", "other.md": "tokmarmalade is also a jam\n"})
	home := t.TempDir()
	mineOK(t, home, proj)
	r := searchOK(t, home, "tokmarmalade kumquat", "--source", filepath.Join(proj, "ops.md"))
	if len(r.Hits) != 1 {
		t.Fatalf("want one hit in ops.md, got %v", sourcesOf(r))
	}
	id := r.Hits[0].ID

	var p purgeOut
	palaceOK(t, home, &p, "drawer", "purge", id, "--json")
	if !p.Purged || p.AlreadyPurged || p.PurgedAt == nil || p.Kind != "file" || !strings.Contains(p.Notice, "ops.md") {
		t.Fatalf("purge: %+v", p)
	}
	if d := showDrawer(t, home, id); d.Content != "" || d.DeletedAt == nil {
		t.Errorf("drawer show after purge: content %q deleted %v", d.Content, d.DeletedAt)
	}
	if r := searchOK(t, home, "kumquat"); len(r.Hits) != 0 {
		t.Errorf("search after purge: %v", sourcesOf(r))
	}
	exp, errOut, code := runPalace(t, home, "export")
	if code != 0 {
		t.Fatalf("export: %d %q", code, errOut)
	}
	if strings.Contains(exp, "kumquat") || !strings.Contains(exp, id) {
		t.Errorf("export carries the purged text, or lost the tombstone")
	}
	b, err := os.ReadFile(filepath.Join(home, "audit", "write_log.jsonl"))
	if err != nil || !strings.Contains(string(b), `"op":"drawer.purge"`) || strings.Contains(string(b), "kumquat") {
		t.Errorf("audit log: %v\n%s", err, b)
	}

	out := palaceOK(t, home, nil, "drawer", "purge", id)
	if !strings.HasPrefix(out, id+" was already purged at ") || strings.Count(out, "\n") != 1 {
		t.Errorf("second purge: %q", out)
	}
	out = palaceOK(t, home, nil, "drawer", "rm", id)
	if !strings.HasPrefix(out, id+" was already forgotten") {
		t.Errorf("rm after purge: %q", out)
	}

	// The unchanged file mined again, in the other secrets mode, so every
	// chunk is written anew.
	mineOK(t, home, proj, "--keep-secrets")
	if r := searchOK(t, home, "kumquat"); len(r.Hits) != 0 {
		t.Errorf("re-mine brought the purged chunk back: %v", sourcesOf(r))
	}
	out = palaceOK(t, home, nil, "drawer", "unpurge", id)
	if !strings.HasPrefix(out, "unpurged "+id) {
		t.Errorf("unpurge: %q", out)
	}
	mineOK(t, home, proj, "--keep-secrets")
	if r := searchOK(t, home, "kumquat"); len(r.Hits) != 1 {
		t.Errorf("after unpurge the mine did not bring the chunk back: %v", sourcesOf(r))
	}
	if _, errOut, code := runPalace(t, home, "drawer", "unpurge", id); code != 2 || !strings.Contains(errOut, "not purged") {
		t.Errorf("unpurge of a live drawer: exit %d, %q", code, errOut)
	}
}
