package store

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// transferTables are the tables an export carries, in export order, with
// their columns and key columns. Derived data (the FTS index and a
// drawer's index text, vectors, mined-source records) is rebuilt by the
// importing palace instead; of the meta table, only the settings
// (settings.go) travel. A purged drawer travels as its tombstone (no
// content; see PurgeDrawer), so the importing palace does not mine the
// erased chunk back either.
var transferTables = []transferTable{
	{"meta", "setting", []string{"key", "value"}, []string{"key"}, nil},
	{"taxonomy", "taxonomy", []string{"wing", "room", "display_name", "keywords"}, []string{"wing", "room"}, nil},
	{"drawers", "drawer", []string{"id", "wing", "room", "kind", "source", "line_start", "line_end", "content",
		"content_hash", "created_at", "source_mtime", "importance", "deleted_at", "metadata", "occurred_at", "occurred_end",
		"purged_at"}, []string{"id"}, []string{"index_text", "code_symbols", "code_path", "code_parts"}},
	{"entities", "entity", []string{"id", "name", "type", "properties", "created_at"}, []string{"id"}, nil},
	{"triples", "triple", []string{"id", "subject", "predicate", "object", "valid_from", "valid_to", "confidence",
		"source_drawer", "created_at", "wing", "provenance"}, []string{"id"}, nil},
	// Review decisions, not pending proposals: a pending one is read again
	// from its drawer by the importing palace's extraction, while a
	// rejection or an acceptance is someone's judgement that keeps the
	// same fact from being proposed again (KGPropose).
	{"kg_proposals", "proposal", []string{"id", "subject", "subject_id", "predicate", "object", "object_id", "replaces",
		"ends", "valid_from", "confidence", "sentence", "source_drawer", "status", "triple", "created_at", "decided_at"},
		[]string{"id"}, nil},
}

type transferTable struct {
	name, kind string
	cols, key  []string
	// derived are columns an export leaves out and the importer computes
	// (Row.Derived): never taken from a file, never compared.
	derived []string
}

// TransferKinds are the row types of an export, in the order it writes them.
func TransferKinds() []string {
	out := make([]string, len(transferTables))
	for i, t := range transferTables {
		out[i] = t.kind
	}
	return out
}

// RowKey names row r within its kind by its key columns (an id; a
// setting's key; a room's wing and room), as an import matches it against
// the palace; "" for an unknown kind or a row missing a key column.
func RowKey(r Row) string {
	t, ok := tableOf(r.Kind)
	if !ok {
		return ""
	}
	parts := make([]string, len(t.key))
	for i, k := range t.key {
		v, ok := r.Cols[k].(string)
		if !ok {
			return ""
		}
		parts[i] = v
	}
	return strings.Join(parts, "/")
}

// Row is one exported row: its kind (one of TransferKinds) and its
// columns. Numbers are json.Number so 64-bit values survive JSON.
type Row struct {
	Kind string         `json:"type"`
	Cols map[string]any `json:"row"`
	// Line is the row's line in the file it was read from, for errors.
	Line int `json:"-"`
	// Derived holds the values of the table's derived columns (a
	// drawer's index_text and code index), computed by the importer from Cols; a
	// missing one is stored as NULL.
	Derived map[string]any `json:"-"`
}

// Unreadable is a run of rows an export could not read: a damaged part of
// the database file. From and To are the table's rowids (drawers: seq);
// IDs are the ids the table's id index still names in that run, when it
// can be read.
type Unreadable struct {
	Table string   `json:"table"`
	From  int64    `json:"from_rowid"`
	To    int64    `json:"to_rowid"`
	IDs   []string `json:"ids,omitempty"`
	// Sources are the files the lost drawers were mined from, where the
	// source index still names them: mining them again restores them.
	Sources []string `json:"sources,omitempty"`
	Error   string   `json:"error"`
}

// exportChunk is how many rowids the salvage pass of a damaged table reads
// at a time; a chunk that fails is halved until the unreadable rows are
// found.
const exportChunk = 256

// Garbled is what ExportRows' fn returns for a row it read but refuses:
// a damaged page can give a row whose columns are garbage that still
// reads (an id that is no id, a kind that is no kind). The export counts
// it unreadable, as it does a row SQLite cannot read, and goes on.
type Garbled struct{ Err error }

func (g Garbled) Error() string { return "garbled: " + g.Err.Error() }
func (g Garbled) Unwrap() error { return g.Err }

// writeError is an error of ExportRows' fn, never taken for damage.
type writeError struct{ err error }

func (e writeError) Error() string { return e.err.Error() }
func (e writeError) Unwrap() error { return e.err }

// ExportRows calls fn for every row an export of wing ("" for all) holds,
// table by table in a fixed order and by key within a table, so the same
// palace always exports the same bytes. With a wing, the knowledge graph is
// limited to facts read from the wing's drawers and their entities.
//
// A table SQLite cannot read whole (a damaged file) is read again by rowid,
// in rowid order, skipping the rows it cannot read: they are returned, and
// every readable row is still exported once. A row fn refuses as Garbled
// is returned with them; any other error of fn, or of ctx, stops the
// export.
func (s *Store) ExportRows(ctx context.Context, wing string, fn func(Row) error) ([]Unreadable, error) {
	var lost []Unreadable
	for _, t := range transferTables {
		where, args := "", []any{}
		if t.name == "meta" {
			keys := exportedSettings(wing)
			where, args = "key IN ("+strings.TrimSuffix(strings.Repeat("?, ", len(keys)), ", ")+")", keys
		} else if t.name == "kg_proposals" {
			where = "status != 'pending'"
			if wing != "" {
				where += " AND source_drawer IN (SELECT id FROM drawers WHERE wing = ?)"
				args = []any{wing}
			}
		} else if wing != "" {
			switch t.name {
			case "taxonomy", "drawers":
				where, args = "wing = ?", []any{wing}
			case "triples":
				where, args = "wing = ? OR source_drawer IN (SELECT id FROM drawers WHERE wing = ?)", []any{wing, wing}
			case "entities":
				of := "(SELECT %s FROM triples WHERE wing = ? OR source_drawer IN (SELECT id FROM drawers WHERE wing = ?))"
				where = "id IN " + fmt.Sprintf(of, "subject") + " OR id IN " + fmt.Sprintf(of, "object")
				args = []any{wing, wing, wing, wing}
			}
		}
		// The rowids already read, for the salvage pass; the rows among
		// them fn refused.
		var done []int64
		var garbled []Unreadable
		cols := append([]string{"rowid"}, t.cols...)
		emit := func(m map[string]any) error {
			n, _ := m["rowid"].(json.Number).Int64()
			done = append(done, n)
			delete(m, "rowid")
			if err := fn(Row{Kind: t.kind, Cols: m}); err != nil {
				var g Garbled
				if errors.As(err, &g) {
					garbled = append(garbled, Unreadable{Table: t.name, From: n, To: n, Error: g.Error()})
					return nil
				}
				return writeError{err}
			}
			return nil
		}
		cond := ""
		if where != "" {
			cond = " WHERE " + where
		}
		q := `SELECT ` + strings.Join(cols, ", ") + ` FROM ` + t.name + cond + ` ORDER BY ` + strings.Join(t.key, ", ")
		err := s.eachRow(ctx, q, args, cols, emit)
		var l []Unreadable
		if err != nil {
			var we writeError
			if errors.As(err, &we) || ctx.Err() != nil {
				return lost, fmt.Errorf("export %s: %w", t.name, err)
			}
			if l, err = s.salvage(ctx, t, where, args, done, err, emit); err != nil {
				return append(lost, l...), fmt.Errorf("export %s: %w", t.name, err)
			}
		}
		lost = append(lost, s.nameGarbled(ctx, t, l, garbled)...)
	}
	return lost, nil
}

// nameGarbled adds to the runs of table t that salvage could not read
// (lost) the rows fn refused (garbled), each named by the id and source
// the drawers table's indexes give for its rowid, since its own columns
// are garbage; lost is returned as it is when fn refused none.
func (s *Store) nameGarbled(ctx context.Context, t transferTable, lost, garbled []Unreadable) []Unreadable {
	if len(garbled) == 0 {
		return lost
	}
	if t.name == "drawers" {
		named := s.indexedDrawers(ctx)
		for i, g := range garbled {
			if d := named[g.From]; d != nil {
				if d.id != "" {
					garbled[i].IDs = []string{d.id}
				}
				if d.source != "" {
					garbled[i].Sources = []string{d.source}
				}
			}
		}
	}
	lost = append(lost, garbled...)
	slices.SortStableFunc(lost, func(a, b Unreadable) int { return cmp.Compare(a.From, b.From) })
	return joinRuns(lost)
}

// salvage reads table t again by rowid ranges after the ordered read failed
// with first, skipping the rowids in done, and returns the runs of rows it
// could not read.
func (s *Store) salvage(ctx context.Context, t transferTable, where string, args []any, done []int64, first error,
	emit func(map[string]any) error) ([]Unreadable, error) {
	seen := make(map[int64]bool, len(done))
	for _, n := range done {
		seen[n] = true
	}
	// The drawers the table's indexes name: a damaged table page can hide
	// rows from every read of the table, and these say what was there.
	var named map[int64]*lostDrawer
	if t.name == "drawers" && where == "" {
		named = s.indexedDrawers(ctx)
	}
	var hi sql.NullInt64
	if err := s.r.QueryRowContext(ctx, `SELECT max(rowid) FROM `+t.name).Scan(&hi); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if len(named) == 0 {
			// Not even the last rowid can be read: nothing more to salvage.
			return []Unreadable{{Table: t.name, From: 1, To: -1, Error: first.Error()}}, nil
		}
	}
	cols := append([]string{"rowid"}, t.cols...)
	cond := "rowid BETWEEN ? AND ?"
	if where != "" {
		cond += " AND " + where
	}
	q := `SELECT ` + strings.Join(cols, ", ") + ` FROM ` + t.name + ` WHERE ` + cond + ` ORDER BY rowid`
	// One row is looked up by equality: SQLite answers "rowid = ?" with a
	// single seek, while "BETWEEN n AND n" steps on to the next leaf,
	// which in a file cut short may be missing and fail a readable row.
	one := strings.Replace(q, "rowid BETWEEN ? AND ?", "rowid = ?", 1)
	var lost []Unreadable
	// read exports the rows of [lo, hi] or, when SQLite cannot read them
	// all, halves the range until it finds the rows it cannot read. Rows
	// are buffered per range so a failed range exports nothing twice.
	var read func(lo, hi int64) error
	read = func(lo, hi int64) error {
		var buf []map[string]any
		query, qargs := q, append([]any{lo, hi}, args...)
		if lo == hi {
			query, qargs = one, append([]any{lo}, args...)
		}
		err := s.eachRow(ctx, query, qargs, cols, func(m map[string]any) error {
			buf = append(buf, m)
			return nil
		})
		if err == nil {
			for _, m := range buf {
				n, _ := m["rowid"].(json.Number).Int64()
				if seen[n] {
					continue
				}
				seen[n] = true
				if err := emit(m); err != nil {
					return err
				}
			}
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if lo == hi {
			// A row the ordered read gave is not lost, though reading it
			// by rowid fails: the two reads reach it by different pages.
			if !seen[lo] {
				lost = append(lost, Unreadable{Table: t.name, From: lo, To: lo, Error: err.Error()})
			}
			return nil
		}
		mid := lo + (hi-lo)/2
		if err := read(lo, mid); err != nil {
			return err
		}
		return read(mid+1, hi)
	}
	for lo := int64(1); hi.Valid && lo <= hi.Int64; lo += exportChunk {
		if err := read(lo, min(lo+exportChunk-1, hi.Int64)); err != nil {
			return lost, err
		}
	}
	// A range read can pass over rows without an error, when a damaged
	// interior page leads it past their leaf: every rowid still unread,
	// up to the last one the table or an index knows, is looked up alone.
	failed := map[int64]bool{}
	for _, l := range lost {
		failed[l.From] = true
	}
	last := hi.Int64
	for n := range named {
		last = max(last, n)
	}
	for n := int64(1); n <= last; n++ {
		if seen[n] || failed[n] {
			continue
		}
		if err := read(n, n); err != nil {
			return lost, err
		}
	}
	slices.SortFunc(lost, func(a, b Unreadable) int { return int(a.From - b.From) })
	if named != nil {
		lost = nameLost(lost, seen, named)
	}
	return joinRuns(lost), nil
}

// joinRuns merges runs of single rows that follow each other and failed
// with the same error.
func joinRuns(lost []Unreadable) []Unreadable {
	var out []Unreadable
	for _, l := range lost {
		if k := len(out); k > 0 && out[k-1].To == l.From-1 && out[k-1].Error == l.Error {
			out[k-1].To = l.To
			out[k-1].IDs = append(out[k-1].IDs, l.IDs...)
			for _, src := range l.Sources {
				if !slices.Contains(out[k-1].Sources, src) {
					out[k-1].Sources = append(out[k-1].Sources, src)
				}
			}
			continue
		}
		out = append(out, l)
	}
	return out
}

// lostDrawer is what the indexes of the drawers table say of one drawer.
type lostDrawer struct{ id, source string }

// indexedDrawers reads the drawers table's indexes, which hold each row's
// seq apart from the table's pages: the id index (id, seq), the source
// index (source, seq) and the wing and room index (seq alone). Each is
// read forward and backward, so a damaged page in one loses only the
// entries between where the two reads stop.
func (s *Store) indexedDrawers(ctx context.Context) map[int64]*lostDrawer {
	named := map[int64]*lostDrawer{}
	scan := func(q string, set func(d *lostDrawer, v string)) {
		for _, order := range []string{"", " DESC"} {
			rows, err := s.r.QueryContext(ctx, q+order)
			if err != nil {
				continue
			}
			for rows.Next() {
				var v sql.NullString
				var seq int64
				if rows.Scan(&v, &seq) != nil {
					break
				}
				d := named[seq]
				if d == nil {
					d = &lostDrawer{}
					named[seq] = d
				}
				set(d, v.String)
			}
			rows.Close()
		}
	}
	scan(`SELECT id, seq FROM drawers INDEXED BY sqlite_autoindex_drawers_1 ORDER BY id`, func(d *lostDrawer, v string) { d.id = v })
	scan(`SELECT source, seq FROM drawers INDEXED BY drawers_source ORDER BY source`, func(d *lostDrawer, v string) { d.source = v })
	scan(`SELECT NULL, seq FROM drawers INDEXED BY drawers_wing_room ORDER BY wing, room`, func(*lostDrawer, string) {})
	return named
}

// IndexesDrawerID says whether the drawers table's id index holds id. An
// export asks it of a drawer row that fails an import's checks: a row
// written by an older, laxer version is in the index under its own id,
// while a row a damaged page garbled reads an id the index never held.
func (s *Store) IndexesDrawerID(ctx context.Context, id string) (bool, error) {
	var one int
	err := s.r.QueryRowContext(ctx, `SELECT 1 FROM drawers INDEXED BY sqlite_autoindex_drawers_1 WHERE id = ?`, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look up drawer %q in the id index: %w", id, err)
	}
	return true, nil
}

// nameLost adds to each lost drawer the id and source the indexes give
// (named, from indexedDrawers), and adds the drawers they name that were
// not exported: a damaged page can also hide rows without an error, as if
// they did not exist. A drawer whose id no readable index holds is still
// named by its rowid and, where the source index has it, by its file.
func nameLost(lost []Unreadable, exported map[int64]bool, named map[int64]*lostDrawer) []Unreadable {
	seqs := make([]int64, 0, len(named))
	for seq := range named {
		if !exported[seq] {
			seqs = append(seqs, seq)
		}
	}
	slices.Sort(seqs)
	for _, seq := range seqs {
		d := named[seq]
		i := slices.IndexFunc(lost, func(l Unreadable) bool { return seq >= l.From && seq <= l.To })
		if i < 0 {
			lost = append(lost, Unreadable{Table: "drawers", From: seq, To: seq,
				Error: "named by the table's indexes but not found in the table"})
			i = len(lost) - 1
		}
		if d.id != "" {
			lost[i].IDs = append(lost[i].IDs, d.id)
		}
		if d.source != "" && !slices.Contains(lost[i].Sources, d.source) {
			lost[i].Sources = append(lost[i].Sources, d.source)
		}
	}
	slices.SortFunc(lost, func(a, b Unreadable) int { return int(a.From - b.From) })
	return lost
}

func (s *Store) eachRow(ctx context.Context, q string, args []any, cols []string, fn func(map[string]any) error) error {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	return scanRows(rows, cols, fn)
}

// scanRows calls fn with each row as a column map, then closes rows.
func scanRows(rows *sql.Rows, cols []string, fn func(map[string]any) error) error {
	defer rows.Close()
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		m := map[string]any{}
		for i, c := range cols {
			m[c] = exportValue(vals[i])
		}
		if err := fn(m); err != nil {
			return err
		}
	}
	return rows.Err()
}

// exportValue gives a column value its JSON form: integers as json.Number
// (nanosecond times do not fit a float64), text as strings.
func exportValue(v any) any {
	switch x := v.(type) {
	case int64:
		return json.Number(fmt.Sprint(x))
	case float64:
		return json.Number(fmt.Sprint(x))
	case []byte:
		return string(x)
	}
	return v
}

// ImportResult counts what an import did.
type ImportResult struct {
	Added     map[string]int `json:"added"`     // by kind
	Unchanged map[string]int `json:"unchanged"` // already present, identical
	Conflicts []string       `json:"conflicts"` // already present with other values: kept as they were
}

// ImportRows adds rows in one transaction. A row whose key exists with the
// same values changes nothing; one whose key exists with other values is
// reported as a conflict and the palace keeps its own. Importing the same
// file twice therefore changes nothing the second time. Settings follow the
// same rule, except that a setting still at its empty value (an AAAK entity
// map with no entity) counts as unset and takes the file's value. A setting
// this palace does not carry, or cannot read, refuses the whole file. The
// other rows' values are the caller's to check (core/transfer checks every
// field as the operations that write it do, and derives Row.Derived).
// progress, when set, is called every importProgressEvery rows and at the
// end with how many rows were done.
func (s *Store) ImportRows(ctx context.Context, source string, rows []Row, progress func(done, total int)) (ImportResult, error) {
	res := ImportResult{Added: map[string]int{}, Unchanged: map[string]int{}, Conflicts: []string{}}
	err := s.audited(ctx, "import", func(tx *sql.Tx, rec *auditRec) error {
		res = ImportResult{Added: map[string]int{}, Unchanged: map[string]int{}, Conflicts: []string{}}
		han := false // Han text recorded (markHan)
		for i, r := range rows {
			if progress != nil && i%importProgressEvery == 0 {
				progress(i, len(rows))
			}
			t, ok := tableOf(r.Kind)
			if !ok {
				return fmt.Errorf("import %s: line %d: unknown row type %q", source, r.Line, r.Kind)
			}
			var set setting // the zero setting for rows of other tables
			if t.name == "meta" {
				var err error
				if set, err = checkSetting(r.Cols); err != nil {
					return fmt.Errorf("import %s: line %d: %w", source, r.Line, err)
				}
			}
			var keyVals []any
			var conds []string
			for _, k := range t.key {
				v, ok := r.Cols[k]
				if !ok || v == nil {
					return fmt.Errorf("import %s: line %d: %s row without %s", source, r.Line, r.Kind, k)
				}
				keyVals = append(keyVals, importValue(v))
				conds = append(conds, k+" = ?")
			}
			key := fmt.Sprint(keyVals...)
			var existing map[string]any
			q := `SELECT ` + strings.Join(t.cols, ", ") + ` FROM ` + t.name + ` WHERE ` + strings.Join(conds, " AND ")
			err := eachTxRow(ctx, tx, q, keyVals, t.cols, func(m map[string]any) error { existing = m; return nil })
			if err != nil {
				return fmt.Errorf("import %s: line %d: %s %s: %w", source, r.Line, r.Kind, key, err)
			}
			if existing != nil {
				if sameRow(existing, r.Cols, t.cols) {
					res.Unchanged[r.Kind]++
					continue
				}
				if !set.isEmpty(existing["value"]) {
					res.Conflicts = append(res.Conflicts, r.Kind+" "+key)
					continue
				}
				// A setting at its empty value counts as unset: the
				// file's value replaces it.
				if _, err := tx.ExecContext(ctx, `DELETE FROM meta WHERE key = ?`, set.key); err != nil {
					return fmt.Errorf("import %s: line %d: %s %s: %w", source, r.Line, r.Kind, key, err)
				}
			}
			var vals []any
			for _, c := range t.cols {
				vals = append(vals, importValue(r.Cols[c]))
			}
			for _, c := range t.derived {
				vals = append(vals, importValue(r.Derived[c]))
			}
			cols := append(slices.Clone(t.cols), t.derived...)
			ph := strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ")
			if _, err := tx.ExecContext(ctx, `INSERT INTO `+t.name+` (`+strings.Join(cols, ", ")+`) VALUES (`+ph+`)`, vals...); err != nil {
				return fmt.Errorf("import %s: line %d: %s %s: %w", source, r.Line, r.Kind, key, err)
			}
			if t.name == "drawers" {
				if err := markHan(ctx, tx, indexedText(r), &han); err != nil {
					return fmt.Errorf("import %s: line %d: %w", source, r.Line, err)
				}
			}
			res.Added[r.Kind]++
		}
		if progress != nil {
			progress(len(rows), len(rows))
		}
		n := 0
		for _, v := range res.Added {
			n += v
		}
		rec.IDs, rec.Skip = []string{source}, n == 0
		return nil
	})
	return res, err
}

// indexedText is what the full-text index reads for an imported drawer row:
// its derived index text, else its content.
func indexedText(r Row) string {
	if idx, ok := r.Derived["index_text"].(string); ok && idx != "" {
		return idx
	}
	content, _ := r.Cols["content"].(string)
	return content
}

// importProgressEvery is how many rows an import writes between progress
// calls.
const importProgressEvery = 1000

func tableOf(kind string) (transferTable, bool) {
	for _, t := range transferTables {
		if t.kind == kind {
			return t, true
		}
	}
	return transferTable{}, false
}

func eachTxRow(ctx context.Context, tx *sql.Tx, q string, args []any, cols []string, fn func(map[string]any) error) error {
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	return scanRows(rows, cols, fn)
}

// importValue turns a decoded JSON value into an SQL argument; numbers go
// in as text and SQLite's column affinity stores them as numbers again.
func importValue(v any) any {
	switch x := v.(type) {
	case json.Number:
		return x.String()
	case float64:
		return fmt.Sprint(x)
	case map[string]any, []any:
		b, _ := json.Marshal(x)
		return string(b)
	}
	return v
}

func sameRow(a, b map[string]any, cols []string) bool {
	for _, c := range cols {
		if fmt.Sprint(importValue(a[c])) != fmt.Sprint(importValue(b[c])) {
			return false
		}
	}
	return true
}
