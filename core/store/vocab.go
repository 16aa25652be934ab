package store

import (
	"context"
	"fmt"
)

// IndexedDrawers returns how many drawers the full-text index holds: the N
// of BM25, against which a word's document frequency says how common it is.
// It counts the index's docsize rows (one per indexed drawer), a b-tree
// count that costs well under a millisecond on a palace of 100k drawers.
func (s *Store) IndexedDrawers(ctx context.Context) (int, error) {
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM drawers_fts_docsize`).Scan(&n); err != nil {
		return 0, fmt.Errorf("count indexed drawers: %w", err)
	}
	return n, nil
}

// DocFrequencies returns, for each FTS5 MATCH expression (built by package
// query, never raw user text), how many drawers' text matches it, in f's
// wing (and kind) when it names one, counting no further than upto: a result of upto means "upto or more". The index
// applies its own tokenizer and stemmer, so the counts are the ones BM25
// sees, and the cap bounds the cost to reading upto entries of a posting
// list, which is why a caller can afford it before every search: the
// search itself scores every drawer holding any of its words.
func (s *Store) DocFrequencies(ctx context.Context, matches []string, f Filter, upto int) ([]int, error) {
	out := make([]int, len(matches))
	if len(matches) == 0 {
		return out, nil
	}
	if upto < 1 {
		return nil, fmt.Errorf("document frequencies: upto %d: want at least 1", upto)
	}
	// One connection and one prepared statement for all the expressions:
	// each count is a few hundred microseconds, so the pool's round trips
	// would otherwise weigh as much as the counting.
	conn, err := s.r.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("document frequencies: %w", err)
	}
	defer conn.Close()
	// Selecting no column keeps FTS5 from reading the drawers' text.
	st, err := conn.PrepareContext(ctx, `SELECT count(*) FROM
		(SELECT 1 FROM drawers_fts WHERE drawers_fts MATCH ? LIMIT ?)`)
	if err != nil {
		return nil, fmt.Errorf("document frequencies: %w", err)
	}
	defer st.Close()
	for i, m := range matches {
		if err := st.QueryRowContext(ctx, ftsMatch(m, f), upto).Scan(&out[i]); err != nil {
			return nil, fmt.Errorf("document frequency of %q: %w", m, err)
		}
	}
	return out, nil
}
