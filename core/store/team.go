package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The meta keys of a team palace (core/team). They are local: no export
// carries them, and the connection string is never logged.
const (
	MetaTeamURL    = "team.url"    // the PostgreSQL connection string
	MetaTeamSeq    = "team.seq"    // + "." + wing: the wing's last sequence applied
	MetaTeamSynced = "team.synced" // when the last sync finished
	metaApplying   = "team.applying"
)

// TeamOp is one operation of the team log: a row of a shared wing in its
// export form (Rows; a fact carries its entities before it), or, with
// Gone, the removal of the row Kind/Key names.
type TeamOp struct {
	Seq  int64  // assigned by PostgreSQL; 0 before the push
	N    int64  // the local outbox number, before the push
	ID   string // stable: a replayed push is a no-op
	Wing string
	Kind string // drawer, room, triple, entity
	Key  string
	Gone bool
	At   string // when the local write happened
	Rows []Row
}

// TeamShare marks wing as shared and queues every row it holds for the
// next push.
func (s *Store) TeamShare(ctx context.Context, wing string) (queued int, err error) {
	err = s.audited(ctx, "team.share", func(tx *sql.Tx, rec *auditRec) error {
		rec.IDs = []string{wing}
		res, err := tx.ExecContext(ctx, `INSERT INTO team_wings (wing, shared_at) VALUES (?, ?) ON CONFLICT DO NOTHING`,
			wing, formatTime(time.Now()))
		if err != nil {
			return fmt.Errorf("share %s: %w", wing, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			rec.Skip = true
			return nil
		}
		for _, q := range []string{
			`INSERT INTO team_outbox (op_id, wing, kind, key) SELECT lower(hex(randomblob(16))), wing, 'room', room FROM taxonomy WHERE wing = ?1 ORDER BY room`,
			`INSERT INTO team_outbox (op_id, wing, kind, key) SELECT lower(hex(randomblob(16))), wing, 'drawer', id FROM drawers WHERE wing = ?1 ORDER BY seq`,
			`INSERT INTO team_outbox (op_id, wing, kind, key) SELECT lower(hex(randomblob(16))), d.wing, 'triple', t.id
				FROM triples t JOIN drawers d ON d.id = t.source_drawer WHERE d.wing = ?1 ORDER BY t.created_at, t.id`,
		} {
			res, err := tx.ExecContext(ctx, q, wing)
			if err != nil {
				return fmt.Errorf("share %s: queue its rows: %w", wing, err)
			}
			n, _ := res.RowsAffected()
			queued += int(n)
		}
		return nil
	})
	return queued, err
}

// TeamUnshare stops sharing wing: its unpushed writes are dropped from the
// queue and nothing more of it is pulled. The wing's rows stay.
func (s *Store) TeamUnshare(ctx context.Context, wing string) (was bool, err error) {
	err = s.audited(ctx, "team.unshare", func(tx *sql.Tx, rec *auditRec) error {
		rec.IDs = []string{wing}
		res, err := tx.ExecContext(ctx, `DELETE FROM team_wings WHERE wing = ?`, wing)
		if err != nil {
			return fmt.Errorf("unshare %s: %w", wing, err)
		}
		n, _ := res.RowsAffected()
		was, rec.Skip = n > 0, n == 0
		if _, err := tx.ExecContext(ctx, `DELETE FROM team_outbox WHERE wing = ?`, wing); err != nil {
			return fmt.Errorf("unshare %s: %w", wing, err)
		}
		return nil
	})
	return was, err
}

// TeamWings lists the shared wings, by name.
func (s *Store) TeamWings(ctx context.Context) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT wing FROM team_wings ORDER BY wing`)
	if err != nil {
		return nil, fmt.Errorf("shared wings: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var w string
		if err := rows.Scan(&w); err != nil {
			return nil, fmt.Errorf("shared wings: %w", err)
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// TeamPending counts the queued writes per wing.
func (s *Store) TeamPending(ctx context.Context) (map[string]int, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT wing, count(*) FROM team_outbox GROUP BY wing`)
	if err != nil {
		return nil, fmt.Errorf("pending operations: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var w string
		var n int
		if err := rows.Scan(&w, &n); err != nil {
			return nil, fmt.Errorf("pending operations: %w", err)
		}
		out[w] = n
	}
	return out, rows.Err()
}

// TeamQueued reports whether any write waits to be pushed.
func (s *Store) TeamQueued(ctx context.Context) (bool, error) {
	var queued bool
	if err := s.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM team_outbox)`).Scan(&queued); err != nil {
		return false, fmt.Errorf("pending operations: %w", err)
	}
	return queued, nil
}

// TeamOutbox returns up to limit queued writes (of wing, "" for all), oldest first, each with
// the current state of its row: a row written twice travels twice with its
// latest values, which the merge rules (TeamApply) make harmless. A row
// that is gone by now travels as its removal.
func (s *Store) TeamOutbox(ctx context.Context, wing string, limit int) ([]TeamOp, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT n, op_id, wing, kind, key, gone, at FROM team_outbox
		WHERE ?1 = '' OR wing = ?1 ORDER BY n LIMIT ?2`, wing, limit)
	if err != nil {
		return nil, fmt.Errorf("read the team queue: %w", err)
	}
	var ops []TeamOp
	for rows.Next() {
		var op TeamOp
		if err := rows.Scan(&op.N, &op.ID, &op.Wing, &op.Kind, &op.Key, &op.Gone, &op.At); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read the team queue: %w", err)
		}
		ops = append(ops, op)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the team queue: %w", err)
	}
	for i := range ops {
		if ops[i].Gone {
			continue
		}
		if err := s.teamRows(ctx, &ops[i]); err != nil {
			return nil, err
		}
		if len(ops[i].Rows) == 0 {
			ops[i].Gone = true
		}
	}
	return ops, nil
}

// teamRows reads the export rows op carries.
func (s *Store) teamRows(ctx context.Context, op *TeamOp) error {
	read := func(kind, where string, args ...any) error {
		t, _ := tableOf(kind)
		q := `SELECT ` + strings.Join(t.cols, ", ") + ` FROM ` + t.name + ` WHERE ` + where + ` ORDER BY ` + strings.Join(t.key, ", ")
		return s.eachRow(ctx, q, args, t.cols, func(m map[string]any) error {
			op.Rows = append(op.Rows, Row{Kind: kind, Cols: m})
			return nil
		})
	}
	var err error
	switch op.Kind {
	case "drawer":
		err = read("drawer", "id = ?", op.Key)
	case "room":
		err = read("taxonomy", "wing = ? AND room = ?", op.Wing, op.Key)
	case "entity":
		err = read("entity", "id = ?", op.Key)
	case "triple":
		if err = read("entity", "id IN (SELECT subject FROM triples WHERE id = ?1 UNION SELECT object FROM triples WHERE id = ?1)", op.Key); err == nil {
			err = read("triple", "id = ?", op.Key)
		}
		if err == nil && (len(op.Rows) == 0 || op.Rows[len(op.Rows)-1].Kind != "triple") {
			op.Rows = nil
		}
	default:
		err = fmt.Errorf("unknown kind %q", op.Kind)
	}
	if err != nil {
		return fmt.Errorf("read %s %s of wing %s: %w", op.Kind, op.Key, op.Wing, err)
	}
	return nil
}

// TeamPushed drops the queued writes (of wing, "" for all) up to and
// including outbox number n:
// PostgreSQL holds them. Dropping them is bookkeeping, not a write of the
// palace's data, so the audit log does not record it.
func (s *Store) TeamPushed(ctx context.Context, wing string, n int64) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM team_outbox WHERE n <= ?1 AND (?2 = '' OR wing = ?2)`, n, wing); err != nil {
			return fmt.Errorf("drop pushed operations: %w", err)
		}
		return nil
	})
}

// TeamApply applies pulled operations of wing in one transaction, through
// the audit log, and records last as the wing's sequence applied, so an interrupted
// pull is either whole or not at all and resumes after the last batch.
// Operations are applied in sequence order with these rules, which need
// no coordination:
//   - drawers are content-addressed, so an add of a held id only merges its
//     removal state: a removal (deleted_at) or purge (purged_at) wins over
//     an add, the earliest time of each is kept, and a purge erases the
//     content here too; a drawer removed outright (a re-mine dropping a
//     chunk) stays removed unless the add is newer than the removal;
//   - rooms, entities and facts take the values of the latest operation,
//     so taxonomy edits are ordered by sequence; a fact removed (kg rm) is
//     never brought back;
//   - facts are stored as they come, so two members asserting different
//     values of a functional predicate both keep their facts and the
//     contradiction is left for `palace kg check` to report.
//
// Derived columns (index text, code index) must be in each drawer row's
// Derived.
func (s *Store) TeamApply(ctx context.Context, ops []TeamOp, wing string, last int64) (applied int, err error) {
	err = s.audited(ctx, "team.pull", func(tx *sql.Tx, rec *auditRec) error {
		applied = 0
		if err := putMeta(ctx, tx, metaApplying, "1"); err != nil {
			return err
		}
		wings := map[string]bool{}
		han := false
		for _, op := range ops {
			if err := applyTeamOp(ctx, tx, op, &han); err != nil {
				return fmt.Errorf("apply operation %d (%s %s of wing %s): %w", op.Seq, op.Kind, op.Key, op.Wing, err)
			}
			wings[op.Wing] = true
			applied++
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM meta WHERE key = ?`, metaApplying); err != nil {
			return fmt.Errorf("apply: %w", err)
		}
		if err := putMeta(ctx, tx, MetaTeamSeq+"."+wing, strconv.FormatInt(last, 10)); err != nil {
			return err
		}
		for w := range wings {
			rec.IDs = append(rec.IDs, w)
		}
		slices.Sort(rec.IDs)
		rec.Size = int64(applied)
		rec.Skip = applied == 0
		return nil
	})
	return applied, err
}

func applyTeamOp(ctx context.Context, tx *sql.Tx, op TeamOp, han *bool) error {
	if op.Gone {
		switch op.Kind {
		case "drawer":
			if _, err := tx.ExecContext(ctx, `DELETE FROM drawers WHERE id = ? AND created_at <= ?`, op.Key, op.At); err != nil {
				return err
			}
		case "room":
			_, err := tx.ExecContext(ctx, `DELETE FROM taxonomy WHERE wing = ? AND room = ?`, op.Wing, op.Key)
			return err
		case "triple":
			if _, err := tx.ExecContext(ctx, `DELETE FROM triples WHERE id = ?`, op.Key); err != nil {
				return err
			}
		default:
			return nil
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO team_gone (kind, key, at) VALUES (?, ?, ?)
			ON CONFLICT (kind, key) DO UPDATE SET at = max(at, excluded.at)`, op.Kind, op.Key, op.At)
		return err
	}
	for _, r := range op.Rows {
		t, ok := tableOf(r.Kind)
		if !ok || t.name == "meta" {
			return fmt.Errorf("unknown row type %q", r.Kind)
		}
		var err error
		switch t.name {
		case "drawers":
			err = mergeDrawer(ctx, tx, t, r, han)
		case "triples":
			var gone int
			if err = tx.QueryRowContext(ctx, `SELECT count(*) FROM team_gone WHERE kind = 'triple' AND key = ?`, r.Cols["id"]).Scan(&gone); err == nil && gone == 0 {
				err = upsertRow(ctx, tx, t, r)
			}
		default:
			err = upsertRow(ctx, tx, t, r)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", r.Kind, err)
		}
	}
	return nil
}

// upsertRow writes r, replacing the values of a row with its key.
func upsertRow(ctx context.Context, tx *sql.Tx, t transferTable, r Row) error {
	var vals, sets []string
	var args []any
	for _, c := range t.cols {
		vals = append(vals, "?")
		args = append(args, importValue(r.Cols[c]))
		if !slices.Contains(t.key, c) {
			sets = append(sets, c+" = excluded."+c)
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO `+t.name+` (`+strings.Join(t.cols, ", ")+`) VALUES (`+strings.Join(vals, ", ")+`)
		ON CONFLICT (`+strings.Join(t.key, ", ")+`) DO UPDATE SET `+strings.Join(sets, ", "), args...)
	return err
}

func mergeDrawer(ctx context.Context, tx *sql.Tx, t transferTable, r Row, han *bool) error {
	id, _ := r.Cols["id"].(string)
	inDeleted, _ := r.Cols["deleted_at"].(string)
	inPurged, _ := r.Cols["purged_at"].(string)
	var seq int64
	var created string
	var deleted, purged sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT seq, created_at, deleted_at, purged_at FROM drawers WHERE id = ?`, id).
		Scan(&seq, &created, &deleted, &purged)
	if errors.Is(err, sql.ErrNoRows) {
		var goneAt string
		err := tx.QueryRowContext(ctx, `SELECT at FROM team_gone WHERE kind = 'drawer' AND key = ?`, id).Scan(&goneAt)
		if err == nil {
			if c, _ := r.Cols["created_at"].(string); c <= goneAt {
				return nil // removed outright after this add
			}
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		cols := append(slices.Clone(t.cols), t.derived...)
		var args []any
		for _, c := range t.cols {
			args = append(args, importValue(r.Cols[c]))
		}
		for _, c := range t.derived {
			args = append(args, importValue(r.Derived[c]))
		}
		ph := strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ")
		if _, err := tx.ExecContext(ctx, `INSERT INTO drawers (`+strings.Join(cols, ", ")+`) VALUES (`+ph+`)`, args...); err != nil {
			return err
		}
		return markHan(ctx, tx, indexedText(r), han)
	}
	if err != nil {
		return err
	}
	earliest := func(held sql.NullString, in string) (string, bool) {
		switch {
		case in == "":
			return held.String, false
		case !held.Valid || EarlierTime(in, held.String):
			return in, true
		}
		return held.String, false
	}
	del, delChanged := earliest(deleted, inDeleted)
	pur, purChanged := earliest(purged, inPurged)
	if !delChanged && !purChanged {
		return nil
	}
	if purChanged && !purged.Valid {
		// The purge reaches this member: erase the content as PurgeDrawer
		// does, with the tombstone's own hash.
		done, err := secureDelete(ctx, tx)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE drawers SET content = '', index_text = NULL, metadata = '{}', code_symbols = NULL,
			code_path = NULL, code_parts = NULL, content_hash = ?, deleted_at = ?, purged_at = ? WHERE seq = ?`,
			importValue(r.Cols["content_hash"]), del, pur, seq); err != nil {
			return err
		}
		if err := eraseVector(ctx, tx, seq); err != nil {
			return err
		}
		if err := eraseProposals(ctx, tx, id); err != nil {
			return err
		}
		return done()
	}
	if _, err := tx.ExecContext(ctx, `UPDATE drawers SET deleted_at = ?, purged_at = ? WHERE seq = ?`, del, optString(pur), seq); err != nil {
		return err
	}
	if !deleted.Valid {
		return eraseVector(ctx, tx, seq)
	}
	return nil
}

func optString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// EarlierTime reports whether a is before b, both stored times (RFC 3339
// with as many fraction digits as needed, so the text does not compare as
// the times do); b that is not a time (nil, "") is later than any a.
func EarlierTime(a string, b any) bool {
	bs, _ := b.(string)
	tb, err := time.Parse(timeLayout, bs)
	if err != nil {
		return true
	}
	ta, err := time.Parse(timeLayout, a)
	return err == nil && ta.Before(tb)
}
