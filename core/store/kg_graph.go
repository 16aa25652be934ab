package store

// The typed graph's storage: entity types and aliases, one fact by id, its
// removal, and the counts behind the graph statistics. As in kg.go, the
// rules (which types exist, what implies one) are core/kg's.
//
// Representation:
//   - entities.type is the type set by hand; 'unknown' (the column's
//     default) means none was, and core/kg infers one from the facts.
//   - An entity's aliases are a JSON object in its properties under
//     "aliases", from the alias's normalised id to the alias as written:
//     {"aliases": {"kai_chen": "Kai Chen"}}. Properties travel in exports
//     with the entity, so the aliases do too. An alias is never also the id
//     of an entity with facts: a fact written under an alias is stored
//     under the entity it names (resolve).

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// UnknownType is entities.type when no type was set by hand.
const UnknownType = "unknown"

// aliasesKey is the properties key holding an entity's aliases.
const aliasesKey = "aliases"

// ErrAlias is wrapped by an *AliasError.
var ErrAlias = errors.New("alias refused")

// AliasError says why an alias cannot be given to an entity; nothing was
// written.
type AliasError struct {
	Alias string // the alias's id
	// Owner is the name of the entity the alias already belongs to, or of
	// the entity it already is (OwnEntity); "" when the alias is the
	// entity's own name.
	Owner     string
	OwnEntity bool
	// Removing is set when the alias to remove is not one of the entity's.
	Removing bool
}

func (e *AliasError) Error() string {
	switch {
	case e.Removing:
		return fmt.Sprintf("%s is not an alias of this entity", e.Alias)
	case e.Owner == "":
		return fmt.Sprintf("%s is the entity's own name", e.Alias)
	case e.OwnEntity:
		return fmt.Sprintf("%s is an entity of its own", e.Owner)
	}
	return fmt.Sprintf("%s is already an alias of %s", e.Alias, e.Owner)
}

// Unwrap makes errors.Is(err, ErrAlias) true.
func (e *AliasError) Unwrap() error { return ErrAlias }

// Alias is another name of an entity.
type Alias struct {
	ID   string `json:"id"`   // normalised
	Name string `json:"name"` // as written
}

// EntityChange is what KGSetEntity changes: the type set by hand (nil
// leaves it; UnknownType clears it) and aliases to add and remove.
type EntityChange struct {
	ID     string // the entity's (or one of its aliases') normalised name
	Name   string // the name as written, kept when the entity is new
	Type   *string
	Add    []Alias
	Remove []string // alias ids
}

// EntityFacts counts the facts an entity is in.
type EntityFacts struct {
	Out     int `json:"out"`     // as the subject
	In      int `json:"in"`      // as the object
	Current int `json:"current"` // of those, true now
}

// EntityCount is an entity with the number of facts it is in.
type EntityCount struct {
	Entity
	Facts int `json:"facts"`
}

// aliasOwner is the SQL for the entity whose aliases include ?1.
const aliasOwner = `SELECT e.id FROM entities e,
	json_each(CASE WHEN json_valid(e.properties) THEN e.properties ELSE '{}' END, '$.` + aliasesKey + `') j
	WHERE e.properties <> '{}' AND j.key = ?1`

// resolve returns the id of the entity id names: id itself when it is an
// entity, else the entity it is an alias of, else id unchanged (a new
// name).
func resolve(ctx context.Context, q querier, id string) (string, error) {
	for _, query := range []string{`SELECT id FROM entities WHERE id = ?1`, aliasOwner + ` LIMIT 1`} {
		var got string
		err := q.QueryRowContext(ctx, query, id).Scan(&got)
		if err == nil {
			return got, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return "", fmt.Errorf("resolve entity %s: %w", id, err)
		}
	}
	return id, nil
}

// KGResolve returns the id of the entity id names, through its aliases; an
// unknown id is returned as it is.
func (s *Store) KGResolve(ctx context.Context, id string) (string, error) {
	return resolve(ctx, s.r, id)
}

// properties reads an entity's properties, keeping keys this file does
// not own.
func properties(ctx context.Context, q querier, id string) (map[string]json.RawMessage, map[string]string, error) {
	var raw string
	if err := q.QueryRowContext(ctx, `SELECT properties FROM entities WHERE id = ?`, id).Scan(&raw); err != nil {
		return nil, nil, fmt.Errorf("entity %s properties: %w", id, err)
	}
	props := map[string]json.RawMessage{}
	if err := json.Unmarshal([]byte(raw), &props); err != nil || props == nil {
		return nil, nil, fmt.Errorf("entity %s properties %q: not a JSON object", id, raw)
	}
	aliases := map[string]string{}
	if a, ok := props[aliasesKey]; ok {
		if err := json.Unmarshal(a, &aliases); err != nil || aliases == nil {
			return nil, nil, fmt.Errorf("entity %s aliases %s: not a JSON object of names", id, a)
		}
	}
	return props, aliases, nil
}

// KGAliases returns an entity's aliases, sorted by id.
func (s *Store) KGAliases(ctx context.Context, id string) ([]Alias, error) {
	_, aliases, err := properties(ctx, s.r, id)
	if err != nil {
		return nil, err
	}
	return sortedAliases(aliases), nil
}

func sortedAliases(m map[string]string) []Alias {
	out := []Alias{}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		out = append(out, Alias{ID: k, Name: m[k]})
	}
	return out
}

// factCount is how many facts mention entity id.
func factCount(ctx context.Context, q querier, id string) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM triples WHERE subject = ?1 OR object = ?1`, id).Scan(&n)
	return n, err
}

// KGSetEntity applies c in one write transaction and returns the entity as
// it is afterwards. An entity no fact mentions yet is created. An alias is
// refused (an *AliasError, nothing written) when it is the entity's own
// name, another entity's alias, or an entity with facts or aliases or a
// type of its own; an entity that is none of these (a name left by removed
// facts) is dropped and becomes the alias.
func (s *Store) KGSetEntity(ctx context.Context, c EntityChange) (Entity, error) {
	var out Entity
	err := s.audited(ctx, "kg.entity", func(tx *sql.Tx, rec *auditRec) error {
		id, err := resolve(ctx, tx, c.ID)
		if err != nil {
			return err
		}
		rec.IDs = append(rec.IDs, id)
		// changed counts the rows written; none leaves the audit log alone.
		var changed int64
		exec := func(what, query string, args ...any) error {
			res, err := tx.ExecContext(ctx, query, args...)
			if err != nil {
				return fmt.Errorf("%s %s: %w", what, id, err)
			}
			n, _ := res.RowsAffected()
			changed += n
			return nil
		}
		if err := exec("insert entity", `INSERT INTO entities (id, name, created_at) VALUES (?, ?, ?)
			ON CONFLICT (id) DO NOTHING`, id, c.Name, time.Now().UTC().Format(kgCreatedLayout)); err != nil {
			return err
		}
		if c.Type != nil {
			if err := exec("set the type of", `UPDATE entities SET type = ?1 WHERE id = ?2 AND type <> ?1`, *c.Type, id); err != nil {
				return err
			}
		}
		props, current, err := properties(ctx, tx, id)
		if err != nil {
			return err
		}
		before := maps.Clone(current)
		for _, r := range c.Remove {
			if _, ok := current[r]; !ok {
				return &AliasError{Alias: r, Removing: true}
			}
			delete(current, r)
		}
		for _, a := range c.Add {
			if err := claimAlias(ctx, tx, id, a.ID); err != nil {
				return err
			}
			if _, ok := current[a.ID]; !ok {
				current[a.ID] = a.Name
			}
		}
		if maps.Equal(before, current) {
			rec.Skip = changed == 0
			out, err = entityRow(ctx, tx, id)
			return err
		}
		if len(current) == 0 {
			delete(props, aliasesKey)
		} else if props[aliasesKey], err = json.Marshal(current); err != nil {
			return fmt.Errorf("entity %s aliases: %w", id, err)
		}
		b, err := json.Marshal(props)
		if err != nil {
			return fmt.Errorf("entity %s properties: %w", id, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE entities SET properties = ? WHERE id = ?`, string(b), id); err != nil {
			return fmt.Errorf("entity %s properties: %w", id, err)
		}
		out, err = entityRow(ctx, tx, id)
		return err
	})
	return out, err
}

// claimAlias checks that alias may name entity id, dropping a bare entity
// row of that name (one without facts, type or aliases).
func claimAlias(ctx context.Context, tx *sql.Tx, id, alias string) error {
	if alias == id {
		return &AliasError{Alias: alias}
	}
	var ownerID, owner string
	err := tx.QueryRowContext(ctx, `SELECT id, name FROM entities WHERE id = (`+aliasOwner+`)`, alias).Scan(&ownerID, &owner)
	if err == nil {
		if ownerID == id {
			return nil // already this entity's alias
		}
		return &AliasError{Alias: alias, Owner: owner}
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("alias %s: %w", alias, err)
	}
	other, err := entityRow(ctx, tx, alias)
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	n, err := factCount(ctx, tx, alias)
	if err != nil {
		return fmt.Errorf("alias %s: %w", alias, err)
	}
	_, itsAliases, err := properties(ctx, tx, alias)
	if err != nil {
		return err
	}
	if n > 0 || len(itsAliases) > 0 || other.Type != UnknownType {
		return &AliasError{Alias: alias, Owner: other.Name, OwnEntity: true}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM entities WHERE id = ?`, alias); err != nil {
		return fmt.Errorf("drop entity %s for the alias: %w", alias, err)
	}
	return nil
}

func entityRow(ctx context.Context, q querier, id string) (Entity, error) {
	var e Entity
	var created string
	err := q.QueryRowContext(ctx, `SELECT id, name, type, created_at FROM entities WHERE id = ?`, id).
		Scan(&e.ID, &e.Name, &e.Type, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return e, fmt.Errorf("entity %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return e, fmt.Errorf("entity %s: %w", id, err)
	}
	e.CreatedAt, _ = time.Parse(time.RFC3339Nano, created)
	return e, nil
}

// KGEntityFacts counts the facts entity id is in, current meaning true at
// now.
func (s *Store) KGEntityFacts(ctx context.Context, id string, now time.Time) (EntityFacts, error) {
	var f EntityFacts
	n := kgFormat(&now)
	err := s.r.QueryRowContext(ctx, `SELECT coalesce(sum(subject = ?1), 0), coalesce(sum(object = ?1 AND subject <> ?1), 0),
		coalesce(sum((valid_from IS NULL OR valid_from <= ?2) AND (valid_to IS NULL OR valid_to > ?2)), 0)
		FROM triples WHERE subject = ?1 OR object = ?1`, id, n).Scan(&f.Out, &f.In, &f.Current)
	if err != nil {
		return f, fmt.Errorf("facts of %s: %w", id, err)
	}
	return f, nil
}

// KGTriple returns one fact by id, or an error wrapping ErrNotFound.
func (s *Store) KGTriple(ctx context.Context, id string) (Triple, error) { return triple(ctx, s.r, id) }

func triple(ctx context.Context, q querier, id string) (Triple, error) {
	rows, err := q.QueryContext(ctx, tripleSelect+`WHERE t.id = ?`, id)
	if err != nil {
		return Triple{}, fmt.Errorf("fact %s: %w", id, err)
	}
	ts, err := scanTriples(rows)
	if err != nil {
		return Triple{}, fmt.Errorf("fact %s: %w", id, err)
	}
	if len(ts) == 0 {
		return Triple{}, fmt.Errorf("fact %s: %w", id, ErrNotFound)
	}
	return ts[0], nil
}

// KGRemove deletes the fact id, for a fact that was wrong (an invalidated
// fact was true once and stays). Its entities that are left with no fact,
// no type and no alias are dropped too, so a misspelt name leaves nothing
// behind; their ids are returned. An unknown id wraps ErrNotFound.
func (s *Store) KGRemove(ctx context.Context, id string) (Triple, []string, error) {
	var (
		removed Triple
		dropped = []string{}
	)
	err := s.audited(ctx, "kg.rm", func(tx *sql.Tx, rec *auditRec) error {
		var err error
		if removed, err = triple(ctx, tx, id); err != nil {
			rec.Skip = true
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM triples WHERE id = ?`, id); err != nil {
			return fmt.Errorf("remove fact %s: %w", id, err)
		}
		rec.IDs = append(rec.IDs, id)
		for _, e := range slices.Compact([]string{removed.SubjectID, removed.ObjectID}) {
			res, err := tx.ExecContext(ctx, `DELETE FROM entities WHERE id = ?1 AND type = ?2 AND properties = '{}'
				AND NOT EXISTS (SELECT 1 FROM triples WHERE subject = ?1 OR object = ?1)`, e, UnknownType)
			if err != nil {
				return fmt.Errorf("drop entity %s: %w", e, err)
			}
			if n, _ := res.RowsAffected(); n > 0 {
				dropped = append(dropped, e)
			}
		}
		return nil
	})
	return removed, dropped, err
}

// KGTypeFacts returns the facts with one of predicates, every one or
// (id not "") those entity id is in, oldest first: the evidence core/kg
// infers types from.
func (s *Store) KGTypeFacts(ctx context.Context, predicates []string, id string) ([]Triple, error) {
	if len(predicates) == 0 {
		return []Triple{}, nil
	}
	args := make([]any, 0, len(predicates)+1)
	for _, p := range predicates {
		args = append(args, p)
	}
	where := `t.predicate IN (` + strings.TrimSuffix(strings.Repeat("?, ", len(predicates)), ", ") + `)`
	if id != "" {
		where += ` AND (t.subject = ? OR t.object = ?)`
		args = append(args, id, id)
	}
	rows, err := s.r.QueryContext(ctx, tripleSelect+`WHERE `+where+
		` ORDER BY t.valid_from IS NOT NULL, t.valid_from, t.created_at, t.id`, args...)
	if err != nil {
		return nil, fmt.Errorf("type facts: %w", err)
	}
	ts, err := scanTriples(rows)
	if err != nil {
		return nil, fmt.Errorf("type facts: %w", err)
	}
	return ts, nil
}

// KGSetTypes returns the types set by hand, by entity id.
func (s *Store) KGSetTypes(ctx context.Context) (map[string]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, type FROM entities WHERE type <> ?`, UnknownType)
	if err != nil {
		return nil, fmt.Errorf("entity types: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, typ string
		if err := rows.Scan(&id, &typ); err != nil {
			return nil, fmt.Errorf("entity types: %w", err)
		}
		out[id] = typ
	}
	return out, rows.Err()
}

// KGMostConnected returns the n entities in the most facts, most first,
// ties by id.
func (s *Store) KGMostConnected(ctx context.Context, n int) ([]EntityCount, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT e.id, e.name, e.type, e.created_at, c.n FROM
		(SELECT x, count(DISTINCT id) n FROM (SELECT subject x, id FROM triples UNION ALL SELECT object x, id FROM triples)
		 GROUP BY x) c JOIN entities e ON e.id = c.x ORDER BY c.n DESC, e.id LIMIT ?`, n)
	if err != nil {
		return nil, fmt.Errorf("most connected entities: %w", err)
	}
	defer rows.Close()
	out := []EntityCount{}
	for rows.Next() {
		var ec EntityCount
		var created string
		if err := rows.Scan(&ec.ID, &ec.Name, &ec.Type, &created, &ec.Facts); err != nil {
			return nil, fmt.Errorf("most connected entities: %w", err)
		}
		ec.CreatedAt, _ = time.Parse(time.RFC3339Nano, created)
		out = append(out, ec)
	}
	return out, rows.Err()
}
