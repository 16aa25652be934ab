package store

import (
	"context"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Filter narrows a search to part of the palace. Empty fields match all.
type Filter struct {
	Wing         string
	Room         string
	Kind         string
	SourcePrefix string
	// Since and Until keep drawers whose time (when their content happened,
	// else when they were mined) overlaps [Since, Until). Zero is unbounded.
	Since time.Time
	Until time.Time
	// Refers widens Since and Until to the drawers that also refer to a
	// day in the period: a conversation saying "last Saturday" (its
	// metadata's refers, [from, until) date pairs set by mining).
	Refers bool
}

// Hit is one FTS match.
type Hit struct {
	Drawer
	Score   float64 // higher is better (negated bm25)
	Snippet string
	// Matched are the words of the drawer's index text that FTS5 matched,
	// as written there (painting, painted for a query saying paint), for a
	// drawer with an index text and for every conversation drawer; nil for
	// the others, whose snippet FTS5 cuts itself. The index stems and folds
	// case, so these are what to look for in the content.
	Matched []string
}

// Snippet markers around matched terms; fronts turn them into bold or
// brackets.
const (
	MarkStart = "\x02"
	MarkEnd   = "\x03"
)

// SearchFTS runs an FTS5 MATCH expression (built by package query, never raw
// user text) with filters and returns hits best first. Ids in exclude are
// skipped, so a caller can run a broader query after a narrower one.
// Snippets are always cut from the drawer's content (see sourceSnippet).
//
// The expression is matched against drawer text only; a wing (and kind)
// filter is also applied inside FTS5 through the scope column, so BM25 scores
// only the drawers in scope. Scope has weight 0 in bm25, so matching it adds
// nothing to a score; its one token per drawer does count in BM25's document
// lengths (each drawer and the average grow by one), a small, even shift.
func (s *Store) SearchFTS(ctx context.Context, match string, f Filter, limit int, exclude map[string]bool) ([]Hit, error) {
	where, fargs := filterSQL(f)
	args := append([]any{ftsMatch(match, f)}, fargs...)
	q := `SELECT ` + drawerColumns("d.") + `, -` + bm25 + ` AS score,
		CASE WHEN d.index_text IS NULL
			THEN snippet(drawers_fts, 0, '` + MarkStart + `', '` + MarkEnd + `', '…', ` + strconv.Itoa(snippetWords) + `) END,
		CASE WHEN d.index_text IS NOT NULL OR d.kind = '` + KindConversation + `'
			THEN highlight(drawers_fts, 0, '` + MarkStart + `', '` + MarkEnd + `') END
		FROM drawers_fts JOIN drawers d ON d.seq = drawers_fts.rowid
		WHERE drawers_fts MATCH ? AND ` + strings.Join(where, " AND ") + `
		ORDER BY ` + bm25 + ` LIMIT ?`
	args = append(args, limit+len(exclude))
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("search %q: %w", match, err)
	}
	defer rows.Close()
	var hits []Hit
	for rows.Next() {
		var h Hit
		var extra [3]any
		d, err := scanDrawer(scanFunc(func(dest ...any) error {
			return rows.Scan(append(dest, &extra[0], &extra[1], &extra[2])...)
		}))
		if err != nil {
			return nil, fmt.Errorf("search %q: %w", match, err)
		}
		if exclude[d.ID] {
			continue
		}
		h.Drawer = d
		h.Score, _ = extra[0].(float64)
		h.Snippet, _ = extra[1].(string)
		if marked, _ := extra[2].(string); marked != "" {
			h.Matched = markedTerms(marked)
		}
		if d.IndexText != "" {
			// FTS5 marked the index text; the snippet shows the content.
			h.Snippet = sourceSnippet(d.Content, h.Matched)
		}
		hits = append(hits, h)
		if len(hits) == limit {
			break
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("search %q: %w", match, err)
	}
	return hits, nil
}

// bm25 weighs the index's columns (migration v9): the body as it always
// was; scope not at all (it only narrows); a name the drawer defines far
// above a mention, so the definition of SearchFTS outranks its callers;
// the file's name and folder above a word in the body, as a person names
// the area (3 rather than 2: over 21 histories in `palace bench code`,
// mean MRR@10 0.595 to 0.614, none lower; 4 and 6 cost redis); the parts
// of an identifier (search, fts of SearchFTS) like body words, since they
// are what the identifier says.
const bm25 = `bm25(drawers_fts, 1.0, 0.0, ` + weightSymbols + `, ` + weightPath + `, ` + weightParts + `)`

const (
	weightSymbols = "4.0"
	weightPath    = "3.0"
	weightParts   = "1.0"
)

type scanFunc func(dest ...any) error

func (f scanFunc) Scan(dest ...any) error { return f(dest...) }

// ftsMatch confines match to the text columns (body and the code index)
// and, when f names a wing, to
// that wing's drawers (of f.Kind, when that is a kind) through the scope
// token the v4 migration indexes: 'w' || hex(wing) || 'k' || kind. filterSQL
// still checks wing and kind on the drawers row, so scope only narrows.
func ftsMatch(match string, f Filter) string {
	return ftsMatchIn("body symbols path parts", match, f)
}

// ftsMatchIn is ftsMatch confined to cols, FTS5 column names separated by
// spaces.
func ftsMatchIn(cols, match string, f Filter) string {
	m := "{" + cols + "} : (" + match + ")"
	if f.Wing == "" {
		return m
	}
	scope := `"w` + strings.ToUpper(hex.EncodeToString([]byte(f.Wing))) + "k"
	switch f.Kind {
	case KindFile, KindConversation, KindNote, KindDiary:
		return m + " AND {scope} : " + scope + f.Kind + `"`
	}
	// Any kind: the four exact tokens (the drawers table's CHECK allows no
	// other kind). A prefix query ("w…k"*) would be shorter, but FTS5 then
	// merges the posting lists of the whole wing before it intersects them
	// with the words, which cost several times the search itself in a
	// 100k-drawer wing.
	ks := make([]string, len(allKinds))
	for i, k := range allKinds {
		ks[i] = scope + k + `"`
	}
	return m + " AND {scope} : (" + strings.Join(ks, " OR ") + ")"
}

// allKinds are the kinds a drawer can have.
var allKinds = []string{KindFile, KindConversation, KindNote, KindDiary}
