package store

import (
	"context"
	"fmt"
	"strings"
	"unicode"
)

// Defining returns the live file drawers in f whose metadata lists name
// among the symbols they define (core/mine records them as
// {"defines":[{"name":..,"kind":..}]}), whatever the symbol's kind, at most
// limit of them, by source and line. The match is exact and case-sensitive:
// Close is not close.
//
// The full-text index narrows the drawers first: a drawer defining name
// holds it in its symbols column, so only drawers matching the name as a
// phrase there are read.
// Of those, a substring test on the metadata text skips most before the
// JSON is parsed and its defines compared exactly. A name with no letter or
// digit ("_", "$") has no words to look up, and is checked on every file
// drawer in f. With f.SourcePrefix, the drawers are read by the source
// index instead, so a name held by a large share of the palace (String,
// Error) costs what the folder holds, not what the name's posting list
// does.
func (s *Store) Defining(ctx context.Context, name string, f Filter, limit int) ([]Drawer, error) {
	return s.defining(ctx, name, nil, f, limit)
}

// DefiningAfter is Defining narrowed to the drawers where one of words
// comes right before name (func panic, def load): the index finds such
// two-word phrases among few drawers even when name alone is in most of
// them, so a name held by a large share of the palace is looked up at the
// cost of its phrases. f.SourcePrefix is not used.
func (s *Store) DefiningAfter(ctx context.Context, name string, words []string, f Filter, limit int) ([]Drawer, error) {
	if len(words) == 0 || !hasWord(name) {
		return nil, nil
	}
	f.SourcePrefix = ""
	return s.defining(ctx, name, words, f, limit)
}

// defining runs Defining, with after (when not empty) the words one of
// which must come right before name.
func (s *Store) defining(ctx context.Context, name string, after []string, f Filter, limit int) ([]Drawer, error) {
	if limit < 1 {
		return nil, fmt.Errorf("defining %q: limit %d: want at least 1", name, limit)
	}
	if name == "" || f.Kind != "" && f.Kind != KindFile {
		return nil, nil
	}
	f.Kind = KindFile
	where, args := filterSQL(f)
	from := `drawers d`
	// As a quoted FTS5 string, a phrase goes through the index's own
	// tokenizer: parse_http2_frame becomes the phrase parse http2 frame.
	quoted := func(p string) string { return `"` + strings.ReplaceAll(p, `"`, `""`) + `"` }
	if len(after) > 0 {
		phrases := make([]string, len(after))
		for i, w := range after {
			phrases[i] = quoted(w + " " + name)
		}
		from = `drawers_fts JOIN drawers d ON d.seq = drawers_fts.rowid`
		where = append([]string{`drawers_fts MATCH ?`}, where...)
		args = append([]any{ftsMatch(strings.Join(phrases, " OR "), f)}, args...)
	} else if f.SourcePrefix != "" {
		// The planner would read the wing's index (a wing is often the
		// whole palace); the source index reads only the prefix's rows.
		from = `drawers d INDEXED BY drawers_source`
		// A range the drawers_source index serves; filterSQL's exact
		// prefix test stays. No UTF-8 byte is 0xFF, so every source
		// starting with the prefix sorts below prefix+"\xff".
		where = append(where, `d.source >= ? AND d.source < ?`)
		args = append(args, f.SourcePrefix, f.SourcePrefix+"\xff")
	} else if hasWord(name) {
		// The symbols column (v9) holds the names a drawer defines, so
		// only drawers defining name or a name with it among its parts
		// (ToString for String) are read, however many mention it.
		from = `drawers_fts JOIN drawers d ON d.seq = drawers_fts.rowid`
		where = append([]string{`drawers_fts MATCH ?`}, where...)
		args = append([]any{ftsMatchIn("symbols", quoted(name), f)}, args...)
	}
	if plainInJSON(name) {
		// JSON writes such a name as it is, so a drawer whose metadata text
		// lacks it cannot define it.
		where = append(where, `instr(d.metadata, ?) > 0`)
		args = append(args, name)
	}
	// json_each fails on malformed JSON; such metadata defines nothing.
	where = append(where, `EXISTS (SELECT 1 FROM json_each(
			CASE WHEN json_valid(d.metadata) THEN d.metadata ELSE '{}' END, '$.defines') j
		WHERE j.type = 'object' AND json_extract(j.value, '$.name') = ?)`)
	args = append(args, name, limit)
	q := `SELECT ` + drawerColumns("d.") + ` FROM ` + from + ` WHERE ` + strings.Join(where, " AND ") + `
		ORDER BY d.source, d.line_start, d.id LIMIT ?`
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("defining %q: %w", name, err)
	}
	ds, err := scanDrawers(rows)
	if err != nil {
		return nil, fmt.Errorf("defining %q: %w", name, err)
	}
	return ds, nil
}

// hasWord reports whether name holds a letter or digit, which the index's
// tokenizer keeps as a word.
func hasWord(name string) bool {
	return strings.IndexFunc(name, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// plainInJSON reports whether encoding/json writes name unescaped (no
// quote, backslash, control character, HTML character or line separator).
func plainInJSON(name string) bool {
	return !strings.ContainsFunc(name, func(r rune) bool {
		return r < 0x20 || r == '"' || r == '\\' || r == '<' || r == '>' || r == '&' || r == '\u2028' || r == '\u2029'
	})
}
