package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	sqlitevec "github.com/asg017/sqlite-vec-go-bindings/cgo"
)

// vecOnce registers sqlite-vec with every SQLite connection the process
// opens. SQLite's auto-extension list is process-wide by nature, so this is
// the one piece of package state: registering twice would be harmless but
// pointless.
var vecOnce sync.Once

func registerVec() { vecOnce.Do(sqlitevec.Auto) }

// Meta keys describing the vector index.
const (
	metaVecModel = "vec.model"
	metaVecDim   = "vec.dim"
)

// VecInfo describes the palace's vector index.
type VecInfo struct {
	Model   string `json:"model,omitempty"` // "" when there is no index
	Dim     int    `json:"dim,omitempty"`
	Vectors int    `json:"vectors"`
	Pending int    `json:"pending"` // live drawers without a vector of Model
}

// VecReady reports the model the vector index was made with ("" when there
// is none) and whether a live drawer has a vector of it. Unlike VecInfo it
// counts nothing, so a search or a remember can ask on every call: the
// counts scan every drawer, which made each call slower as the palace grew.
func (s *Store) VecReady(ctx context.Context) (model string, any bool, err error) {
	model, ok, err := s.Meta(ctx, metaVecModel)
	if err != nil || !ok {
		return "", false, err
	}
	if err := s.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM drawers WHERE vec_model = ? AND deleted_at IS NULL)`, model).Scan(&any); err != nil {
		return "", false, fmt.Errorf("vector index: %w", err)
	}
	return model, any, nil
}

// VecInfo reports the vector index and how many drawers wait for vectors.
func (s *Store) VecInfo(ctx context.Context) (VecInfo, error) {
	var vi VecInfo
	model, ok, err := s.Meta(ctx, metaVecModel)
	if err != nil {
		return vi, err
	}
	if ok {
		vi.Model = model
		d, _, err := s.Meta(ctx, metaVecDim)
		if err != nil {
			return vi, err
		}
		vi.Dim, _ = strconv.Atoi(d)
		if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM drawers WHERE deleted_at IS NULL AND vec_model = ?`, model).Scan(&vi.Vectors); err != nil {
			return vi, fmt.Errorf("count vectors: %w", err)
		}
	}
	// Pending is every live drawer without a vector of the model: both
	// counts read only the drawers_live_vec index.
	var live int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM drawers INDEXED BY drawers_live_vec WHERE deleted_at IS NULL`).Scan(&live); err != nil {
		return vi, fmt.Errorf("count pending vectors: %w", err)
	}
	vi.Pending = live - vi.Vectors
	return vi, nil
}

// dropVecIndex removes the vector index and every drawer's mark, so all
// drawers are pending for whichever model fills the index next.
var dropVecIndex = []string{
	`DROP TRIGGER IF EXISTS drawers_vec_ad`,
	`DROP TABLE IF EXISTS vec_drawers`,
	`UPDATE drawers SET vec_model = NULL WHERE vec_model IS NOT NULL`,
}

// vecDeleteTrigger drops a drawer's vector with the drawer.
const vecDeleteTrigger = `CREATE TRIGGER drawers_vec_ad AFTER DELETE ON drawers BEGIN
	DELETE FROM vec_drawers WHERE drawer_seq = old.seq;
END`

// EnsureVectors makes the vector index fit model (an id) and dim. An index
// built with another model is dropped and every drawer becomes pending:
// vectors of two models must never be compared. It reports whether the
// index was (re)created.
func (s *Store) EnsureVectors(ctx context.Context, model string, dim int) (bool, error) {
	if dim <= 0 || model == "" {
		return false, fmt.Errorf("vector index: bad model %q or dimension %d", model, dim)
	}
	created := false
	err := s.write(ctx, func(tx *sql.Tx) error {
		var cur, curDim string
		err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, metaVecModel).Scan(&cur)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, metaVecDim).Scan(&curDim)
		if cur == model && curDim == strconv.Itoa(dim) {
			return nil
		}
		created = true
		for _, q := range slices.Concat(dropVecIndex, []string{
			// L2 on normalised vectors orders like cosine and is faster; the
			// wing is a partition key, so a search inside one wing scans
			// only its vectors.
			fmt.Sprintf(`CREATE VIRTUAL TABLE vec_drawers USING vec0(
				drawer_seq INTEGER PRIMARY KEY,
				embedding float[%d],
				wing TEXT PARTITION KEY,
				room TEXT,
				kind TEXT)`, dim),
			vecDeleteTrigger,
		}) {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("create vector index: %w", err)
			}
		}
		for k, v := range map[string]string{metaVecModel: model, metaVecDim: strconv.Itoa(dim)} {
			if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)
				ON CONFLICT (key) DO UPDATE SET value = excluded.value`, k, v); err != nil {
				return fmt.Errorf("create vector index: %w", err)
			}
		}
		return nil
	})
	return created, err
}

// PendingVector is a drawer that needs a vector.
type PendingVector struct {
	Seq  int64
	ID   string
	Wing string
	Room string
	Kind string
	Text string // what to embed: the index text when it differs, else the content
}

// PendingVectors returns up to limit live drawers without a vector of
// model, oldest first, skipping seqs at or below after (for paging).
func (s *Store) PendingVectors(ctx context.Context, model string, after int64, limit int) ([]PendingVector, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT seq, id, wing, room, kind, coalesce(index_text, content) FROM drawers
		WHERE deleted_at IS NULL AND (vec_model IS NULL OR vec_model != ?) AND seq > ?
		ORDER BY seq LIMIT ?`, model, after, limit)
	if err != nil {
		return nil, fmt.Errorf("pending vectors: %w", err)
	}
	defer rows.Close()
	var out []PendingVector
	for rows.Next() {
		var p PendingVector
		if err := rows.Scan(&p.Seq, &p.ID, &p.Wing, &p.Room, &p.Kind, &p.Text); err != nil {
			return nil, fmt.Errorf("pending vectors: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// PutVectors stores vectors for drawers, in one transaction, and marks
// them done for model. A drawer deleted or changed meanwhile is skipped.
func (s *Store) PutVectors(ctx context.Context, model string, ps []PendingVector, vecs [][]float32) (int, error) {
	if len(ps) != len(vecs) {
		return 0, fmt.Errorf("put vectors: %d drawers, %d vectors", len(ps), len(vecs))
	}
	n := 0
	err := s.write(ctx, func(tx *sql.Tx) error {
		n = 0
		var cur string
		if err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, metaVecModel).Scan(&cur); err != nil || cur != model {
			return fmt.Errorf("put vectors: the vector index is not for model %s (%q)", model, cur)
		}
		for i, p := range ps {
			var live int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM drawers WHERE seq = ? AND id = ? AND deleted_at IS NULL`, p.Seq, p.ID).Scan(&live); err != nil {
				return fmt.Errorf("put vectors: %w", err)
			}
			if live == 0 {
				continue
			}
			blob, err := sqlitevec.SerializeFloat32(vecs[i])
			if err != nil {
				return fmt.Errorf("put vectors: %w", err)
			}
			// vec0 cannot update a partition key, so replace the row.
			if _, err := tx.ExecContext(ctx, `DELETE FROM vec_drawers WHERE drawer_seq = ?`, p.Seq); err != nil {
				return fmt.Errorf("put vectors: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO vec_drawers (drawer_seq, embedding, wing, room, kind) VALUES (?, ?, ?, ?, ?)`,
				p.Seq, blob, p.Wing, p.Room, p.Kind); err != nil {
				return fmt.Errorf("put vectors: %w", err)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE drawers SET vec_model = ? WHERE seq = ?`, model, p.Seq); err != nil {
				return fmt.Errorf("put vectors: %w", err)
			}
			n++
		}
		return nil
	})
	return n, err
}

// SearchVector returns the drawers nearest to vec (L2 on normalised
// vectors), best first, honouring f. Wing and room filter inside the KNN
// scan; the other filters apply to an over-fetched candidate list.
func (s *Store) SearchVector(ctx context.Context, vec []float32, f Filter, limit int) ([]Hit, error) {
	blob, err := sqlitevec.SerializeFloat32(vec)
	if err != nil {
		return nil, fmt.Errorf("vector search: %w", err)
	}
	k := limit
	if f.Kind != "" || f.SourcePrefix != "" || !f.Since.IsZero() || !f.Until.IsZero() {
		k = limit * 8
	}
	knn := []string{"embedding MATCH ?", "k = ?"}
	args := []any{blob, k}
	if f.Wing != "" {
		knn = append(knn, "wing = ?")
		args = append(args, f.Wing)
	}
	if f.Room != "" {
		knn = append(knn, "room = ?")
		args = append(args, f.Room)
	}
	where, fargs := filterSQL(f)
	q := `WITH knn AS (SELECT drawer_seq, distance FROM vec_drawers WHERE ` + strings.Join(knn, " AND ") + `)
		SELECT ` + drawerColumns("d.") + `, knn.distance FROM knn JOIN drawers d ON d.seq = knn.drawer_seq
		WHERE ` + strings.Join(where, " AND ") + ` ORDER BY knn.distance LIMIT ?`
	args = append(append(args, fargs...), limit)
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("vector search: %w", err)
	}
	defer rows.Close()
	var hits []Hit
	for rows.Next() {
		var dist float64
		d, err := scanDrawer(scanFunc(func(dest ...any) error { return rows.Scan(append(dest, &dist)...) }))
		if err != nil {
			return nil, fmt.Errorf("vector search: %w", err)
		}
		// For unit vectors, cosine similarity = 1 - L2²/2.
		hits = append(hits, Hit{Drawer: d, Score: 1 - dist*dist/2})
	}
	return hits, rows.Err()
}
