package ops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
	"github.com/palace-dev/palace/core/transfer"
)

// SalvageRequest asks to copy every readable row of a palace (a damaged
// one, which Repair cannot mend) into a new palace.
type SalvageRequest struct {
	// Into is the new palace's home: a folder that does not exist yet or
	// is empty. The damaged palace is only read.
	Into string
	// Progress, when set, is called as rows are written to the new palace.
	Progress func(done, total int) `json:"-"`
}

// Validate names the first bad field; SalvageAt checks the folder itself.
func (r SalvageRequest) Validate() error { return checkText("into", r.Into) }

// SalvageResult says what reached the new palace and what was lost.
type SalvageResult struct {
	Into string `json:"into"`
	// Rows is how many rows the export read (not counting its header).
	Rows int `json:"rows"`
	// Unreadable are the runs of rows the damaged file could not give:
	// what was lost, with the drawer ids the id index still names.
	Unreadable []Unreadable `json:"unreadable,omitempty"`
	// Added counts the rows written to the new palace, by row type.
	Added map[string]int `json:"added"`
	// Doctor is the new palace's health after the copy.
	Doctor DoctorResult `json:"doctor"`
}

// SalvageAt opens the palace at home read-only, without reading or
// migrating its schema (a damaged file may fail both; see
// palace.OpenForCheck), so nothing in it changes, and salvages it as
// Salvage does. A lost palace (an empty database beside an audit log of
// committed writes) holds nothing to salvage and is refused with
// store.ErrLostPalace. A file cut short, which SQLite refuses whole, is
// read from a copy of its pages SQLite reads (store.ReadableCopy), made
// in a folder inside the new palace's home and removed afterwards.
func SalvageAt(ctx context.Context, home string, o palace.Options, r SalvageRequest) (SalvageResult, error) {
	res := SalvageResult{Into: r.Into, Added: map[string]int{}}
	if err := r.Validate(); err != nil {
		return res, err
	}
	into, err := filepath.Abs(r.Into)
	if err != nil {
		return res, input.Invalid("into", "%v", err)
	}
	res.Into = into
	resolved, err := store.ResolveHome(home)
	if err != nil {
		return res, err
	}
	if err := store.CheckExists(resolved); err != nil {
		return res, err
	}
	if err := newFolder(into); err != nil {
		return res, err
	}
	from := resolved
	if err := os.MkdirAll(into, 0o700); err != nil {
		return res, fmt.Errorf("salvage: create the new palace's home: %w", err)
	}
	scratch, err := os.MkdirTemp(into, "salvage-source-")
	if err != nil {
		return res, fmt.Errorf("salvage: %w", err)
	}
	defer os.RemoveAll(scratch)
	copied, err := store.ReadableCopy(resolved, scratch)
	if err != nil {
		return res, fmt.Errorf("salvage: %w", err)
	}
	if copied {
		from = scratch
	}
	src, err := palace.OpenForCheck(from, o)
	if err != nil {
		return res, err
	}
	defer src.Close()
	return salvageInto(ctx, src, o, r, res)
}

// Salvage copies every row of src that SQLite can still read into a new
// palace at r.Into through the export and import every palace uses (so the
// copy is checked as any import is, and its search index rebuilt from the
// content), then runs Doctor on it. Rows the export could not read, and
// rows that read as garbage an import refuses (see
// transfer.ExportReadable), are listed in the result. src is only read;
// the new palace lacks what an export does not carry (vectors, to be
// rebuilt with `palace reindex`; the mined-source records, so the next
// mine reads every file again; the audit log). o configures the new
// palace.
func Salvage(ctx context.Context, src *palace.Palace, o palace.Options, r SalvageRequest) (SalvageResult, error) {
	res := SalvageResult{Into: r.Into, Added: map[string]int{}}
	if err := r.Validate(); err != nil {
		return res, err
	}
	into, err := filepath.Abs(r.Into)
	if err != nil {
		return res, input.Invalid("into", "%v", err)
	}
	res.Into = into
	if err := newFolder(into); err != nil {
		return res, err
	}
	return salvageInto(ctx, src, o, r, res)
}

// salvageInto is Salvage once res.Into is known to be a new folder (or
// one holding only SalvageAt's copy of the source).
func salvageInto(ctx context.Context, src *palace.Palace, o palace.Options, r SalvageRequest, res SalvageResult) (SalvageResult, error) {
	into := res.Into
	dst, err := Open(ctx, into, o)
	if err != nil {
		return res, fmt.Errorf("create the new palace: %w", err)
	}
	defer dst.Close()

	// The export goes through a file in the new home, private to it, and
	// is removed once imported.
	f, err := os.CreateTemp(into, "salvage-*.jsonl")
	if err != nil {
		return res, fmt.Errorf("salvage: %w", err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	res.Rows, res.Unreadable, err = transfer.ExportReadable(ctx, src, f)
	if err != nil {
		return res, fmt.Errorf("salvage: read the damaged palace: %w", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return res, fmt.Errorf("salvage: %w", err)
	}
	rows, err := transfer.Read(ctx, dst, f.Name(), f)
	if err != nil {
		return res, fmt.Errorf("salvage: the readable rows do not import (the new palace at %s is empty): %w", into, err)
	}
	got, err := retryBusy(ctx, "salvage into "+into, func() (store.ImportResult, error) {
		return dst.Store.ImportRows(ctx, f.Name(), rows, r.Progress)
	})
	if err != nil {
		return res, fmt.Errorf("salvage: write the new palace at %s: %w", into, err)
	}
	res.Added = got.Added
	res.Doctor, err = Doctor(ctx, dst, DoctorRequest{})
	return res, err
}

// newFolder refuses a salvage target that holds anything: a palace (the
// damaged one itself, or another whose rows would mix with the salvage)
// or other files.
func newFolder(dir string) error {
	if store.CheckExists(dir) == nil {
		return input.Invalid("into", "%s already holds a palace: name a new folder", dir)
	}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return input.Invalid("into", "%v", err)
	case len(entries) > 0:
		return input.Invalid("into", "%s is not empty: name a new folder", dir)
	}
	return nil
}
