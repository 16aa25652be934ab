package bench

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/palace-dev/palace/core/convo"
	"github.com/palace-dev/palace/core/query"
)

// Lexical reach says how much of a question a search that matches words
// can find at all, however well it ranks: a question is reached when each
// of its evidence turns shares a word with it (stemmed as the index stems,
// stop words and the speakers' names aside), and reached near when each
// evidence turn or a turn beside it does (two before or one after, what an
// exchange's drawer and the exchange it is indexed with hold). A turn
// R_all@10 above reach_near is out of lexical search's range; the rest of
// the gap is ranking.

// reach is a sample's turns in an in-memory FTS5 index with the palace's
// tokenizer, one row per turn.
type reach struct {
	db    *sql.DB
	row   map[string]int   // dia_id -> rowid
	near  map[string][]int // dia_id -> rowids of the turns beside it
	names map[string]bool  // the speakers' name words
}

// newReach indexes the turns of convs (turnOf maps "session_N#index" to
// dia_id, as locomoConversations makes them).
func newReach(ctx context.Context, convs []convo.Conversation, turnOf map[string]string) (*reach, error) {
	db, err := sql.Open("sqlite3", "file::memory:")
	if err != nil {
		return nil, fmt.Errorf("reach index: %w", err)
	}
	db.SetMaxOpenConns(1) // one connection: each would have its own memory database
	r := &reach{db: db, row: map[string]int{}, near: map[string][]int{}, names: map[string]bool{}}
	if _, err := db.ExecContext(ctx, `CREATE VIRTUAL TABLE turns USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2')`); err != nil {
		db.Close()
		return nil, fmt.Errorf("reach index: %w", err)
	}
	n := 0
	for _, c := range convs {
		first := n + 1
		for _, m := range c.Messages {
			n++
			for _, w := range strings.FieldsFunc(strings.ToLower(m.Speaker), notLetterOrDigit) {
				r.names[w] = true
			}
			if _, err := db.ExecContext(ctx, `INSERT INTO turns (rowid, text) VALUES (?, ?)`, n, m.Text); err != nil {
				db.Close()
				return nil, fmt.Errorf("reach index: %w", err)
			}
			id := turnOf[c.ID+"#"+strconv.Itoa(m.Index)]
			r.row[id] = n
			for j := max(first, n-2); j <= min(n+1, first+len(c.Messages)-1); j++ {
				r.near[id] = append(r.near[id], j)
			}
		}
	}
	return r, nil
}

func (r *reach) Close() error { return r.db.Close() }

func notLetterOrDigit(c rune) bool { return !unicode.IsLetter(c) && !unicode.IsDigit(c) }

// of reports whether question reaches every one of evidence, and whether
// it does counting the turns beside each.
func (r *reach) of(ctx context.Context, question string, evidence []string) (own, near bool, err error) {
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(question), notLetterOrDigit) {
		if len([]rune(w)) > 1 && !query.IsStopWord(w) && !r.names[w] {
			words = append(words, `"`+w+`"`)
		}
	}
	if len(words) == 0 {
		return false, false, nil
	}
	rows, err := r.db.QueryContext(ctx, `SELECT rowid FROM turns WHERE turns MATCH ?`, strings.Join(words, " OR "))
	if err != nil {
		return false, false, fmt.Errorf("reach %q: %w", question, err)
	}
	defer rows.Close()
	matched := map[int]bool{}
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			return false, false, fmt.Errorf("reach %q: %w", question, err)
		}
		matched[id] = true
	}
	if err := rows.Err(); err != nil {
		return false, false, fmt.Errorf("reach %q: %w", question, err)
	}
	own, near = true, true
	for _, e := range evidence {
		own = own && matched[r.row[e]]
		nearby := false
		for _, j := range r.near[e] {
			nearby = nearby || matched[j]
		}
		near = near && nearby
	}
	return own, near, nil
}
