package store

import (
	"context"
	"database/sql"
	"encoding/json"
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
		"purged_at"}, []string{"id"}, []string{"index_text"}},
	{"entities", "entity", []string{"id", "name", "type", "properties", "created_at"}, []string{"id"}, nil},
	{"triples", "triple", []string{"id", "subject", "predicate", "object", "valid_from", "valid_to", "confidence",
		"source_drawer", "created_at"}, []string{"id"}, nil},
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

// Row is one exported row: its kind (one of TransferKinds) and its
// columns. Numbers are json.Number so 64-bit values survive JSON.
type Row struct {
	Kind string         `json:"type"`
	Cols map[string]any `json:"row"`
	// Line is the row's line in the file it was read from, for errors.
	Line int `json:"-"`
	// Derived holds the values of the table's derived columns (a
	// drawer's index_text), computed by the importer from Cols; a
	// missing one is stored as NULL.
	Derived map[string]any `json:"-"`
}

// ExportRows calls fn for every row an export of wing ("" for all) holds,
// table by table in a fixed order and by key within a table, so the same
// palace always exports the same bytes. With a wing, the knowledge graph is
// limited to facts read from the wing's drawers and their entities.
func (s *Store) ExportRows(ctx context.Context, wing string, fn func(Row) error) error {
	for _, t := range transferTables {
		where, args := "", []any{}
		if t.name == "meta" {
			keys := exportedSettings(wing)
			where, args = " WHERE key IN ("+strings.TrimSuffix(strings.Repeat("?, ", len(keys)), ", ")+")", keys
		} else if wing != "" {
			switch t.name {
			case "taxonomy", "drawers":
				where, args = " WHERE wing = ?", []any{wing}
			case "triples":
				where, args = " WHERE source_drawer IN (SELECT id FROM drawers WHERE wing = ?)", []any{wing}
			case "entities":
				where = ` WHERE id IN (SELECT subject FROM triples WHERE source_drawer IN (SELECT id FROM drawers WHERE wing = ?)
					UNION SELECT object FROM triples WHERE source_drawer IN (SELECT id FROM drawers WHERE wing = ?))`
				args = []any{wing, wing}
			}
		}
		q := `SELECT ` + strings.Join(t.cols, ", ") + ` FROM ` + t.name + where + ` ORDER BY ` + strings.Join(t.key, ", ")
		if err := s.eachRow(ctx, q, args, t.cols, func(m map[string]any) error { return fn(Row{Kind: t.kind, Cols: m}) }); err != nil {
			return fmt.Errorf("export %s: %w", t.name, err)
		}
	}
	return nil
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
func (s *Store) ImportRows(ctx context.Context, source string, rows []Row) (ImportResult, error) {
	res := ImportResult{Added: map[string]int{}, Unchanged: map[string]int{}, Conflicts: []string{}}
	err := s.audited(ctx, "import", func(tx *sql.Tx, rec *auditRec) error {
		res = ImportResult{Added: map[string]int{}, Unchanged: map[string]int{}, Conflicts: []string{}}
		for _, r := range rows {
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
			res.Added[r.Kind]++
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
