package ops

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// A palace file cut to half salvages the drawers SQLite can still read
// (it salvaged none: SQLite refused the file whole), and leaves no copy
// of the damaged file in the new palace; a lost palace is refused before
// the new folder is even made.
func TestSalvageTruncatedAndLost(t *testing.T) {
	ctx := context.Background()
	o := withoutModel(t)
	p, err := palace.Open(t.TempDir(), o)
	if err != nil {
		t.Fatal(err)
	}
	home := p.Store.Home()
	var ds []store.Drawer
	for i := range 2000 {
		text := fmt.Sprintf("note %d: %s", i, strings.Repeat("the release freeze starts on Thursday ", 4))
		h := store.ContentHash(text)
		ds = append(ds, store.Drawer{ID: store.DrawerID("proj", "note", i, h), Wing: "proj", Room: "general",
			Kind: store.KindNote, Source: "note", Content: text, ContentHash: h})
	}
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	p.Close()
	db := filepath.Join(home, store.DBName)
	fi, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(db, fi.Size()/2); err != nil {
		t.Fatal(err)
	}

	into := filepath.Join(t.TempDir(), "new")
	res, err := SalvageAt(ctx, home, o, SalvageRequest{Into: into})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Added["drawer"]; got < len(ds)/3 || got >= len(ds) || len(res.Unreadable) == 0 || !res.Doctor.OK {
		t.Errorf("salvage of a palace cut to half: %d of %d drawers, %d unreadable runs, doctor ok %v",
			got, len(ds), len(res.Unreadable), res.Doctor.OK)
	}
	if m, _ := filepath.Glob(filepath.Join(into, "salvage-*")); len(m) != 0 {
		t.Errorf("the salvage left %v in the new palace", m)
	}

	if err := os.Truncate(db, 0); err != nil {
		t.Fatal(err)
	}
	lostInto := filepath.Join(t.TempDir(), "new")
	if _, err := SalvageAt(ctx, home, o, SalvageRequest{Into: lostInto}); !errors.Is(err, store.ErrLostPalace) {
		t.Errorf("salvage of a lost palace: %v; want ErrLostPalace", err)
	}
	if _, err := os.Stat(lostInto); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the salvage of a lost palace made %s (%v)", lostInto, err)
	}
}
