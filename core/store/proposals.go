package store

// Storage of the knowledge graph's proposals: facts the extractor
// (core/extract) read in drawers, kept until someone accepts or rejects
// them, and which drawers it has read (drawers.facts_read). The rules
// (what is a duplicate of a fact, what accepting writes) are core/kg's.

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Proposal statuses.
const (
	ProposalPending  = "pending"
	ProposalAccepted = "accepted"
	ProposalRejected = "rejected"
)

// KGCreatedLayout is the layout of a proposal's created_at and
// decided_at, for an import's checks.
const KGCreatedLayout = kgCreatedLayout

// ErrNotPending is wrapped by a decision on a proposal already accepted or
// rejected.
var ErrNotPending = errors.New("already decided")

// unread selects the drawers left to read; it is the partial index's
// condition word for word, so SQLite uses the index.
const unread = `facts_read IS NULL AND deleted_at IS NULL AND kind IN ('conversation', 'note', 'diary')`

// Proposal is a fact read in a drawer, waiting for review or decided.
type Proposal struct {
	ID        string `json:"id"`
	Subject   string `json:"subject"` // as written
	SubjectID string `json:"subject_id"`
	Predicate string `json:"predicate"`
	Object    string `json:"object"` // as written
	ObjectID  string `json:"object_id"`
	// Replaces is a move's old object: accepting ends its fact.
	Replaces string `json:"replaces,omitempty"`
	// Ends says the sentence retracted the fact ("no longer", "stopped"):
	// accepting ends it at ValidFrom instead of adding it.
	Ends         bool       `json:"ends,omitempty"`
	ValidFrom    *time.Time `json:"valid_from"`
	Confidence   float64    `json:"confidence"`
	Sentence     string     `json:"sentence"`
	SourceDrawer string     `json:"source_drawer"`
	// Wing is the source drawer's wing, read back, never written.
	Wing   string `json:"wing"`
	Status string `json:"status"`
	// Triple is the fact accepting wrote (or found already stored).
	Triple    string     `json:"triple,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
	DecidedAt *time.Time `json:"decided_at,omitempty"`
}

// UnreadDrawers returns up to limit live conversation, note and diary
// drawers the extractor has not read, oldest first: of wing when it is not
// "", and among ids when they are given.
func (s *Store) UnreadDrawers(ctx context.Context, wing string, ids []string, limit int) ([]Drawer, error) {
	where, args := `WHERE `+unread, []any{}
	if wing != "" {
		where += ` AND wing = ?`
		args = append(args, wing)
	}
	if len(ids) > 0 {
		where += ` AND id IN (` + marks(len(ids)) + `)`
		for _, id := range ids {
			args = append(args, id)
		}
	}
	rows, err := s.r.QueryContext(ctx, `SELECT `+drawerColumns("")+` FROM drawers `+where+` ORDER BY seq LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("unread drawers: %w", err)
	}
	ds, err := scanDrawers(rows)
	if err != nil {
		return nil, fmt.Errorf("unread drawers: %w", err)
	}
	return ds, nil
}

// UnreadCount counts the drawers UnreadDrawers would return for wing
// ("" for every wing).
func (s *Store) UnreadCount(ctx context.Context, wing string) (int, error) {
	var n int
	err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM drawers WHERE `+unread+` AND (? = '' OR wing = ?)`, wing, wing).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count unread drawers: %w", err)
	}
	return n, nil
}

func marks(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }

// KGPropose keeps proposals and marks the drawers read (facts_read =
// version) in one write, audited when it keeps any. A proposal is left out
// when a proposal of the same fact (subject id, predicate, object id) is
// pending or was rejected, or the same drawer proposed it before; a
// retraction (Ends) repeats only a retraction of the same fact. It
// returns the proposals kept, with their ids and times.
func (s *Store) KGPropose(ctx context.Context, ps []Proposal, read []string, version int) ([]Proposal, error) {
	var kept []Proposal
	err := s.audited(ctx, "kg.propose", func(tx *sql.Tx, rec *auditRec) error {
		kept = kept[:0]
		now := time.Now().UTC()
		for _, p := range ps {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM kg_proposals
				WHERE subject_id = ? AND predicate = ? AND object_id = ? AND ends = ? AND (status != 'accepted' OR source_drawer = ?)`,
				p.SubjectID, p.Predicate, p.ObjectID, p.Ends, p.SourceDrawer).Scan(&n); err != nil {
				return fmt.Errorf("propose %s %s %s: %w", p.SubjectID, p.Predicate, p.ObjectID, err)
			}
			if n > 0 {
				continue
			}
			id, err := newProposalID()
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO kg_proposals (id, subject, subject_id, predicate, object, object_id,
				replaces, ends, valid_from, confidence, sentence, source_drawer, status, created_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
				id, p.Subject, p.SubjectID, p.Predicate, p.Object, p.ObjectID, optText(p.Replaces), p.Ends, kgFormat(p.ValidFrom),
				p.Confidence, p.Sentence, p.SourceDrawer, now.Format(kgCreatedLayout)); err != nil {
				return fmt.Errorf("propose %s %s %s: %w", p.SubjectID, p.Predicate, p.ObjectID, err)
			}
			p.ID, p.Status, p.CreatedAt = id, ProposalPending, now
			kept = append(kept, p)
			rec.IDs = append(rec.IDs, id)
		}
		for _, id := range read {
			if _, err := tx.ExecContext(ctx, `UPDATE drawers SET facts_read = ? WHERE id = ?`, version, id); err != nil {
				return fmt.Errorf("mark drawer %s read: %w", id, err)
			}
		}
		// Marking drawers read is bookkeeping, rebuilt by reading them
		// again; only kept proposals are the palace's news.
		rec.Skip = len(kept) == 0
		return nil
	})
	return kept, err
}

func newProposalID() (string, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("proposal id: %w", err)
	}
	return "p_" + hex.EncodeToString(b[:]), nil
}

// ProposalFilter selects proposals.
type ProposalFilter struct {
	Status        string   // "" for any
	IDs           []string // nil for any
	MinConfidence float64
	// Live keeps the proposals whose drawer is live: a forgotten drawer's
	// proposals leave review with it.
	Live  bool
	Limit int // 0 for no limit
	// Said orders by when each was said (valid_from, undated last), then
	// as stored, instead of most confident first: accepting in that order
	// lets a later statement supersede an earlier one.
	Said bool
}

// KGProposals returns the proposals f selects, most confident first, then
// oldest, then in the order they were stored (a drawer's sentence order,
// not the ids' hash order), or in the order they were said (f.Said), and
// how many there are without the limit.
func (s *Store) KGProposals(ctx context.Context, f ProposalFilter) ([]Proposal, int, error) {
	where, args := []string{`p.confidence >= ?`}, []any{f.MinConfidence}
	if f.Status != "" {
		where, args = append(where, `p.status = ?`), append(args, f.Status)
	}
	if f.IDs != nil {
		if len(f.IDs) == 0 {
			return []Proposal{}, 0, nil
		}
		where = append(where, `p.id IN (`+marks(len(f.IDs))+`)`)
		for _, id := range f.IDs {
			args = append(args, id)
		}
	}
	if f.Live {
		where = append(where, `d.deleted_at IS NULL AND d.id IS NOT NULL`)
	}
	from := ` FROM kg_proposals p LEFT JOIN drawers d ON d.id = p.source_drawer WHERE ` + strings.Join(where, " AND ")
	var total int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*)`+from, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("proposals: %w", err)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = -1
	}
	order := ` ORDER BY p.confidence DESC, p.created_at, p.rowid`
	if f.Said {
		order = ` ORDER BY p.valid_from IS NULL, p.valid_from, p.created_at, p.rowid`
	}
	rows, err := s.r.QueryContext(ctx, `SELECT p.id, p.subject, p.subject_id, p.predicate, p.object, p.object_id,
		coalesce(p.replaces, ''), p.ends, p.valid_from, p.confidence, p.sentence, p.source_drawer, coalesce(d.wing, ''),
		p.status, coalesce(p.triple, ''), p.created_at, p.decided_at`+from+order+` LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, 0, fmt.Errorf("proposals: %w", err)
	}
	defer rows.Close()
	out := []Proposal{}
	for rows.Next() {
		var p Proposal
		var from, decided sql.NullString
		var created string
		if err := rows.Scan(&p.ID, &p.Subject, &p.SubjectID, &p.Predicate, &p.Object, &p.ObjectID, &p.Replaces, &p.Ends,
			&from, &p.Confidence, &p.Sentence, &p.SourceDrawer, &p.Wing, &p.Status, &p.Triple, &created, &decided); err != nil {
			return nil, 0, fmt.Errorf("proposals: %w", err)
		}
		if p.ValidFrom, err = kgParse("valid_from", from); err != nil {
			return nil, 0, fmt.Errorf("proposal %s: %w", p.ID, err)
		}
		if p.CreatedAt, err = time.Parse(kgCreatedLayout, created); err != nil {
			return nil, 0, fmt.Errorf("proposal %s: created_at %q: %w", p.ID, created, err)
		}
		if decided.Valid {
			t, err := time.Parse(kgCreatedLayout, decided.String)
			if err != nil {
				return nil, 0, fmt.Errorf("proposal %s: decided_at %q: %w", p.ID, decided.String, err)
			}
			p.DecidedAt = &t
		}
		out = append(out, p)
	}
	return out, total, rows.Err()
}

// KGDecide accepts (with the fact written, triple) or rejects a pending
// proposal. An unknown id is ErrNotFound; a decided one ErrNotPending.
func (s *Store) KGDecide(ctx context.Context, id, status, triple string) error {
	if status != ProposalAccepted && status != ProposalRejected {
		return fmt.Errorf("decide proposal %s: status %q is not accepted or rejected", id, status)
	}
	return s.audited(ctx, "kg.review", func(tx *sql.Tx, rec *auditRec) error {
		rec.IDs = []string{id}
		var cur string
		err := tx.QueryRowContext(ctx, `SELECT status FROM kg_proposals WHERE id = ?`, id).Scan(&cur)
		if errors.Is(err, sql.ErrNoRows) {
			rec.Skip = true
			return fmt.Errorf("proposal %s: %w", id, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("decide proposal %s: %w", id, err)
		}
		if cur != ProposalPending {
			rec.Skip = true
			return fmt.Errorf("proposal %s: %w (%s)", id, ErrNotPending, cur)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE kg_proposals SET status = ?, triple = ?, decided_at = ? WHERE id = ?`,
			status, optText(triple), time.Now().UTC().Format(kgCreatedLayout), id); err != nil {
			return fmt.Errorf("decide proposal %s: %w", id, err)
		}
		return nil
	})
}

// eraseProposals forgets what a purged drawer said: its pending proposals
// go (nothing is left to review them by), and so do its rejected ones,
// whose subject and object are words of the purged text: keeping the
// rejection would keep them, and a purge says they must go (the same fact
// read again elsewhere is proposed again). Accepted ones keep their
// decision without the sentence: their subject and object are a fact of
// the graph now, the palace's own data, which `palace kg rm` removes.
func eraseProposals(ctx context.Context, tx *sql.Tx, drawer string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM kg_proposals WHERE source_drawer = ? AND status != 'accepted'`, drawer); err != nil {
		return fmt.Errorf("erase proposals: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE kg_proposals SET sentence = '' WHERE source_drawer = ?`, drawer); err != nil {
		return fmt.Errorf("erase proposals: %w", err)
	}
	return nil
}
