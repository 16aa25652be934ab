package store

import (
	"context"
	"database/sql"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// IndexText is a drawer's index text: what the full-text index holds in
// place of its content (segmented Chinese, a conversation without noise).
type IndexText struct {
	Seq  int64
	Text string
}

// hanGlob matches text holding a character of the main Han blocks (CJK
// radicals through the unified ideographs, extension A included): a
// cheap first cut that spares the caller texts without Chinese.
const hanGlob = "*[\u2E80-\u9FFF]*"

// HanIndexTexts returns up to limit index texts that hold Han characters,
// of the drawers (deleted ones included) after seq, in seq order, for a
// caller that re-segments them page by page.
func (s *Store) HanIndexTexts(ctx context.Context, after int64, limit int) ([]IndexText, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT seq, index_text FROM drawers
		WHERE seq > ? AND index_text GLOB ? ORDER BY seq LIMIT ?`, after, hanGlob, limit)
	if err != nil {
		return nil, fmt.Errorf("read index texts: %w", err)
	}
	defer rows.Close()
	var out []IndexText
	for rows.Next() {
		var t IndexText
		if err := rows.Scan(&t.Seq, &t.Text); err != nil {
			return nil, fmt.Errorf("read index texts: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read index texts: %w", err)
	}
	return out, nil
}

// IndexTextChange replaces a drawer's index text Old with New.
type IndexTextChange struct {
	Seq      int64
	Old, New string
}

// ReplaceIndexTexts applies changes in one audited write (op "repair", id
// "cjk"); the triggers re-index the drawers. A drawer whose index text is
// no longer Old (a mine rewrote it since it was read) is left alone. It
// returns how many drawers changed.
func (s *Store) ReplaceIndexTexts(ctx context.Context, changes []IndexTextChange) (int, error) {
	n := 0
	err := s.audited(ctx, "repair", func(tx *sql.Tx, rec *auditRec) error {
		rec.IDs = []string{"cjk"}
		n = 0
		st, err := tx.PrepareContext(ctx, `UPDATE drawers SET index_text = ? WHERE seq = ? AND index_text = ?`)
		if err != nil {
			return fmt.Errorf("replace index texts: %w", err)
		}
		defer st.Close()
		for _, c := range changes {
			r, err := st.ExecContext(ctx, c.New, c.Seq, c.Old)
			if err != nil {
				return fmt.Errorf("replace the index text of drawer %d: %w", c.Seq, err)
			}
			k, _ := r.RowsAffected()
			n += int(k)
		}
		rec.Skip = n == 0
		return nil
	})
	return n, err
}

// metaHanText is the meta key that says whether the full-text index holds
// Han text: "1" yes, "0" no, absent unknown (a palace from before v7 that
// `palace repair` has not scanned yet).
const metaHanText = "cjk.han_text"

// HoldsHan reports whether the full-text index may hold Han text: if not,
// no Chinese query word can match, and segmenting one is wasted work.
// Unknown counts as yes. One primary-key read.
func (s *Store) HoldsHan(ctx context.Context) (bool, error) {
	v, ok, err := s.Meta(ctx, metaHanText)
	return !ok || v != "0", err
}

// RecordHan settles an unknown HoldsHan by reading every drawer's indexed
// text, under the write lock so that no drawer is written meanwhile;
// `palace repair` runs it. A known answer costs one read.
func (s *Store) RecordHan(ctx context.Context) error {
	if _, ok, err := s.Meta(ctx, metaHanText); ok || err != nil {
		return err
	}
	return s.write(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT coalesce(index_text, content) FROM drawers`)
		if err != nil {
			return fmt.Errorf("scan for Han text: %w", err)
		}
		defer rows.Close()
		found := "0"
		for rows.Next() {
			var text string
			if err := rows.Scan(&text); err != nil {
				return fmt.Errorf("scan for Han text: %w", err)
			}
			if hasHan(text) {
				found = "1"
				break
			}
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("scan for Han text: %w", err)
		}
		rows.Close()
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)`, metaHanText, found); err != nil {
			return fmt.Errorf("record Han text: %w", err)
		}
		return nil
	})
}

// markHan records that a drawer written in tx holds Han text in body (what
// the full-text index reads), once per transaction (*done). An unknown
// flag stays unknown: it already counts as yes.
func markHan(ctx context.Context, tx *sql.Tx, body string, done *bool) error {
	if *done || !hasHan(body) {
		return nil
	}
	return recordHan(ctx, tx, done)
}

// recordHan sets meta cjk.han_text once per transaction (done).
func recordHan(ctx context.Context, tx *sql.Tx, done *bool) error {
	if *done {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE meta SET value = '1' WHERE key = ? AND value <> '1'`, metaHanText); err != nil {
		return fmt.Errorf("record Han text: %w", err)
	}
	*done = true
	return nil
}

// hasHan reports whether s holds a Han character; ASCII is skipped without
// decoding, so code costs a byte compare per byte.
func hasHan(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r >= 0x2E80 && unicode.Is(unicode.Han, r) {
			return true
		}
		i += n
	}
	return false
}
