package store

import (
	"context"
	"database/sql"
	"fmt"
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

// metaHanText is the meta key the v7 triggers set when a drawer's indexed
// text first holds Han characters.
const metaHanText = "cjk.han_text"

// HoldsHan reports whether the full-text index has ever held Han text: if
// not, no Chinese query word can match, and segmenting one is wasted work.
// One primary-key read.
func (s *Store) HoldsHan(ctx context.Context) (bool, error) {
	_, ok, err := s.Meta(ctx, metaHanText)
	return ok, err
}
