package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// Drawer kinds.
const (
	KindFile         = "file"
	KindConversation = "conversation"
	KindNote         = "note"
	KindDiary        = "diary"
)

// DrawerKinds are the kinds of drawer, in the order help text lists them;
// the drawers table refuses any other.
func DrawerKinds() []string {
	return []string{KindFile, KindConversation, KindNote, KindDiary}
}

// ErrNotFound is returned when a drawer id names nothing.
var ErrNotFound = errors.New("not found")

// Drawer is one verbatim chunk of a source.
type Drawer struct {
	ID          string
	Wing        string
	Room        string
	Kind        string
	Source      string
	LineStart   int
	LineEnd     int
	Content     string
	IndexText   string // empty when FTS indexes Content itself
	ContentHash string
	CreatedAt   time.Time
	// OccurredAt and OccurredEnd say when the content happened: message
	// times for a conversation, the file's mtime for a file. Zero if unknown.
	OccurredAt  time.Time
	OccurredEnd time.Time
	SourceMtime int64
	Importance  float64
	DeletedAt   *time.Time
	// PurgedAt is set on a purged drawer: a tombstone whose content, index
	// text and metadata are gone (see PurgeDrawer). A purged drawer is
	// also deleted.
	PurgedAt *time.Time
	Metadata string // JSON object
	// Code is what the full-text index holds for a file drawer beside its
	// body; derived, written but never read back.
	Code CodeIndex
}

// CodeIndex is a file drawer's code index (migration v9): three FTS5
// columns that SearchFTS weighs apart from the body. Each is text the
// index tokenizes like the body (core/query builds them: SymbolWords,
// PathWords, IdentParts); empty for other drawers.
type CodeIndex struct {
	Symbols string // the names the drawer defines, and their parts
	Path    string // its file's name and folder
	Parts   string // the parts of its identifiers with case boundaries
}

// ContentHash is the hex SHA-256 of a drawer's content.
func ContentHash(content string) string {
	h := sha256.Sum256([]byte(content))
	return hex.EncodeToString(h[:])
}

// DrawerID derives a stable id from where a drawer came from and what it
// holds. The position is part of it, so identical text in two files, or twice
// in one file, gives distinct drawers; the content hash is part of it, so an
// edited chunk gets a new id.
func DrawerID(wing, source string, position int, contentHash string) string {
	h := sha256.New()
	h.Write([]byte(wing))
	h.Write([]byte{0})
	h.Write([]byte(source))
	h.Write([]byte{0})
	h.Write([]byte(strconv.Itoa(position)))
	h.Write([]byte{0})
	h.Write([]byte(contentHash))
	return "d_" + hex.EncodeToString(h.Sum(nil))[:24]
}

// drawerIDRe is the form DrawerID gives every drawer id (notes and diary
// entries included).
var drawerIDRe = regexp.MustCompile(`^d_[0-9a-f]{24}$`)

// IsDrawerID reports whether id has the form DrawerID gives.
func IsDrawerID(id string) bool { return drawerIDRe.MatchString(id) }

// ParseTime reads a drawer time as the store writes it (created_at,
// occurred_at, deleted_at, purged_at).
func ParseTime(s string) (time.Time, error) { return time.Parse(timeLayout, s) }

const timeLayout = time.RFC3339Nano

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// optText stores an empty text as NULL.
func optText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// optTime stores a zero time as NULL.
func optTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return formatTime(t)
}

// drawerColumns lists the columns scanDrawer reads, each prefixed with p (a
// table alias such as "d." or "").
func drawerColumns(p string) string {
	return fmt.Sprintf(`%[1]sid, %[1]swing, %[1]sroom, %[1]skind, %[1]ssource, %[1]sline_start, %[1]sline_end,
		%[1]scontent, coalesce(%[1]sindex_text, ''), %[1]scontent_hash, %[1]screated_at,
		coalesce(%[1]ssource_mtime, 0), %[1]simportance, %[1]sdeleted_at, %[1]smetadata,
		coalesce(%[1]soccurred_at, ''), coalesce(%[1]soccurred_end, ''), %[1]spurged_at`, p)
}

func scanDrawer(sc interface{ Scan(...any) error }) (Drawer, error) {
	var d Drawer
	var created string
	var deleted, purged sql.NullString
	var occurred, occurredEnd string
	err := sc.Scan(&d.ID, &d.Wing, &d.Room, &d.Kind, &d.Source, &d.LineStart, &d.LineEnd, &d.Content,
		&d.IndexText, &d.ContentHash, &created, &d.SourceMtime, &d.Importance, &deleted, &d.Metadata,
		&occurred, &occurredEnd, &purged)
	if err != nil {
		return d, err
	}
	d.CreatedAt, _ = time.Parse(timeLayout, created)
	d.OccurredAt, _ = time.Parse(timeLayout, occurred)
	d.OccurredEnd, _ = time.Parse(timeLayout, occurredEnd)
	if deleted.Valid {
		t, _ := time.Parse(timeLayout, deleted.String)
		d.DeletedAt = &t
	}
	if purged.Valid {
		t, _ := time.Parse(timeLayout, purged.String)
		d.PurgedAt = &t
	}
	return d, nil
}

// GetDrawer returns a drawer by id, including a soft-deleted one (DeletedAt
// set) so nothing is ever unreachable by its id.
func (s *Store) GetDrawer(ctx context.Context, id string) (Drawer, error) {
	row := s.r.QueryRowContext(ctx, `SELECT `+drawerColumns("")+` FROM drawers WHERE id = ?`, id)
	d, err := scanDrawer(row)
	if errors.Is(err, sql.ErrNoRows) {
		return d, fmt.Errorf("drawer %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return d, fmt.Errorf("drawer %s: %w", id, err)
	}
	return d, nil
}

// DeleteDrawer soft-deletes a drawer: it leaves search at once, stays
// readable by id, and its row is kept so the deletion can be audited.
func (s *Store) DeleteDrawer(ctx context.Context, id string) error {
	return s.audited(ctx, "drawer.delete", func(tx *sql.Tx, rec *auditRec) error {
		rec.IDs = []string{id}
		var seq int64
		err := tx.QueryRowContext(ctx, `UPDATE drawers SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL RETURNING seq`,
			formatTime(time.Now()), id).Scan(&seq)
		if errors.Is(err, sql.ErrNoRows) {
			var exists int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM drawers WHERE id = ?`, id).Scan(&exists); err != nil {
				return fmt.Errorf("delete drawer %s: %w", id, err)
			}
			if exists == 0 {
				return fmt.Errorf("drawer %s: %w", id, ErrNotFound)
			}
			return fmt.Errorf("drawer %s is already deleted", id)
		}
		if err != nil {
			return fmt.Errorf("delete drawer %s: %w", id, err)
		}
		// The row stays for the audit trail, but its vector goes: KNN
		// would otherwise spend its slots on drawers search never shows.
		// It is overwritten too, so a later purge leaves nothing behind.
		if err := eraseVector(ctx, tx, seq); err != nil {
			return fmt.Errorf("delete drawer %s: %w", id, err)
		}
		return nil
	})
}

// InsertDrawers adds drawers that belong to no tracked source (notes,
// diaries). Ids that already exist are left as they are and reported.
func (s *Store) InsertDrawers(ctx context.Context, ds []Drawer) (added int, err error) {
	err = s.audited(ctx, "drawer.add", func(tx *sql.Tx, rec *auditRec) error {
		ins, err := prepareInsert(ctx, tx)
		if err != nil {
			return err
		}
		defer ins.Close()
		added = 0
		for _, d := range ds {
			n, err := insertDrawer(ctx, ins, d)
			if err != nil {
				return err
			}
			if n > 0 {
				rec.IDs = append(rec.IDs, d.ID)
				rec.Size += int64(len(d.Content))
				rec.Hash = d.ContentHash // the last one; with one drawer, its hash
			}
			added += n
		}
		rec.Skip = added == 0
		return nil
	})
	return added, err
}

// drawerInsert is a prepared drawer insert in one transaction.
type drawerInsert struct {
	tx  *sql.Tx
	st  *sql.Stmt
	han bool // this transaction recorded Han text (markHan)
}

func prepareInsert(ctx context.Context, tx *sql.Tx) (*drawerInsert, error) {
	st, err := tx.PrepareContext(ctx, `INSERT INTO drawers
		(id, wing, room, kind, source, line_start, line_end, content, index_text, content_hash,
		 created_at, source_mtime, importance, metadata, occurred_at, occurred_end,
		 code_symbols, code_path, code_parts)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO NOTHING`)
	if err != nil {
		return nil, fmt.Errorf("prepare drawer insert: %w", err)
	}
	return &drawerInsert{tx: tx, st: st}, nil
}

func (ins *drawerInsert) Close() error { return ins.st.Close() }

// drawerValues are d's values in the order of prepareInsert's columns.
func drawerValues(d Drawer) []any {
	var indexText any
	if d.IndexText != "" && d.IndexText != d.Content {
		indexText = d.IndexText
	}
	meta := d.Metadata
	if meta == "" {
		meta = "{}"
	}
	created := d.CreatedAt
	if created.IsZero() {
		created = time.Now()
	}
	return []any{d.ID, d.Wing, d.Room, d.Kind, d.Source, d.LineStart, d.LineEnd, d.Content,
		indexText, d.ContentHash, formatTime(created), d.SourceMtime, d.Importance, meta,
		optTime(d.OccurredAt), optTime(d.OccurredEnd), optText(d.Code.Symbols), optText(d.Code.Path), optText(d.Code.Parts)}
}

func insertDrawer(ctx context.Context, ins *drawerInsert, d Drawer) (int, error) {
	v := drawerValues(d)
	res, err := ins.st.ExecContext(ctx, v...)
	if err != nil {
		return 0, fmt.Errorf("insert drawer %s (%s:%d-%d): %w", d.ID, d.Source, d.LineStart, d.LineEnd, err)
	}
	n, _ := res.RowsAffected()
	body := d.Content
	if v[8] != nil {
		body = d.IndexText
	}
	if n > 0 {
		if err := markHan(ctx, ins.tx, body, &ins.han); err != nil {
			return 0, err
		}
	}
	return int(n), nil
}
