package ops

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
	"github.com/palace-dev/palace/core/transfer"
)

// RowKinds are the row types of an export, in the order it writes them:
// settings, taxonomy rooms, drawers, entities, triples (facts), review
// decisions (proposals accepted or rejected).
var RowKinds = store.TransferKinds()

// Unreadable is a run of rows a damaged database could not give an export.
type Unreadable = store.Unreadable

// ExportRequest selects what an export holds.
type ExportRequest struct {
	// Wing limits the export to one wing's taxonomy and drawers, the facts
	// read from them and the settings that name no entity ("": all).
	Wing string
}

// Validate names the first bad field. Every field of an export is
// optional; the wing is checked against the palace by Export.
func (r ExportRequest) Validate() error { return nil }

// ExportResult says what an export wrote.
type ExportResult struct {
	Wing string `json:"wing,omitempty"`
	Rows int    `json:"rows"` // not counting the header line
	// Unreadable are the rows of a damaged database the export could not
	// read and skipped; everything else was written.
	Unreadable []Unreadable `json:"unreadable,omitempty"`
}

// Export writes the palace (or r.Wing) to w as JSON lines. The same palace
// always exports the same bytes. Rows a damaged database cannot give are
// skipped and listed in the result (Unreadable), not an error. An unknown wing is invalid, not an empty
// file.
func Export(ctx context.Context, p *palace.Palace, r ExportRequest, w io.Writer) (ExportResult, error) {
	res := ExportResult{Wing: r.Wing}
	if err := r.Validate(); err != nil {
		return res, err
	}
	if err := checkWing(ctx, p, "wing", r.Wing); err != nil {
		return res, err
	}
	n, lost, err := transfer.Export(ctx, p, r.Wing, w)
	res.Rows, res.Unreadable = n, lost
	return res, err
}

// ImportRequest names the export to read.
type ImportRequest struct {
	File string
	// Progress, when set, is called as rows are written: a large import
	// is one transaction of minutes.
	Progress func(done, total int) `json:"-"`
}

// Validate names the first bad field.
func (r ImportRequest) Validate() error { return checkText("file", r.File) }

// ImportResult counts what an import did, by row type (RowKinds).
type ImportResult struct {
	File string `json:"file"`
	// Added rows were new to the palace (or, for a setting, replaced an
	// empty one).
	Added map[string]int `json:"added"`
	// Unchanged rows were already held with the same values.
	Unchanged map[string]int `json:"unchanged"`
	// Conflicts are rows held with other values, as "type key": the
	// palace kept its own.
	Conflicts []string `json:"conflicts"`
}

// Import adds what the export r.File holds and the palace lacks, in one
// transaction. A file that is missing or malformed, or holds a field the
// operation writing it would refuse (see transfer.Read), is refused whole,
// with its name, the line and the field at fault, and nothing is written.
// The search index is rebuilt for imported drawers from their content;
// vectors wait for a reindex.
func Import(ctx context.Context, p *palace.Palace, r ImportRequest) (ImportResult, error) {
	res := ImportResult{File: r.File, Added: map[string]int{}, Unchanged: map[string]int{}, Conflicts: []string{}}
	if err := r.Validate(); err != nil {
		return res, err
	}
	f, err := os.Open(r.File)
	if err != nil {
		return res, fmt.Errorf("import: %w", err)
	}
	defer f.Close()
	rows, err := transfer.Read(ctx, p, r.File, f)
	if err != nil {
		return res, err
	}
	if err := transfer.CheckFacts(ctx, p, r.File, rows); err != nil {
		return res, err
	}
	got, err := retryBusy(ctx, "import "+r.File, func() (store.ImportResult, error) {
		return p.Store.ImportRows(ctx, r.File, rows, r.Progress)
	})
	if err != nil {
		return res, err
	}
	res.Added, res.Unchanged, res.Conflicts = got.Added, got.Unchanged, got.Conflicts
	return res, nil
}
