// Package transfer moves a palace's own data (its settings, drawers with
// their metadata, diaries and notes, taxonomy, knowledge graph) in and out
// as JSON lines: a versioned header, then one row per line. Derived data
// (the search index, vectors, mining records) is rebuilt by the palace that
// imports.
package transfer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// Format and Version name the file format in its header line. Version 2
// added setting rows (store.SettingKGFunctional, store.SettingAAAKEntities),
// version 3 proposal rows (review decisions); a file of an older version,
// which has none, still imports.
const (
	Format  = "palace-export"
	Version = 3
)

// maxLine bounds one line: a drawer is at most a few MiB even for a huge
// conversation exchange.
const maxLine = 64 << 20

// Header is the first line of an export.
type Header struct {
	Kind    string `json:"type"` // "header"
	Format  string `json:"format"`
	Version int    `json:"version"`
	Schema  int    `json:"schema"`
	Wing    string `json:"wing,omitempty"`
}

// checkHeader refuses a format version or database schema this palace
// does not know: a newer file may hold rows it would misread.
func checkHeader(h Header) error {
	if h.Version < 1 || h.Version > Version {
		return input.Invalid("version", "%d is not a format version this palace reads (1 to %d): upgrade palace for a newer one", h.Version, Version)
	}
	if h.Schema < 1 || h.Schema > store.SchemaVersion() {
		return input.Invalid("schema", "%d is not a database schema this palace knows (1 to %d): upgrade palace for a newer one", h.Schema, store.SchemaVersion())
	}
	return nil
}

// Export writes the palace (or one wing) to w. The same palace always
// exports the same bytes: no timestamps of the export itself, fixed order.
// Rows of a damaged database that cannot be read are skipped and returned;
// every readable row is written.
func Export(ctx context.Context, p *palace.Palace, wing string, w io.Writer) (int, []store.Unreadable, error) {
	return exportRows(ctx, p, wing, w, false)
}

// ExportReadable is Export of a whole damaged palace for a salvage: a row
// that reads but fails the checks an import makes (a damaged page can
// give garbage that still reads: an id that is no id) is not written and
// is returned with the unreadable ones, named by what the table's indexes
// say of it, so the file imports. A plain export writes such a row as it
// is, since in a sound palace it was written by an older version whose
// checks were laxer and it is the user's data; except a drawer whose id
// the id index does not hold, which is garbage, not data (see refused).
func ExportReadable(ctx context.Context, p *palace.Palace, w io.Writer) (int, []store.Unreadable, error) {
	return exportRows(ctx, p, "", w, true)
}

func exportRows(ctx context.Context, p *palace.Palace, wing string, w io.Writer, check bool) (int, []store.Unreadable, error) {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	if err := enc.Encode(Header{Kind: "header", Format: Format, Version: Version, Schema: store.SchemaVersion(), Wing: wing}); err != nil {
		return 0, nil, fmt.Errorf("export: %w", err)
	}
	n := 0
	lost, err := p.Store.ExportRows(ctx, wing, func(r store.Row) error {
		if err := refused(ctx, p, r, check); err != nil {
			return store.Garbled{Err: fmt.Errorf("%s %w", r.Kind, err)}
		}
		n++
		return enc.Encode(r)
	})
	if err != nil {
		return n, lost, err
	}
	return n, lost, bw.Flush()
}

// refused says why an export does not write row r, or nil where it
// writes it: a salvage (strict) refuses every row an import would refuse;
// a plain export only a drawer whose id is not of a drawer id's form and
// that the drawers table's id index does not hold (or cannot be asked). A
// damaged page can give such a row without any read error (its id's last
// bytes garbage); written as it is, it would make the whole file one an
// import refuses, while the drawer it was went unnamed. Only the id is
// checked there: every other column of every row would cost a plain
// export a third more time, for rows it writes as they are anyway.
func refused(ctx context.Context, p *palace.Palace, r store.Row, strict bool) error {
	if strict {
		return checkRow(r)
	}
	if r.Kind != "drawer" {
		return nil
	}
	id, _ := r.Cols["id"].(string)
	if store.IsDrawerID(id) {
		return nil
	}
	known, err := p.Store.IndexesDrawerID(ctx, id)
	if err != nil {
		return fmt.Errorf("id %s is no drawer id, and %w", input.Quote(id), err)
	}
	if known {
		return nil
	}
	return fmt.Errorf("id %s is no drawer id, and the id index holds no such id", input.Quote(id))
}

// Read parses an export for store.ImportRows, which adds what the palace
// lacks (see it for how existing rows and conflicts are treated). Every
// row is checked as strictly as the operation that writes its data would
// check it (see checkDrawer), and a drawer's index text is derived from
// its content here, never taken from the file. A malformed file is
// refused whole, naming the file, the line and the field at fault, before
// anything is written. It stops when ctx is done: an export of hundreds of
// thousands of drawers takes tens of seconds to read and check.
func Read(ctx context.Context, p *palace.Palace, name string, r io.Reader) ([]store.Row, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	var rows []store.Row
	// seen is the line of each row's key (kind and key), so a repeat is
	// refused: a file naming one id twice says two things of it, and
	// importing the first while calling the second a conflict with it
	// would keep one of them by the order of the lines.
	seen := map[string]int{}
	line := 0
	for sc.Scan() {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("import %s: stopped at line %d: %w", name, line+1, err)
		}
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		if line == 1 {
			var h Header
			if err := dec.Decode(&h); err != nil || h.Kind != "header" || h.Format != Format {
				return nil, fmt.Errorf("import %s: line 1 is not a %s header", name, Format)
			}
			if err := checkHeader(h); err != nil {
				return nil, fmt.Errorf("import %s: line 1: %v", name, err)
			}
			continue
		}
		var row store.Row
		if err := dec.Decode(&row); err != nil {
			return nil, fmt.Errorf("import %s: line %d: %w", name, line, err)
		}
		if row.Kind == "" || row.Cols == nil {
			return nil, fmt.Errorf("import %s: line %d: a row needs \"type\" and \"row\"", name, line)
		}
		if err := checkRow(row); err != nil {
			// Not wrapped: a bad file is an error of the file, as a
			// malformed line is (exit 1), not a bad argument.
			return nil, fmt.Errorf("import %s: line %d: %s %v", name, line, row.Kind, err)
		}
		if k := store.RowKey(row); k != "" {
			if first, ok := seen[row.Kind+" "+k]; ok {
				return nil, fmt.Errorf("import %s: line %d: %s %w", name, line, row.Kind,
					input.Invalid(keyField(row.Kind), "%s is also on line %d: a file holds each row once; nothing imported", input.Quote(k), first))
			}
			seen[row.Kind+" "+k] = line
		}
		if err := Derive(p, &row); err != nil {
			return nil, fmt.Errorf("import %s: line %d: %w", name, line, err)
		}
		row.Line = line
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("import %s: line %d is longer than %d bytes", name, line+1, maxLine)
		}
		return nil, fmt.Errorf("import %s: %w", name, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("import %s: empty file", name)
	}
	return rows, nil
}

// keyField names the column that identifies a row of kind, for errors.
func keyField(kind string) string {
	switch kind {
	case "setting":
		return "key"
	case "taxonomy":
		return "room"
	}
	return "id"
}

// CheckFacts refuses rows (as Read returns them) holding a fact whose
// subject or object is an entity neither the file nor the palace holds,
// naming the fact's line: such a fact would count in the graph's stats
// while no query, which starts from an entity, could reach it. An import
// does not create the entity instead: it would give it a name the file
// never wrote. A salvage does not ask this, since it keeps every row a
// damaged palace still reads (doctor's kg check then names the facts).
func CheckFacts(ctx context.Context, p *palace.Palace, name string, rows []store.Row) error {
	inFile := map[string]bool{}
	for _, r := range rows {
		if r.Kind == "entity" {
			id, _ := r.Cols["id"].(string)
			inFile[id] = true
		}
	}
	var ask []string
	asked := map[string]bool{}
	for _, r := range rows {
		if r.Kind != "triple" {
			continue
		}
		for _, c := range []string{"subject", "object"} {
			id, _ := r.Cols[c].(string)
			if !inFile[id] && !asked[id] {
				asked[id] = true
				ask = append(ask, id)
			}
		}
	}
	if len(ask) == 0 {
		return nil
	}
	missing, err := p.Store.KGMissingEntities(ctx, ask)
	if err != nil {
		return fmt.Errorf("import %s: %w", name, err)
	}
	if len(missing) == 0 {
		return nil
	}
	gone := map[string]bool{}
	for _, id := range missing {
		gone[id] = true
	}
	for _, r := range rows {
		if r.Kind != "triple" {
			continue
		}
		for _, c := range []string{"subject", "object"} {
			if id, _ := r.Cols[c].(string); gone[id] {
				return fmt.Errorf("import %s: line %d: triple %w", name, r.Line,
					input.Invalid(c, "%s is no entity: neither the file nor this palace holds it; nothing imported", input.Quote(id)))
			}
		}
	}
	return nil
}

// Derive computes a drawer row's derived columns (Row.Derived: the index
// text and the code index) from its content, as this palace would have
// written them; rows of other kinds are left alone. A team pull derives
// the drawers it receives the same way an import does.
func Derive(p *palace.Palace, row *store.Row) error {
	if row.Kind != "drawer" {
		return nil
	}
	// Exports before this one carried the index text; it is derived data,
	// and a file's could make a drawer match words it does not hold.
	delete(row.Cols, "index_text")
	kind, _ := row.Cols["kind"].(string)
	content, _ := row.Cols["content"].(string)
	idx, err := indexText(p, kind, content)
	if err != nil {
		return err
	}
	source, _ := row.Cols["source"].(string)
	meta, _ := row.Cols["metadata"].(string)
	ci := palace.CodeIndex(kind, source, content, palace.DefinedNames(meta))
	row.Derived = map[string]any{"index_text": idx,
		"code_symbols": ci.Symbols, "code_path": ci.Path, "code_parts": ci.Parts}
	return nil
}
