package store

// Health: what `palace doctor` checks and `palace repair` mends. Everything
// here is derived from the drawers (SQL indexes, the FTS index, the vector
// index) or records writes to them (the audit log); the drawers themselves
// are never changed, so a repair cannot lose memory.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/audit"
)

// Names of the checks, in the order Check runs them.
const (
	CheckIntegrity = "integrity"
	CheckFTS       = "fts"
	CheckMetadata  = "metadata"
	CheckVectors   = "vectors"
	CheckAudit     = "audit"
)

// HealthCheck is the outcome of one named check.
type HealthCheck struct {
	Name   string `json:"name"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
}

// Healthy reports whether every check passed.
func Healthy(cs []HealthCheck) bool {
	for _, c := range cs {
		if !c.OK {
			return false
		}
	}
	return true
}

// FailedChecks names the checks that did not pass.
func FailedChecks(cs []HealthCheck) []string {
	var out []string
	for _, c := range cs {
		if !c.OK {
			out = append(out, c.Name)
		}
	}
	return out
}

// Check runs the integrity, fts, metadata, vectors, audit and kg checks. A
// check that cannot run (the database is too damaged to answer) fails with
// the reason as its detail instead of hiding the others; only a cancelled
// ctx is an error.
func (s *Store) Check(ctx context.Context) ([]HealthCheck, error) {
	steps := []struct {
		name string
		run  func(context.Context) (bool, string, error)
	}{
		{CheckIntegrity, s.checkIntegrity},
		{CheckFTS, s.checkFTS},
		{CheckMetadata, s.checkMetadata},
		{CheckVectors, s.checkVectors},
		{CheckAudit, s.checkAudit},
		{CheckKG, s.checkKG},
	}
	out := make([]HealthCheck, 0, len(steps))
	for _, st := range steps {
		ok, detail, err := st.run(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return out, fmt.Errorf("check %s: %w", st.name, ctx.Err())
			}
			ok, detail = false, "could not check: "+err.Error()
		}
		out = append(out, HealthCheck{Name: st.name, OK: ok, Detail: detail})
	}
	return out, nil
}

// integrityRows bounds what PRAGMA integrity_check lists: enough to say
// what is wrong, short enough for one line.
const integrityRows = 10

// IntegrityCheck returns nil when Check's integrity and fts checks pass,
// else an error naming what failed. Tests of other packages use it to
// vouch for the palace their code wrote.
func (s *Store) IntegrityCheck(ctx context.Context) error {
	cs, err := s.Check(ctx)
	if err != nil {
		return err
	}
	var bad []string
	for _, c := range cs {
		if !c.OK && (c.Name == CheckIntegrity || c.Name == CheckFTS) {
			bad = append(bad, c.Name+": "+c.Detail)
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("integrity check: %s", strings.Join(bad, "; "))
	}
	return nil
}

// checkIntegrity runs PRAGMA integrity_check in a read transaction, so no
// writer waits for it, on a connection of its own: the check includes
// FTS5's, and SQLite (3.54) runs that against the index structure a
// connection cached when it last read the index, so on a pooled connection
// it reports corruption after another connection has rebuilt the index.
// The connection is opened like the read pool (immutable too on a
// read-only palace opened so), so it works wherever reads do.
func (s *Store) checkIntegrity(ctx context.Context) (bool, string, error) {
	db, err := sql.Open("sqlite3", readOnlyDSN(s.path, s.immutable))
	if err != nil {
		return false, "", fmt.Errorf("integrity check: %w", err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, fmt.Sprintf(`PRAGMA integrity_check(%d)`, integrityRows))
	if err != nil {
		return false, "", fmt.Errorf("integrity check: %w", err)
	}
	defer rows.Close()
	var msgs []string
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			return false, "", fmt.Errorf("integrity check: %w", err)
		}
		// SQLite may put several findings in one row, a line each;
		// the detail is one line.
		for _, line := range strings.Split(m, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				msgs = append(msgs, line)
			}
		}
	}
	if err := rows.Err(); err != nil {
		return false, "", fmt.Errorf("integrity check: %w", err)
	}
	if len(msgs) == 1 && msgs[0] == "ok" {
		return true, "PRAGMA integrity_check: ok", nil
	}
	return false, "PRAGMA integrity_check: " + strings.Join(msgs, "; "), nil
}

// ftsAgreement compares the live drawers with the rowids the FTS index
// holds. The index is read through its scope column: every indexed drawer
// has exactly one scope token, 'w' || hex(wing) || 'k' || kind (migration
// v4), so "scope : w*" lists what the index holds, from the index itself,
// even for a drawer whose text has no word in it; the external content
// table is not consulted for a rowid-only query.
func ftsAgreement(ctx context.Context, q querier) (live, indexed, missing, stray int, err error) {
	err = q.QueryRowContext(ctx, `WITH idx AS MATERIALIZED (
			SELECT rowid AS seq FROM drawers_fts WHERE drawers_fts MATCH 'scope : w*')
		SELECT (SELECT count(*) FROM drawers WHERE deleted_at IS NULL),
			(SELECT count(*) FROM idx),
			(SELECT count(*) FROM drawers WHERE deleted_at IS NULL AND seq NOT IN (SELECT seq FROM idx)),
			(SELECT count(*) FROM idx WHERE seq NOT IN (SELECT seq FROM drawers WHERE deleted_at IS NULL))`).
		Scan(&live, &indexed, &missing, &stray)
	if err != nil {
		return 0, 0, 0, 0, fmt.Errorf("fts agreement: %w", err)
	}
	return live, indexed, missing, stray, nil
}

// badMetadataShown bounds the drawer ids the metadata check names.
const badMetadataShown = 5

// checkMetadata finds drawers whose metadata is not a JSON object, which
// only an import from before imports were checked can have written.
// Outputs leave such metadata out; repair does not touch drawers, so the
// detail names the drawers to forget or purge.
func (s *Store) checkMetadata(ctx context.Context) (bool, string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id FROM drawers
		WHERE CASE WHEN json_valid(metadata) THEN json_type(metadata) <> 'object' ELSE 1 END ORDER BY seq`)
	if err != nil {
		return false, "", fmt.Errorf("metadata check: %w", err)
	}
	defer rows.Close()
	var ids []string
	n := 0
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return false, "", fmt.Errorf("metadata check: %w", err)
		}
		if n++; n <= badMetadataShown {
			ids = append(ids, id)
		}
	}
	if err := rows.Err(); err != nil {
		return false, "", fmt.Errorf("metadata check: %w", err)
	}
	if n == 0 {
		return true, "every drawer's metadata is a JSON object", nil
	}
	more := ""
	if n > len(ids) {
		more = ", ..."
	}
	return false, fmt.Sprintf("%d drawers have metadata that is not a JSON object (%s%s): outputs leave it out; "+
		"repair cannot mend a drawer, forget or purge it and import or mine it again", n, strings.Join(ids, ", "), more), nil
}

// skippedReadOnly is the detail of a check, or the part of one, that needs
// the write lock, which a user who may not write the palace cannot take.
const skippedReadOnly = "skipped: read-only palace"

// checkFTS compares rows (every live drawer indexed, nothing else) and runs
// FTS5's own integrity-check with rank 1, which also compares the index
// with its content (the drawers_search view) term by term, so a drawer
// indexed twice or with other text fails it too. The integrity-check is an
// INSERT, so it is a write like any other (writer turns, the write lock,
// for as long as it reads the palace), and a read-only palace skips it.
func (s *Store) checkFTS(ctx context.Context) (bool, string, error) {
	live, indexed, missing, stray, err := ftsAgreement(ctx, s.r)
	if err != nil {
		return false, "", err
	}
	var problems []string
	if missing > 0 {
		problems = append(problems, fmt.Sprintf("%d live drawers missing from the index", missing))
	}
	if stray > 0 {
		problems = append(problems, fmt.Sprintf("%d index rows for drawers that are deleted or gone", stray))
	}
	ftsCheck := "FTS5 integrity-check: ok"
	if s.readOnly {
		ftsCheck = "FTS5 integrity-check " + skippedReadOnly
	} else {
		// What the INSERT answers is the check's outcome; only an error
		// of the write itself (turns, lock, commit) means it could not run.
		var found error
		err := s.write(ctx, func(tx *sql.Tx) error {
			_, found = tx.ExecContext(ctx, `INSERT INTO drawers_fts (drawers_fts, rank) VALUES ('integrity-check', 1)`)
			return nil
		})
		if err != nil {
			return false, "", fmt.Errorf("FTS5 integrity-check: %w", err)
		}
		if found != nil {
			if ctx.Err() != nil {
				return false, "", fmt.Errorf("FTS5 integrity-check: %w", found)
			}
			problems = append(problems, "FTS5 integrity-check: "+found.Error())
		}
	}
	counts := fmt.Sprintf("%d live drawers, %d indexed", live, indexed)
	if len(problems) > 0 {
		return false, counts + "; " + strings.Join(problems, "; "), nil
	}
	return true, counts + "; " + ftsCheck, nil
}

// vecState is the vector index as one read transaction sees it.
type vecState struct {
	model    string // meta vec.model; "" when no model ever filled the index
	dim      int    // meta vec.dim
	table    bool   // vec_drawers exists
	trigger  bool   // drawers_vec_ad exists (hard deletes drop vectors)
	tableDim int    // the dimension vec_drawers was declared with
	rowDim   int    // the dimension of a stored vector; 0 when there is none
	rows     int    // vector rows
	pending  int    // live drawers not marked as embedded with model
	// What is wrong:
	orphans  int // rows whose drawer does not exist
	stray    int // rows of live drawers not marked as embedded with model
	unbacked int // live drawers marked as embedded with model that have no row
	// What is only stale: DeleteDrawer soft-deletes and keeps the row, and
	// SearchVector filters deleted drawers out, so such rows are normal.
	ofDeleted int
}

var vecDimRe = regexp.MustCompile(`float\[(\d+)\]`)

func (v vecState) dimOK() bool {
	return v.table && v.tableDim == v.dim && (v.rowDim == 0 || v.rowDim == v.dim)
}

func readVecState(ctx context.Context, q querier) (vecState, error) {
	var v vecState
	var dim string
	for key, dst := range map[string]*string{metaVecModel: &v.model, metaVecDim: &dim} {
		if err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(dst); err != nil && !errors.Is(err, sql.ErrNoRows) {
			return v, fmt.Errorf("vector index: read %s: %w", key, err)
		}
	}
	v.dim, _ = strconv.Atoi(dim)
	var tableSQL string
	err := q.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'vec_drawers'`).Scan(&tableSQL)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return v, fmt.Errorf("vector index: %w", err)
	default:
		v.table = true
		if m := vecDimRe.FindStringSubmatch(tableSQL); m != nil {
			v.tableDim, _ = strconv.Atoi(m[1])
		}
	}
	var triggers int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'drawers_vec_ad'`).Scan(&triggers); err != nil {
		return v, fmt.Errorf("vector index: %w", err)
	}
	v.trigger = triggers == 1
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM drawers WHERE deleted_at IS NULL AND (vec_model IS NULL OR vec_model != ?)`,
		v.model).Scan(&v.pending); err != nil {
		return v, fmt.Errorf("vector index: count pending: %w", err)
	}
	if v.model == "" || !v.table {
		return v, nil
	}
	err = q.QueryRowContext(ctx, `SELECT vec_length(embedding) FROM vec_drawers LIMIT 1`).Scan(&v.rowDim)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return v, fmt.Errorf("vector index: read a vector: %w", err)
	}
	err = q.QueryRowContext(ctx, `WITH v AS MATERIALIZED (SELECT drawer_seq AS seq FROM vec_drawers)
		SELECT (SELECT count(*) FROM v),
			(SELECT count(*) FROM v WHERE seq NOT IN (SELECT seq FROM drawers)),
			(SELECT count(*) FROM v JOIN drawers d ON d.seq = v.seq WHERE d.deleted_at IS NOT NULL),
			(SELECT count(*) FROM v JOIN drawers d ON d.seq = v.seq
				WHERE d.deleted_at IS NULL AND (d.vec_model IS NULL OR d.vec_model != ?1)),
			(SELECT count(*) FROM drawers WHERE deleted_at IS NULL AND vec_model = ?1 AND seq NOT IN (SELECT seq FROM v))`,
		v.model).Scan(&v.rows, &v.orphans, &v.ofDeleted, &v.stray, &v.unbacked)
	if err != nil {
		return v, fmt.Errorf("vector index: compare with drawers: %w", err)
	}
	return v, nil
}

// checkVectors compares the vector index with the drawers, in one read
// transaction so a concurrent fill is seen either before or after a batch.
//
// Pending versus missing: mining commits drawers first and embeds them in a
// later phase, and PutVectors stores a vector and marks its drawer
// (drawers.vec_model) in the same transaction. So a live drawer that is not
// marked is pending, whatever stopped the fill (a crash included), and the
// next mine, reindex or repair embeds it; that is not a failure. A drawer
// that is marked but has no vector can only come from damage, never from a
// crash, and fails the check, as do vectors without a drawer, vectors of
// drawers that are not marked, a dimension that disagrees with the index,
// and a missing delete trigger.
func (s *Store) checkVectors(ctx context.Context) (bool, string, error) {
	tx, err := s.r.BeginTx(ctx, nil)
	if err != nil {
		return false, "", fmt.Errorf("vector index: %w", err)
	}
	defer tx.Rollback()
	v, err := readVecState(ctx, tx)
	if err != nil {
		return false, "", err
	}
	if v.model == "" {
		return true, fmt.Sprintf("no vectors (no model has filled the index; %d drawers searchable lexically only)", v.pending), nil
	}
	var problems []string
	switch {
	case !v.table:
		problems = append(problems, "the vector table vec_drawers is missing")
	case v.tableDim != v.dim:
		problems = append(problems, fmt.Sprintf("the vector table holds dimension %d but the index is for dimension %d", v.tableDim, v.dim))
	case v.rowDim != 0 && v.rowDim != v.dim:
		problems = append(problems, fmt.Sprintf("stored vectors have dimension %d, the index %d", v.rowDim, v.dim))
	}
	if !v.trigger {
		problems = append(problems, "the trigger that drops a deleted drawer's vector is missing")
	}
	if v.orphans > 0 {
		problems = append(problems, fmt.Sprintf("%d vectors without a drawer", v.orphans))
	}
	if v.stray > 0 {
		problems = append(problems, fmt.Sprintf("%d vectors of drawers not marked as embedded with %s", v.stray, v.model))
	}
	if v.unbacked > 0 {
		problems = append(problems, fmt.Sprintf("%d drawers marked as embedded have no vector", v.unbacked))
	}
	summary := fmt.Sprintf("%d vectors of model %s (dimension %d); %d drawers pending",
		v.rows-v.orphans-v.ofDeleted, v.model, v.dim, v.pending)
	if v.pending > 0 {
		summary += " (not embedded yet: the next mine, `palace reindex` or `palace repair` embeds them)"
	}
	if v.ofDeleted > 0 {
		summary += fmt.Sprintf("; %d vectors of deleted drawers (unused; repair drops them)", v.ofDeleted)
	}
	if len(problems) > 0 {
		return false, strings.Join(problems, "; ") + "; " + summary, nil
	}
	return true, summary, nil
}

// committedSeq reads the audit sequence number the database committed, on
// the read pool or inside a write transaction. A value that is not a number
// is an error: read as 0 it would make every applied line look uncommitted.
func committedSeq(ctx context.Context, q querier) (int64, error) {
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, metaAuditSeq).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("audit: read committed sequence: %w", err)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("audit: committed sequence %q: %w", v, err)
	}
	return n, nil
}

// uncorrected returns the committed audit sequence number as q sees it and
// the log's applied lines past it that no line corrects yet. Only under the
// write lock (q a write transaction) is the answer final: a writer that has
// logged but not yet committed looks the same as a dead one.
func (s *Store) uncorrected(ctx context.Context, q querier) (int64, []audit.Entry, error) {
	committed, err := committedSeq(ctx, q)
	if err != nil {
		return 0, nil, err
	}
	un, err := s.audit.Uncorrected(committed)
	if err != nil {
		return 0, nil, err
	}
	return committed, un, nil
}

// checkAudit verifies that no line of the write log still reads as applied
// for a write the database never committed. Such a line is what a process
// killed between its audit line and its commit leaves; the next write
// corrects it. It is a failure until then (the log says something false),
// and `palace repair` corrects it at once. Lines past the committed number
// are looked at again under the write lock, because a writer that has
// logged but not yet committed looks exactly the same from outside. A
// read-only palace cannot take the lock: such lines are reported as
// unverified, not as a failure, since this user could not correct them.
func (s *Store) checkAudit(ctx context.Context) (bool, string, error) {
	committed, un, err := s.uncorrected(ctx, s.r)
	if err != nil {
		return false, "", err
	}
	if len(un) > 0 && s.readOnly {
		return true, fmt.Sprintf("%d applied lines past the last committed seq %d not verified under the write lock (%s)",
			len(un), committed, skippedReadOnly), nil
	}
	if len(un) > 0 {
		err := s.write(ctx, func(tx *sql.Tx) error {
			var err error
			committed, un, err = s.uncorrected(ctx, tx)
			return err
		})
		if err != nil {
			return false, "", err
		}
	}
	if len(un) == 0 {
		return true, fmt.Sprintf("every write the log calls applied is committed (last committed seq %d)", committed), nil
	}
	var ws []string
	for i, e := range un {
		if i == 5 {
			ws = append(ws, fmt.Sprintf("… %d more", len(un)-i))
			break
		}
		ws = append(ws, fmt.Sprintf("seq %d %s by %s", e.Seq, e.Op, e.Actor))
	}
	return false, fmt.Sprintf("%d uncommitted writes not yet corrected (%s; committed seq %d): their process stopped before its commit",
		len(un), strings.Join(ws, ", "), committed), nil
}

// RepairReport says what Repair changed. Drawers are never among it.
type RepairReport struct {
	// AuditCorrected counts audit lines marked failed: writes whose process
	// stopped before the commit.
	AuditCorrected int `json:"audit_corrected"`
	// Reindexed is set when the SQL indexes were rebuilt (REINDEX) because
	// PRAGMA integrity_check still failed after the fts step.
	Reindexed bool `json:"reindexed"`
	// FTSRebuilt is set when the FTS index was rebuilt from the drawers.
	FTSRebuilt bool `json:"fts_rebuilt"`
	// VectorsDropped counts vector rows deleted: without a drawer, of a
	// deleted drawer, or of a drawer not marked as embedded.
	VectorsDropped int `json:"vectors_dropped"`
	// VectorsUnmarked counts drawers marked as embedded that had no vector;
	// they are pending again, for the next fill.
	VectorsUnmarked int `json:"vectors_unmarked"`
	// VectorIndexDropped is set when the vector index did not fit its
	// model's dimension (or was incomplete) and was dropped; every drawer is
	// pending until the next fill recreates it.
	VectorIndexDropped bool `json:"vector_index_dropped"`
}

// Repair mends what Check finds, except vectors still to embed (the caller
// fills those: core/vectors.Repair). Each step is its own audited write
// (op "repair", ids naming the step) taking the write lock only for that
// step, so other processes keep working in between; steps that find
// nothing to do write nothing. Steps, in order:
//   - audit: mark failed every applied line past the committed sequence
//     number (found without the lock, confirmed under it, so no live
//     writer is mistaken for a dead one);
//   - fts: FTS5 'rebuild' from the drawers when the fts check fails;
//   - indexes: REINDEX when PRAGMA integrity_check still fails. It runs
//     after fts because integrity_check includes FTS5's own check: a
//     damaged FTS index fails it too, and a REINDEX would not mend that;
//   - vectors: drop vectors that belong to no live embedded drawer, unmark
//     embedded drawers that have no vector, and drop an index whose
//     dimension does not fit, so the next fill rebuilds it.
//
// A read-only palace is refused before any step.
func (s *Store) Repair(ctx context.Context) (RepairReport, error) {
	var r RepairReport
	if err := s.checkWritable(); err != nil {
		return r, err
	}
	var err error
	if r.AuditCorrected, err = s.repairAudit(ctx); err != nil {
		return r, err
	}
	// An index too damaged to be read fails its check with an error:
	// rebuilding is the cure for that too. The rebuild reads the drawers
	// through their table alone (drawers_search has no WHERE an index of
	// drawers serves), so a damaged SQL index cannot mislead it.
	ok, _, err := s.checkFTS(ctx)
	if err != nil && ctx.Err() != nil {
		return r, err
	}
	if err != nil || !ok {
		// Rebuilding is idempotent and reads only the drawers, so it is
		// right even if the index was mended in between.
		err := s.audited(ctx, "repair", func(tx *sql.Tx, rec *auditRec) error {
			rec.IDs = []string{"fts"}
			if _, err := tx.ExecContext(ctx, `INSERT INTO drawers_fts (drawers_fts) VALUES ('rebuild')`); err != nil {
				return fmt.Errorf("repair fts: rebuild: %w", err)
			}
			return nil
		})
		if err != nil {
			return r, err
		}
		r.FTSRebuilt = true
	}
	ok, detail, err := s.checkIntegrity(ctx)
	if err != nil {
		return r, err
	}
	if !ok {
		err := s.audited(ctx, "repair", func(tx *sql.Tx, rec *auditRec) error {
			rec.IDs = []string{"indexes"}
			if _, err := tx.ExecContext(ctx, `REINDEX`); err != nil {
				return fmt.Errorf("repair indexes (%s): %w", detail, err)
			}
			return nil
		})
		if err != nil {
			return r, err
		}
		r.Reindexed = true
	}
	err = s.audited(ctx, "repair", func(tx *sql.Tx, rec *auditRec) error {
		rec.IDs = []string{"vectors"}
		return repairVectors(ctx, tx, rec, &r)
	})
	return r, err
}

// repairAudit appends a correction for every uncorrected applied line past
// the committed sequence number. Like checkAudit it looks without the lock
// first, so a palace with nothing to correct costs no write and no wait;
// what it finds is looked at again inside an audited write, whose lock
// excludes live writers. It raises the committed number past the corrected
// lines first, so audited neither corrects them again nor reuses one of
// their numbers for the repair's own line.
func (s *Store) repairAudit(ctx context.Context) (int, error) {
	if _, un, err := s.uncorrected(ctx, s.r); err != nil || len(un) == 0 {
		return 0, err
	}
	n := 0
	err := s.audited(ctx, "repair", func(tx *sql.Tx, rec *auditRec) error {
		rec.IDs = []string{"audit"}
		committed, un, err := s.uncorrected(ctx, tx)
		if err != nil {
			return err
		}
		if len(un) == 0 {
			rec.Skip = true
			return nil
		}
		now := time.Now().UTC()
		fixes := make([]audit.Entry, 0, len(un))
		last := committed
		for _, e := range un {
			fixes = append(fixes, audit.Entry{Time: now, Actor: "palace", Op: e.Op, Status: audit.Failed, Corrects: e.Seq,
				Error: "not committed: the writing process stopped before its commit (found by repair)"})
			last = max(last, e.Seq)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, metaAuditSeq, strconv.FormatInt(last, 10)); err != nil {
			return fmt.Errorf("repair audit: %w", err)
		}
		if err := s.audit.Append(fixes...); err != nil {
			return fmt.Errorf("repair audit: %w", err)
		}
		n = len(un)
		return nil
	})
	return n, err
}

// repairVectors runs inside the write transaction, so what it deletes is
// exactly what it saw: a fill elsewhere cannot slip a vector in between.
func repairVectors(ctx context.Context, tx *sql.Tx, rec *auditRec, r *RepairReport) error {
	v, err := readVecState(ctx, tx)
	if err != nil {
		return err
	}
	if v.model == "" {
		rec.Skip = true
		return nil
	}
	if !v.dimOK() {
		// The index cannot be trusted for its model: drop it whole. The
		// next fill (EnsureVectors) recreates it for the model in use.
		for _, q := range dropVecIndex {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("repair vectors: drop the index: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM meta WHERE key IN (?, ?)`, metaVecModel, metaVecDim); err != nil {
			return fmt.Errorf("repair vectors: drop the index: %w", err)
		}
		r.VectorIndexDropped = true
		return nil
	}
	if !v.trigger {
		if _, err := tx.ExecContext(ctx, vecDeleteTrigger); err != nil {
			return fmt.Errorf("repair vectors: recreate the delete trigger: %w", err)
		}
	}
	if v.orphans+v.ofDeleted+v.stray > 0 {
		rows, err := tx.QueryContext(ctx, `SELECT v.drawer_seq FROM vec_drawers v LEFT JOIN drawers d ON d.seq = v.drawer_seq
			WHERE d.seq IS NULL OR d.deleted_at IS NOT NULL OR d.vec_model IS NULL OR d.vec_model != ?`, v.model)
		if err != nil {
			return fmt.Errorf("repair vectors: %w", err)
		}
		var seqs []int64
		for rows.Next() {
			var seq int64
			if err := rows.Scan(&seq); err != nil {
				rows.Close()
				return fmt.Errorf("repair vectors: %w", err)
			}
			seqs = append(seqs, seq)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("repair vectors: %w", err)
		}
		// One by one: vec0 deletes by its primary key, and the rows were
		// read first so the scan never runs over the table it deletes from.
		for _, seq := range seqs {
			if _, err := tx.ExecContext(ctx, `DELETE FROM vec_drawers WHERE drawer_seq = ?`, seq); err != nil {
				return fmt.Errorf("repair vectors: drop vector of drawer %d: %w", seq, err)
			}
		}
		r.VectorsDropped = len(seqs)
	}
	if v.unbacked > 0 {
		res, err := tx.ExecContext(ctx, `UPDATE drawers SET vec_model = NULL
			WHERE deleted_at IS NULL AND vec_model = ? AND seq NOT IN (SELECT drawer_seq FROM vec_drawers)`, v.model)
		if err != nil {
			return fmt.Errorf("repair vectors: unmark drawers without a vector: %w", err)
		}
		n, _ := res.RowsAffected()
		r.VectorsUnmarked = int(n)
	}
	rec.Skip = v.trigger && r.VectorsDropped == 0 && r.VectorsUnmarked == 0
	return nil
}
