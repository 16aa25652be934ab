package store

// Knowledge-graph storage: the SQL behind core/kg. This file holds no policy
// (which predicates are functional, what counts as a contradiction); it
// reads and writes entities, triples and the functional-predicate list, and
// runs core/kg's decision inside the same write transaction as the write it
// leads to, so two concurrent adds cannot both pass the contradiction check.
//
// Representation:
//   - entities.id is the normalised name (core/kg decides the rule),
//     entities.name the name as first written; triples.subject and
//     triples.object hold entity ids.
//   - valid_from and valid_to are UTC text in kgTimeLayout, fixed width, so
//     SQL string comparison orders them. NULL valid_from means "since
//     always", NULL valid_to "still open". Intervals are half-open:
//     [valid_from, valid_to).
//   - The functional-predicate list is a JSON array in meta under
//     kgFunctionalKey; absent means "never set" (the caller's default).

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"time"
)

// kgTimeLayout stores validity bounds to the second, always the same width,
// so that comparing the strings compares the instants.
const kgTimeLayout = "2006-01-02T15:04:05Z"

// ParseKGBound reads a triple's valid_from or valid_to as the store writes
// it.
func ParseKGBound(s string) (time.Time, error) { return time.Parse(kgTimeLayout, s) }

// tripleIDRe is the form newTripleID gives.
var tripleIDRe = regexp.MustCompile(`^t_[0-9a-f]{24}$`)

// IsTripleID reports whether id has the form the store gives a triple.
func IsTripleID(id string) bool { return tripleIDRe.MatchString(id) }

// kgCreatedLayout is fixed-width too (RFC3339Nano drops trailing zeros, which
// would misorder ties within a second).
const kgCreatedLayout = "2006-01-02T15:04:05.000000000Z"

const kgFunctionalKey = SettingKGFunctional

// ErrInterval is wrapped by errors about an interval whose end is not after
// its start.
var ErrInterval = errors.New("valid_to must be after valid_from")

// ErrUnknownDrawer is wrapped (with ErrNotFound) when a triple names a source
// drawer that does not exist.
var ErrUnknownDrawer = errors.New("no such source drawer")

// Entity is a knowledge-graph node.
type Entity struct {
	ID        string    `json:"id"`   // normalised name
	Name      string    `json:"name"` // as first written
	Type      string    `json:"type"`
	CreatedAt time.Time `json:"created_at"`
}

// Triple is one dated fact: subject predicate object, valid over the
// half-open interval [ValidFrom, ValidTo).
type Triple struct {
	ID           string     `json:"id"`
	Subject      string     `json:"subject"` // as first written
	SubjectID    string     `json:"subject_id"`
	Predicate    string     `json:"predicate"` // normalised
	Object       string     `json:"object"`    // as first written
	ObjectID     string     `json:"object_id"`
	ValidFrom    *time.Time `json:"valid_from"` // nil: since always
	ValidTo      *time.Time `json:"valid_to"`   // nil: still open; exclusive
	Confidence   float64    `json:"confidence"`
	SourceDrawer string     `json:"source_drawer,omitempty"`
	// Wing is the project the fact was recorded in without a drawer
	// saying it (an agent's session); "" is none but the source drawer's.
	Wing string `json:"wing,omitempty"`
	// Provenance is where the fact was said, nil when unknown.
	Provenance *Provenance `json:"provenance,omitempty"`
	CreatedAt  time.Time   `json:"created_at"`
}

// KGAddState is what a knowledge-graph add sees inside its write
// transaction.
type KGAddState struct {
	// Overlapping holds every stored triple with the new triple's subject
	// and predicate, any object, whose interval overlaps the new one.
	Overlapping []Triple
	// Functional is the stored functional-predicate list; FunctionalSet is
	// false when none was ever stored, so the caller's default applies.
	Functional    []string
	FunctionalSet bool
	// SubjectID and ObjectID are the ids the new triple's names resolve
	// to: an alias is stored under the entity it names.
	SubjectID, ObjectID string
}

// KGReshape sets the interval of an existing triple (closing or widening it).
type KGReshape struct {
	ID        string
	ValidFrom *time.Time
	ValidTo   *time.Time
}

// KGPlan is what the caller decided to write for one add.
type KGPlan struct {
	Insert  bool        // write the new triple
	Reshape []KGReshape // change these existing triples' intervals first
}

// KGStats counts the graph. Current, Expired and Future partition Triples
// relative to the time the stats were taken.
type KGStats struct {
	Entities   int              `json:"entities"`
	Triples    int              `json:"triples"`
	Current    int              `json:"current"`
	Expired    int              `json:"expired"`
	Future     int              `json:"future"`
	Predicates []PredicateCount `json:"predicates"`
}

// PredicateCount is how often one predicate is used.
type PredicateCount struct {
	Predicate string `json:"predicate"`
	Triples   int    `json:"triples"`
	Current   int    `json:"current"`
	Expired   int    `json:"expired"`
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func kgFormat(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC().Format(kgTimeLayout)
}

func kgParse(col string, v sql.NullString) (*time.Time, error) {
	if !v.Valid {
		return nil, nil
	}
	t, err := time.Parse(kgTimeLayout, v.String)
	if err != nil {
		return nil, fmt.Errorf("stored %s %q: %w", col, v.String, err)
	}
	return &t, nil
}

// checkInterval enforces the one invariant the store keeps itself: no empty
// or inverted interval ever reaches the table.
func checkInterval(from, to *time.Time) error {
	if from != nil && to != nil && !to.After(*from) {
		return fmt.Errorf("%w (valid_from %s, valid_to %s)", ErrInterval,
			from.UTC().Format(kgTimeLayout), to.UTC().Format(kgTimeLayout))
	}
	return nil
}

const tripleSelect = `SELECT t.id, t.subject, coalesce(se.name, t.subject), t.predicate, t.object,
	coalesce(oe.name, t.object), t.valid_from, t.valid_to, t.confidence, coalesce(t.source_drawer, ''), t.created_at,
	coalesce(t.wing, ''), coalesce(t.provenance, '')
	FROM triples t
	LEFT JOIN entities se ON se.id = t.subject
	LEFT JOIN entities oe ON oe.id = t.object `

func scanTriples(rows *sql.Rows) ([]Triple, error) {
	defer rows.Close()
	out := []Triple{}
	for rows.Next() {
		var tr Triple
		var from, to sql.NullString
		var created, prov string
		if err := rows.Scan(&tr.ID, &tr.SubjectID, &tr.Subject, &tr.Predicate, &tr.ObjectID, &tr.Object,
			&from, &to, &tr.Confidence, &tr.SourceDrawer, &created, &tr.Wing, &prov); err != nil {
			return nil, err
		}
		var err error
		if tr.Provenance, err = ParseProvenance(prov); err != nil {
			return nil, fmt.Errorf("triple %s: %w", tr.ID, err)
		}
		if tr.ValidFrom, err = kgParse("valid_from", from); err != nil {
			return nil, fmt.Errorf("triple %s: %w", tr.ID, err)
		}
		if tr.ValidTo, err = kgParse("valid_to", to); err != nil {
			return nil, fmt.Errorf("triple %s: %w", tr.ID, err)
		}
		if tr.CreatedAt, err = time.Parse(time.RFC3339Nano, created); err != nil {
			return nil, fmt.Errorf("triple %s: created_at %q: %w", tr.ID, created, err)
		}
		out = append(out, tr)
	}
	return out, rows.Err()
}

// overlapping returns the triples with this subject and predicate whose
// interval overlaps [from, to). Half-open intervals overlap when each starts
// before the other ends; a NULL bound is unbounded.
func overlapping(ctx context.Context, q querier, subjectID, predicate string, from, to *time.Time) ([]Triple, error) {
	f, t := kgFormat(from), kgFormat(to)
	rows, err := q.QueryContext(ctx, tripleSelect+`WHERE t.subject = ? AND t.predicate = ?
		AND (t.valid_from IS NULL OR ? IS NULL OR t.valid_from < ?)
		AND (t.valid_to IS NULL OR ? IS NULL OR t.valid_to > ?)
		ORDER BY t.valid_from IS NOT NULL, t.valid_from, t.created_at, t.id`,
		subjectID, predicate, t, t, f, f)
	if err != nil {
		return nil, err
	}
	return scanTriples(rows)
}

func functional(ctx context.Context, q querier) ([]string, bool, error) {
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, kgFunctionalKey).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read functional predicates: %w", err)
	}
	var list []string
	if err := json.Unmarshal([]byte(v), &list); err != nil {
		return nil, false, fmt.Errorf("read functional predicates: meta %s is not a JSON array of strings: %w", kgFunctionalKey, err)
	}
	return list, true, nil
}

// KGOverlapping returns the stored triples with this subject id and
// predicate whose interval overlaps [from, to) (nil bounds are unbounded),
// any object. It reads without locking: use it to answer "what would
// happen", and KGAdd to act.
func (s *Store) KGOverlapping(ctx context.Context, subjectID, predicate string, from, to *time.Time) ([]Triple, error) {
	ts, err := overlapping(ctx, s.r, subjectID, predicate, from, to)
	if err != nil {
		return nil, fmt.Errorf("triples of %s %s: %w", subjectID, predicate, err)
	}
	return ts, nil
}

// KGAdd runs decide on the triples overlapping t inside one write
// transaction and applies its plan there: reshape existing triples, then, if
// asked, insert t (creating its entities) and return it with its id and
// created_at set. If decide returns an error nothing is written and that
// error is returned. t carries subject/object ids and display names, the
// normalised predicate, its interval, confidence and source drawer.
func (s *Store) KGAdd(ctx context.Context, t Triple, decide func(KGAddState) (KGPlan, error)) (Triple, error) {
	if err := checkInterval(t.ValidFrom, t.ValidTo); err != nil {
		return Triple{}, err
	}
	var added Triple
	err := s.audited(ctx, "kg.add", func(tx *sql.Tx, rec *auditRec) error {
		if t.SourceDrawer != "" {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM drawers WHERE id = ?`, t.SourceDrawer).Scan(&n); err != nil {
				return fmt.Errorf("look up source drawer %s: %w", t.SourceDrawer, err)
			}
			if n == 0 {
				return fmt.Errorf("source drawer %s: %w (%w)", t.SourceDrawer, ErrUnknownDrawer, ErrNotFound)
			}
		}
		var st KGAddState
		var err error
		if t.SubjectID, err = resolve(ctx, tx, t.SubjectID); err != nil {
			return err
		}
		if t.ObjectID, err = resolve(ctx, tx, t.ObjectID); err != nil {
			return err
		}
		st.SubjectID, st.ObjectID = t.SubjectID, t.ObjectID
		if st.Overlapping, err = overlapping(ctx, tx, t.SubjectID, t.Predicate, t.ValidFrom, t.ValidTo); err != nil {
			return fmt.Errorf("triples of %s %s: %w", t.SubjectID, t.Predicate, err)
		}
		if st.Functional, st.FunctionalSet, err = functional(ctx, tx); err != nil {
			return err
		}
		plan, err := decide(st)
		if err != nil {
			return err
		}
		for _, r := range plan.Reshape {
			if err := checkInterval(r.ValidFrom, r.ValidTo); err != nil {
				return fmt.Errorf("triple %s: %w", r.ID, err)
			}
			res, err := tx.ExecContext(ctx, `UPDATE triples SET valid_from = ?, valid_to = ? WHERE id = ?`,
				kgFormat(r.ValidFrom), kgFormat(r.ValidTo), r.ID)
			if err != nil {
				return fmt.Errorf("update triple %s: %w", r.ID, err)
			}
			if n, _ := res.RowsAffected(); n != 1 {
				return fmt.Errorf("update triple %s: %w", r.ID, ErrNotFound)
			}
		}
		for _, r := range plan.Reshape {
			rec.IDs = append(rec.IDs, r.ID)
		}
		if !plan.Insert {
			rec.Skip = len(plan.Reshape) == 0 // a restated fact changes nothing
			return nil
		}
		now := time.Now().UTC()
		for _, e := range [][2]string{{t.SubjectID, t.Subject}, {t.ObjectID, t.Object}} {
			// The first writing of a name is the one shown; later spellings
			// that normalise the same only match it.
			if _, err := tx.ExecContext(ctx, `INSERT INTO entities (id, name, created_at) VALUES (?, ?, ?)
				ON CONFLICT (id) DO NOTHING`, e[0], e[1], now.Format(kgCreatedLayout)); err != nil {
				return fmt.Errorf("insert entity %s: %w", e[0], err)
			}
		}
		id, err := newTripleID()
		if err != nil {
			return err
		}
		var src, wing any
		if t.SourceDrawer != "" {
			src = t.SourceDrawer
		}
		if t.Wing != "" {
			wing = t.Wing
		}
		prov, err := provenanceJSON(t.Provenance)
		if err != nil {
			return err
		}
		rec.IDs = append(rec.IDs, id)
		if _, err := tx.ExecContext(ctx, `INSERT INTO triples
			(id, subject, predicate, object, valid_from, valid_to, confidence, source_drawer, created_at, wing, provenance)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id, t.SubjectID, t.Predicate, t.ObjectID, kgFormat(t.ValidFrom), kgFormat(t.ValidTo),
			t.Confidence, src, now.Format(kgCreatedLayout), wing, prov); err != nil {
			return fmt.Errorf("insert triple %s %s %s: %w", t.SubjectID, t.Predicate, t.ObjectID, err)
		}
		rows, err := tx.QueryContext(ctx, tripleSelect+`WHERE t.id = ?`, id)
		if err != nil {
			return fmt.Errorf("read back triple %s: %w", id, err)
		}
		ts, err := scanTriples(rows)
		if err != nil {
			return fmt.Errorf("read back triple %s: %w", id, err)
		}
		if len(ts) != 1 {
			return fmt.Errorf("read back triple %s: %w", id, ErrNotFound)
		}
		added = ts[0]
		return nil
	})
	return added, err
}

func newTripleID() (string, error) {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("triple id: %w", err)
	}
	return "t_" + hex.EncodeToString(b[:]), nil
}

// KGInvalidate closes, at ended, every open triple (valid_to NULL) with this
// subject id, predicate and object id, and returns them as closed. If any of
// them starts at or after ended, nothing is written and the error wraps
// ErrInterval.
func (s *Store) KGInvalidate(ctx context.Context, subjectID, predicate, objectID string, ended time.Time) ([]Triple, error) {
	var closed []Triple
	err := s.audited(ctx, "kg.invalidate", func(tx *sql.Tx, rec *auditRec) error {
		var err error
		if subjectID, err = resolve(ctx, tx, subjectID); err != nil {
			return err
		}
		if objectID, err = resolve(ctx, tx, objectID); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, tripleSelect+`WHERE t.subject = ? AND t.predicate = ? AND t.object = ?
			AND t.valid_to IS NULL ORDER BY t.valid_from IS NOT NULL, t.valid_from, t.created_at, t.id`,
			subjectID, predicate, objectID)
		if err != nil {
			return fmt.Errorf("open triples %s %s %s: %w", subjectID, predicate, objectID, err)
		}
		open, err := scanTriples(rows)
		if err != nil {
			return fmt.Errorf("open triples %s %s %s: %w", subjectID, predicate, objectID, err)
		}
		end := ended.UTC().Truncate(time.Second)
		for i := range open {
			if err := checkInterval(open[i].ValidFrom, &end); err != nil {
				return fmt.Errorf("triple %s: %w", open[i].ID, err)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE triples SET valid_to = ? WHERE id = ?`, kgFormat(&end), open[i].ID); err != nil {
				return fmt.Errorf("close triple %s: %w", open[i].ID, err)
			}
			e := end
			open[i].ValidTo = &e
			rec.IDs = append(rec.IDs, open[i].ID)
		}
		rec.Skip = len(open) == 0
		closed = open
		return nil
	})
	if err != nil {
		return nil, err
	}
	return closed, nil
}

// KGEntity returns an entity by id or by one of its aliases, or an error
// wrapping ErrNotFound.
func (s *Store) KGEntity(ctx context.Context, id string) (Entity, error) {
	r, err := resolve(ctx, s.r, id)
	if err != nil {
		return Entity{}, err
	}
	return entityRow(ctx, s.r, r)
}

// Query directions for KGQuery.
const (
	DirOut  = "out"  // the entity is the subject
	DirIn   = "in"   // the entity is the object
	DirBoth = "both" // either
)

// KGQuery returns the triples touching entity id in direction dir, ordered by
// valid_from (NULL first) then creation. With asOf set, only triples valid at
// that instant: valid_from <= asOf < valid_to.
func (s *Store) KGQuery(ctx context.Context, id string, asOf *time.Time, dir string) ([]Triple, error) {
	var where string
	args := []any{}
	switch dir {
	case DirOut:
		where, args = `t.subject = ?`, append(args, id)
	case DirIn:
		where, args = `t.object = ?`, append(args, id)
	case DirBoth:
		where, args = `(t.subject = ? OR t.object = ?)`, append(args, id, id)
	default:
		return nil, fmt.Errorf("query %s: unknown direction %q", id, dir)
	}
	if asOf != nil {
		a := kgFormat(asOf)
		where += ` AND (t.valid_from IS NULL OR t.valid_from <= ?) AND (t.valid_to IS NULL OR t.valid_to > ?)`
		args = append(args, a, a)
	}
	rows, err := s.r.QueryContext(ctx, tripleSelect+`WHERE `+where+
		` ORDER BY t.valid_from IS NOT NULL, t.valid_from, t.created_at, t.id`, args...)
	if err != nil {
		return nil, fmt.Errorf("query %s: %w", id, err)
	}
	ts, err := scanTriples(rows)
	if err != nil {
		return nil, fmt.Errorf("query %s: %w", id, err)
	}
	return ts, nil
}

// KGTimeline returns up to limit triples touching entity id (every triple
// when id is ""), in chronological order of valid_from, facts true since
// always first, ties by creation.
func (s *Store) KGTimeline(ctx context.Context, id string, limit int) ([]Triple, error) {
	where, args := "", []any{}
	if id != "" {
		where, args = `WHERE t.subject = ? OR t.object = ? `, []any{id, id}
	}
	rows, err := s.r.QueryContext(ctx, tripleSelect+where+
		`ORDER BY t.valid_from IS NOT NULL, t.valid_from, t.created_at, t.id LIMIT ?`, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("timeline %s: %w", id, err)
	}
	ts, err := scanTriples(rows)
	if err != nil {
		return nil, fmt.Errorf("timeline %s: %w", id, err)
	}
	return ts, nil
}

// KGStats counts entities and triples, and per predicate, with "current"
// meaning valid at now.
func (s *Store) KGStats(ctx context.Context, now time.Time) (KGStats, error) {
	st := KGStats{Predicates: []PredicateCount{}}
	n := kgFormat(&now)
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM entities`).Scan(&st.Entities); err != nil {
		return st, fmt.Errorf("kg stats: %w", err)
	}
	err := s.r.QueryRowContext(ctx, `SELECT count(*),
		coalesce(sum(valid_to IS NOT NULL AND valid_to <= ?1), 0),
		coalesce(sum(valid_from IS NOT NULL AND valid_from > ?1), 0)
		FROM triples`, n).Scan(&st.Triples, &st.Expired, &st.Future)
	if err != nil {
		return st, fmt.Errorf("kg stats: %w", err)
	}
	st.Current = st.Triples - st.Expired - st.Future
	rows, err := s.r.QueryContext(ctx, `SELECT predicate, count(*),
		coalesce(sum((valid_from IS NULL OR valid_from <= ?1) AND (valid_to IS NULL OR valid_to > ?1)), 0),
		coalesce(sum(valid_to IS NOT NULL AND valid_to <= ?1), 0)
		FROM triples GROUP BY predicate ORDER BY count(*) DESC, predicate`, n)
	if err != nil {
		return st, fmt.Errorf("kg stats: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var pc PredicateCount
		if err := rows.Scan(&pc.Predicate, &pc.Triples, &pc.Current, &pc.Expired); err != nil {
			return st, fmt.Errorf("kg stats: %w", err)
		}
		st.Predicates = append(st.Predicates, pc)
	}
	if err := rows.Err(); err != nil {
		return st, fmt.Errorf("kg stats: %w", err)
	}
	return st, nil
}

// KGFunctional returns the stored functional-predicate list; set is false
// when none was ever stored.
func (s *Store) KGFunctional(ctx context.Context) (list []string, set bool, err error) {
	return functional(ctx, s.r)
}

// KGUpdateFunctional replaces the functional-predicate list with
// update(current) in one write transaction, current being defaults when no
// list was ever stored, and returns what it stored.
func (s *Store) KGUpdateFunctional(ctx context.Context, defaults []string, update func([]string) []string) ([]string, error) {
	var out []string
	err := s.audited(ctx, "kg.functional", func(tx *sql.Tx, rec *auditRec) error {
		cur, set, err := functional(ctx, tx)
		if err != nil {
			return err
		}
		if !set {
			cur = append([]string(nil), defaults...)
		}
		out = update(cur)
		if out == nil {
			out = []string{}
		}
		b, err := json.Marshal(out)
		if err != nil {
			return fmt.Errorf("store functional predicates: %w", err)
		}
		if err := putMeta(ctx, tx, kgFunctionalKey, string(b)); err != nil {
			return fmt.Errorf("store functional predicates: %w", err)
		}
		return nil
	})
	return out, err
}
