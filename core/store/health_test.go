package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sqlitevec "github.com/asg017/sqlite-vec-go-bindings/cgo"

	"github.com/palace-dev/palace/core/audit"
)

// healthPalace holds four live drawers with vectors of model m1 (dimension
// 3), one drawer soft-deleted after it was embedded the way DeleteDrawer
// did before it dropped the vector too (palaces from then still hold such
// vectors), and one live drawer still pending. It returns the drawers by
// content.
func healthPalace(t *testing.T) (*Store, map[string]Drawer) {
	t.Helper()
	ctx := context.Background()
	s := openTemp(t)
	ds := map[string]Drawer{}
	var all []Drawer
	for i, c := range []string{"alpha apples", "bravo bananas", "charlie cherries", "delta dates", "echo elderberries"} {
		d := drawer("w", fmt.Sprintf("/p/f%d", i), 0, c)
		ds[c] = d
		all = append(all, d)
	}
	if _, err := s.InsertDrawers(ctx, all); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EnsureVectors(ctx, "m1", 3); err != nil {
		t.Fatal(err)
	}
	ps, err := s.PendingVectors(ctx, "m1", 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var vs [][]float32
	for i := range ps {
		vs = append(vs, unit(1, float32(i), 0.5))
	}
	if _, err := s.PutVectors(ctx, "m1", ps, vs); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.Exec(`UPDATE drawers SET deleted_at = ? WHERE id = ?`, formatTime(time.Now()), ds["echo elderberries"].ID); err != nil {
		t.Fatal(err)
	}
	f := drawer("w", "/p/pending", 0, "foxtrot figs")
	ds[f.Content] = f
	if _, err := s.InsertDrawers(ctx, []Drawer{f}); err != nil {
		t.Fatal(err)
	}
	return s, ds
}

// checksOf runs Check and indexes the results by name.
func checksOf(t *testing.T, s *Store) map[string]HealthCheck {
	t.Helper()
	cs, err := s.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	out := map[string]HealthCheck{}
	for _, c := range cs {
		names = append(names, c.Name)
		out[c.Name] = c
	}
	if got := strings.Join(names, ","); got != "integrity,fts,metadata,vectors,audit,kg" {
		t.Fatalf("checks %s, want integrity,fts,metadata,vectors,audit,kg", got)
	}
	return out
}

// wantHealthy fails the test unless every check passes.
func wantHealthy(t *testing.T, s *Store, when string) map[string]HealthCheck {
	t.Helper()
	cs := checksOf(t, s)
	for _, c := range cs {
		if !c.OK {
			t.Errorf("%s: check %s failed: %s", when, c.Name, c.Detail)
		}
	}
	return cs
}

// wantIndexesOK fails the test unless the integrity and fts checks pass:
// the database and its full-text index are sound.
func wantIndexesOK(t *testing.T, s *Store) {
	t.Helper()
	cs := checksOf(t, s)
	for _, name := range []string{CheckIntegrity, CheckFTS} {
		if c := cs[name]; !c.OK {
			t.Errorf("check %s failed: %s", name, c.Detail)
		}
	}
}

// wantOnlyFailing fails the test unless exactly the named check fails,
// with a detail containing want.
func wantOnlyFailing(t *testing.T, s *Store, name, want string) {
	t.Helper()
	for _, c := range checksOf(t, s) {
		switch {
		case c.Name == name && c.OK:
			t.Errorf("check %s passed (%s), want it to fail", name, c.Detail)
		case c.Name == name && !strings.Contains(c.Detail, want):
			t.Errorf("check %s detail %q, want it to mention %q", name, c.Detail, want)
		case c.Name != name && !c.OK:
			t.Errorf("check %s failed too: %s", c.Name, c.Detail)
		}
	}
}

// drawerRows is every drawer column a repair must never touch (vec_model
// is derived: a repair may mark a drawer pending again).
func drawerRows(t *testing.T, s *Store) string {
	t.Helper()
	rows, err := s.r.Query(`SELECT seq, id, wing, room, kind, source, line_start, line_end, content,
		coalesce(index_text, ''), content_hash, created_at, coalesce(deleted_at, ''), metadata, importance
		FROM drawers ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var seq, ls, le int
		var id, wing, room, kind, src, content, it, hash, created, deleted, meta string
		var imp float64
		if err := rows.Scan(&seq, &id, &wing, &room, &kind, &src, &ls, &le, &content, &it, &hash, &created, &deleted, &meta, &imp); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(&b, seq, id, wing, room, kind, src, ls, le, content, it, hash, created, deleted, meta, imp)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func repairOK(t *testing.T, s *Store) RepairReport {
	t.Helper()
	r, err := s.Repair(context.Background())
	if err != nil {
		t.Fatalf("repair: %v", err)
	}
	return r
}

func searchIDs(t *testing.T, s *Store, q string) []string {
	t.Helper()
	hits, err := s.SearchFTS(context.Background(), q, Filter{}, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	return ids
}

// repairLines returns the audit lines of op repair, by the step they name.
func repairLines(t *testing.T, s *Store) []string {
	t.Helper()
	var out []string
	for _, e := range auditEntries(t, s) {
		if e.Op == "repair" {
			if e.Status != audit.Applied {
				t.Errorf("repair line not applied: %+v", e)
			}
			out = append(out, strings.Join(e.IDs, ","))
		}
	}
	return out
}

func TestCheckHealthyPalace(t *testing.T) {
	s := openTemp(t)
	cs := wantHealthy(t, s, "empty palace")
	if d := cs[CheckVectors].Detail; !strings.HasPrefix(d, "no vectors") {
		t.Errorf("vectors without a model: %q, want it to start with \"no vectors\"", d)
	}
	s, _ = healthPalace(t)
	cs = wantHealthy(t, s, "after inserts, embedding and a soft delete")
	// Pending is not a failure: mining embeds after it commits.
	if d := cs[CheckVectors].Detail; !strings.Contains(d, "4 vectors of model m1") || !strings.Contains(d, "1 drawers pending") ||
		!strings.Contains(d, "1 vectors of deleted drawers") {
		t.Errorf("vectors detail %q, want 4 vectors of m1 (one of a deleted drawer), 1 pending", d)
	}
	if d := cs[CheckFTS].Detail; !strings.Contains(d, "5 live drawers, 5 indexed") {
		t.Errorf("fts detail %q, want 5 live drawers indexed", d)
	}
	before := drawerRows(t, s)
	// Vectors of soft-deleted drawers are dropped; nothing else changes.
	r := repairOK(t, s)
	if (r != RepairReport{VectorsDropped: 1}) {
		t.Errorf("repair of a healthy palace: %+v, want only the deleted drawer's vector dropped", r)
	}
	if got := drawerRows(t, s); got != before {
		t.Errorf("repair changed drawers:\n%s\nwant\n%s", got, before)
	}
	if got := strings.Join(repairLines(t, s), " "); got != "vectors" {
		t.Errorf("repair audit lines %q, want one for vectors", got)
	}
	if cs := wantHealthy(t, s, "after repair"); strings.Contains(cs[CheckVectors].Detail, "deleted") {
		t.Errorf("vectors detail after repair: %q", cs[CheckVectors].Detail)
	}
	// Nothing left to do: no write, no line.
	if r := repairOK(t, s); (r != RepairReport{}) {
		t.Errorf("second repair did %+v", r)
	}
	if n := len(repairLines(t, s)); n != 1 {
		t.Errorf("a repair with nothing to do wrote %d more lines", n-1)
	}
}

func TestRepairFTSRowsDeleted(t *testing.T) {
	s, ds := healthPalace(t)
	before := drawerRows(t, s)
	b := ds["bravo bananas"]
	if ids := searchIDs(t, s, "bananas"); len(ids) != 1 {
		t.Fatalf("bananas before the damage: %v", ids)
	}
	// Take one drawer out of the index the way a lost write would.
	_, err := s.w.Exec(`INSERT INTO drawers_fts (drawers_fts, rowid, body, scope, symbols, path, parts)
		SELECT 'delete', seq, body, scope, symbols, path, parts FROM drawers_search WHERE seq = (SELECT seq FROM drawers WHERE id = ?)`, b.ID)
	if err != nil {
		t.Fatal(err)
	}
	if ids := searchIDs(t, s, "bananas"); len(ids) != 0 {
		t.Fatalf("the damage did not take: bananas still found %v", ids)
	}
	wantOnlyFailing(t, s, CheckFTS, "1 live drawers missing from the index")
	if err := s.IntegrityCheck(context.Background()); err == nil || !strings.Contains(err.Error(), "fts: 5 live drawers, 4 indexed") {
		t.Errorf("IntegrityCheck of a damaged index: %v", err)
	}
	r := repairOK(t, s)
	if !r.FTSRebuilt || r.Reindexed || r.AuditCorrected != 0 {
		t.Errorf("repair: %+v, want the FTS index rebuilt and nothing else but the deleted drawer's vector", r)
	}
	wantHealthy(t, s, "after repair")
	if ids := searchIDs(t, s, "bananas"); len(ids) != 1 || ids[0] != b.ID {
		t.Errorf("bananas after repair: %v, want %s", ids, b.ID)
	}
	if ids := searchIDs(t, s, "elderberries"); len(ids) != 0 {
		t.Errorf("the rebuild indexed a deleted drawer: %v", ids)
	}
	if got := drawerRows(t, s); got != before {
		t.Errorf("repair changed drawers")
	}
	if got := strings.Join(repairLines(t, s), " "); got != "fts vectors" {
		t.Errorf("repair audit lines %q, want fts then vectors", got)
	}
}

// An index row left for a drawer that is gone: the index and its content
// disagree, which FTS5's own check sees too.
func TestRepairFTSStrayRow(t *testing.T) {
	s, _ := healthPalace(t)
	if _, err := s.w.Exec(`INSERT INTO drawers_fts (rowid, body, scope) VALUES (9999, 'ghostly words', 'w77k' || 'note')`); err != nil {
		t.Fatal(err)
	}
	wantOnlyFailing(t, s, CheckFTS, "1 index rows for drawers that are deleted or gone")
	if r := repairOK(t, s); !r.FTSRebuilt {
		t.Errorf("repair: %+v", r)
	}
	wantHealthy(t, s, "after repair")
	if ids := searchIDs(t, s, "ghostly"); len(ids) != 0 {
		t.Errorf("ghost row still found: %v", ids)
	}
}

func insertVector(t *testing.T, s *Store, seq int64, v []float32) {
	t.Helper()
	blob, err := sqlitevec.SerializeFloat32(v)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.Exec(`INSERT INTO vec_drawers (drawer_seq, embedding, wing, room, kind) VALUES (?, ?, 'w', 'general', 'file')`, seq, blob); err != nil {
		t.Fatal(err)
	}
}

func seqOf(t *testing.T, s *Store, id string) int64 {
	t.Helper()
	var seq int64
	if err := s.r.QueryRow(`SELECT seq FROM drawers WHERE id = ?`, id).Scan(&seq); err != nil {
		t.Fatal(err)
	}
	return seq
}

func vecRows(t *testing.T, s *Store) int {
	t.Helper()
	var n int
	if err := s.r.QueryRow(`SELECT count(*) FROM vec_drawers`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestRepairStrayVectors(t *testing.T) {
	ctx := context.Background()
	s, ds := healthPalace(t)
	before := drawerRows(t, s)
	// A vector for no drawer at all, and one for the pending drawer that is
	// not marked as embedded.
	insertVector(t, s, 4242, unit(0, 0, 1))
	insertVector(t, s, seqOf(t, s, ds["foxtrot figs"].ID), unit(0, 1, 0))
	wantOnlyFailing(t, s, CheckVectors, "1 vectors without a drawer; 1 vectors of drawers not marked as embedded with m1")
	r := repairOK(t, s)
	if r.VectorsDropped != 3 || r.VectorsUnmarked != 0 || r.FTSRebuilt || r.VectorIndexDropped {
		t.Errorf("repair: %+v, want 3 vectors dropped (the two strays and the deleted drawer's)", r)
	}
	cs := wantHealthy(t, s, "after repair")
	if n := vecRows(t, s); n != 4 {
		t.Errorf("%d vector rows after repair, want the 4 of live embedded drawers", n)
	}
	if !strings.Contains(cs[CheckVectors].Detail, "1 drawers pending") {
		t.Errorf("vectors detail %q, want foxtrot still pending", cs[CheckVectors].Detail)
	}
	if vi, _ := s.VecInfo(ctx); vi.Vectors != 4 || vi.Pending != 1 {
		t.Errorf("vector info after repair: %+v", vi)
	}
	if got := drawerRows(t, s); got != before {
		t.Errorf("repair changed drawers")
	}
}

func TestRepairDeletedVectorRows(t *testing.T) {
	ctx := context.Background()
	s, ds := healthPalace(t)
	before := drawerRows(t, s)
	for _, c := range []string{"alpha apples", "charlie cherries"} {
		if _, err := s.w.Exec(`DELETE FROM vec_drawers WHERE drawer_seq = ?`, seqOf(t, s, ds[c].ID)); err != nil {
			t.Fatal(err)
		}
	}
	wantOnlyFailing(t, s, CheckVectors, "2 drawers marked as embedded have no vector")
	r := repairOK(t, s)
	if r.VectorsUnmarked != 2 || r.VectorsDropped != 1 {
		t.Errorf("repair: %+v, want 2 drawers unmarked and the deleted drawer's vector dropped", r)
	}
	cs := wantHealthy(t, s, "after repair")
	if !strings.Contains(cs[CheckVectors].Detail, "3 drawers pending") {
		t.Errorf("vectors detail %q, want alpha, charlie and foxtrot pending", cs[CheckVectors].Detail)
	}
	// What a fill does next: the unmarked drawers come back as pending.
	ps, err := s.PendingVectors(ctx, "m1", 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	var vs [][]float32
	for _, p := range ps {
		texts = append(texts, p.Text)
		vs = append(vs, unit(0, 0, 1))
	}
	if got := strings.Join(texts, ","); got != "alpha apples,charlie cherries,foxtrot figs" {
		t.Errorf("pending after repair: %s", got)
	}
	if _, err := s.PutVectors(ctx, "m1", ps, vs); err != nil {
		t.Fatal(err)
	}
	if cs := wantHealthy(t, s, "after refill"); !strings.Contains(cs[CheckVectors].Detail, "0 drawers pending") {
		t.Errorf("vectors detail after refill: %q", cs[CheckVectors].Detail)
	}
	if got := drawerRows(t, s); got != before {
		t.Errorf("repair changed drawers")
	}
}

func TestRepairWrongDimension(t *testing.T) {
	ctx := context.Background()
	s, _ := healthPalace(t)
	before := drawerRows(t, s)
	if _, err := s.w.Exec(`UPDATE meta SET value = '4' WHERE key = ?`, metaVecDim); err != nil {
		t.Fatal(err)
	}
	wantOnlyFailing(t, s, CheckVectors, "the vector table holds dimension 3 but the index is for dimension 4")
	r := repairOK(t, s)
	if !r.VectorIndexDropped {
		t.Errorf("repair: %+v, want the vector index dropped", r)
	}
	cs := wantHealthy(t, s, "after repair")
	if !strings.HasPrefix(cs[CheckVectors].Detail, "no vectors") {
		t.Errorf("vectors after the index was dropped: %q", cs[CheckVectors].Detail)
	}
	// The next fill recreates the index from scratch.
	if created, err := s.EnsureVectors(ctx, "m1", 3); err != nil || !created {
		t.Fatalf("ensure after repair: %v %v", created, err)
	}
	if vi, _ := s.VecInfo(ctx); vi.Vectors != 0 || vi.Pending != 5 {
		t.Errorf("after repair and ensure: %+v, want every live drawer pending", vi)
	}
	wantHealthy(t, s, "after the index was recreated")
	if got := drawerRows(t, s); got != before {
		t.Errorf("repair changed drawers")
	}
}

func TestRepairMissingVectorTrigger(t *testing.T) {
	ctx := context.Background()
	s, ds := healthPalace(t)
	if _, err := s.w.Exec(`DROP TRIGGER drawers_vec_ad`); err != nil {
		t.Fatal(err)
	}
	wantOnlyFailing(t, s, CheckVectors, "trigger")
	repairOK(t, s)
	wantHealthy(t, s, "after repair")
	// The trigger works again: a hard delete takes the vector with it.
	if _, err := s.w.ExecContext(ctx, `DELETE FROM drawers WHERE id = ?`, ds["alpha apples"].ID); err != nil {
		t.Fatal(err)
	}
	wantHealthy(t, s, "after a hard delete")
}

// What a process killed between its audit line and its commit leaves, as
// the brief's crash leaves it: an applied line past the committed number.
func TestRepairUncommittedAuditLine(t *testing.T) {
	ctx := context.Background()
	s, _ := healthPalace(t)
	before := drawerRows(t, s)
	committed, err := committedSeq(ctx, s.r)
	if err != nil || committed == 0 {
		t.Fatalf("committed seq %d %v", committed, err)
	}
	ghost := audit.Entry{Seq: committed + 1, Time: time.Now(), Op: "note.add", Actor: "mcp", Status: audit.Applied, IDs: []string{"d_ghost"}}
	if err := s.AuditLog().Append(ghost); err != nil {
		t.Fatal(err)
	}
	wantOnlyFailing(t, s, CheckAudit, fmt.Sprintf("1 uncommitted writes not yet corrected (seq %d note.add by mcp", committed+1))
	r := repairOK(t, s)
	if r.AuditCorrected != 1 {
		t.Errorf("repair: %+v, want 1 audit line corrected", r)
	}
	wantHealthy(t, s, "after repair")
	es := auditEntries(t, s)
	var ghostLine, auditLine *audit.Entry
	for i, e := range es {
		if len(e.IDs) == 1 && e.IDs[0] == "d_ghost" {
			ghostLine = &es[i]
		}
		if e.Op == "repair" && len(e.IDs) == 1 && e.IDs[0] == "audit" {
			auditLine = &es[i]
		}
	}
	if ghostLine == nil || ghostLine.Status != audit.Failed || !strings.Contains(ghostLine.Error, "not committed") {
		t.Errorf("the ghost line after repair: %+v, want it read as failed", ghostLine)
	}
	if auditLine == nil || auditLine.Seq <= ghost.Seq || auditLine.Status != audit.Applied {
		t.Errorf("repair's own line: %+v, want applied with a seq past %d", auditLine, ghost.Seq)
	}
	// The next ordinary write neither re-corrects nor reuses a number.
	if _, err := s.InsertDrawers(ctx, []Drawer{drawer("w", "/p/later", 0, "golf grapes")}); err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for _, e := range auditEntries(t, s) {
		if e.Seq != 0 && seen[e.Seq] {
			t.Errorf("seq %d used twice", e.Seq)
		}
		seen[e.Seq] = true
	}
	wantHealthy(t, s, "after the next write")
	if got := drawerRows(t, s); !strings.HasPrefix(got, before) {
		t.Errorf("repair changed drawers")
	}
}

// An orphan line buried deeper than the tail the next write reads is still
// found by doctor and corrected by repair.
func TestRepairFindsOrphanBeyondTail(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if _, err := s.InsertDrawers(ctx, []Drawer{drawer("w", "/p/a", 0, "one")}); err != nil {
		t.Fatal(err)
	}
	committed, _ := committedSeq(ctx, s.r)
	if err := s.AuditLog().Append(audit.Entry{Seq: committed + 1, Op: "drawer.add", Actor: "cli", Status: audit.Applied}); err != nil {
		t.Fatal(err)
	}
	// Failed writes (seq 0) pile up after it: 300 KB of them.
	filler := make([]audit.Entry, 600)
	for i := range filler {
		filler[i] = audit.Entry{Op: "drawer.delete", Actor: "cli", Status: audit.Failed, Error: strings.Repeat("x", 500)}
	}
	if err := s.AuditLog().Append(filler...); err != nil {
		t.Fatal(err)
	}
	if tail, _ := s.AuditLog().Tail(committed); len(tail) != 0 {
		t.Fatalf("the orphan is still within the tail: %+v", tail)
	}
	wantOnlyFailing(t, s, CheckAudit, "1 uncommitted writes not yet corrected")
	if r := repairOK(t, s); r.AuditCorrected != 1 {
		t.Errorf("repair: %+v", r)
	}
	wantHealthy(t, s, "after repair")
}

// A writer that has logged its line but not committed yet is not a dead
// one: the audit check waits for the write lock instead of reporting it.
func TestAuditCheckWaitsForLiveWriter(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if _, err := s.InsertDrawers(ctx, []Drawer{drawer("w", "/p/a", 0, "one")}); err != nil {
		t.Fatal(err)
	}
	other, err := Open(s.Home()) // another process on the same palace
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	committed, _ := committedSeq(ctx, s.r)
	tx, err := other.w.BeginTx(ctx, nil) // immediate: holds the write lock
	if err != nil {
		t.Fatal(err)
	}
	if err := other.AuditLog().Append(audit.Entry{Seq: committed + 1, Op: "drawer.add", Actor: "cli", Status: audit.Applied}); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`UPDATE meta SET value = ? WHERE key = ?`, fmt.Sprint(committed+1), metaAuditSeq); err != nil {
		t.Fatal(err)
	}
	const hold = 300 * time.Millisecond
	go func() {
		time.Sleep(hold)
		tx.Commit()
	}()
	start := time.Now()
	// The audit check alone: the fts check would wait for the lock anyway.
	ok, detail, err := s.checkAudit(ctx)
	if err != nil || !ok {
		t.Errorf("audit check reported a live writer as uncommitted: %s %v", detail, err)
	}
	if waited := time.Since(start); waited < hold {
		t.Errorf("check returned after %v, before the writer committed", waited)
	}
}

// Repair takes the write lock step by step: writes from another process
// go on while it runs and all of them land.
func TestRepairAlongsideWriter(t *testing.T) {
	ctx := context.Background()
	s, _ := healthPalace(t)
	if _, err := s.w.Exec(`INSERT INTO drawers_fts (drawers_fts) VALUES ('delete-all')`); err != nil {
		t.Fatal(err)
	}
	other, err := Open(s.Home())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	done := make(chan error, 1)
	go func() {
		for i := 0; i < 30; i++ {
			if _, err := other.InsertDrawers(ctx, []Drawer{drawer("w", fmt.Sprintf("/p/w%d", i), 0, fmt.Sprintf("writer%d hotel", i))}); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	r, err := s.Repair(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("writer during repair: %v", err)
	}
	if !r.FTSRebuilt {
		t.Errorf("repair: %+v", r)
	}
	wantHealthy(t, s, "after repair and the writer")
	if ids := searchIDs(t, s, "hotel"); len(ids) != 10 { // SearchFTS limit
		t.Errorf("hotel: %d hits", len(ids))
	}
	var n int
	s.r.QueryRow(`SELECT count(*) FROM drawers WHERE content LIKE 'writer%'`).Scan(&n)
	if n != 30 {
		t.Errorf("%d of the writer's 30 drawers landed", n)
	}
}

// An index whose own pages are damaged cannot even be read; doctor says
// so and repair rebuilds it all the same.
func TestRepairFTSShadowDamage(t *testing.T) {
	s, ds := healthPalace(t)
	before := drawerRows(t, s)
	// The structure record (id 10) says where every segment is.
	if _, err := s.w.Exec(`DELETE FROM drawers_fts_data WHERE id = 10`); err != nil {
		t.Fatal(err)
	}
	cs := checksOf(t, s)
	if c := cs[CheckFTS]; c.OK || !strings.Contains(c.Detail, "could not check") {
		t.Errorf("fts check of a damaged index: %+v", c)
	}
	if c := cs[CheckVectors]; !c.OK {
		t.Errorf("vectors check: %+v", c)
	}
	// PRAGMA integrity_check includes FTS5's check, so it fails too; the
	// SQL indexes are sound all the same, and rebuilding the FTS index
	// first mends both, with no REINDEX.
	if c := cs[CheckIntegrity]; c.OK || !strings.Contains(c.Detail, "fts5") {
		t.Errorf("integrity check of a palace with a damaged FTS index: %+v, want it to fail on fts5", c)
	}
	if r := repairOK(t, s); !r.FTSRebuilt || r.Reindexed {
		t.Errorf("repair: %+v, want the FTS index rebuilt and no REINDEX", r)
	}
	if got := strings.Join(repairLines(t, s), " "); got != "fts vectors" {
		t.Errorf("repair audit lines %q, want fts then vectors", got)
	}
	wantHealthy(t, s, "after repair")
	if ids := searchIDs(t, s, "cherries"); len(ids) != 1 || ids[0] != ds["charlie cherries"].ID {
		t.Errorf("cherries after repair: %v", ids)
	}
	if got := drawerRows(t, s); got != before {
		t.Errorf("repair changed drawers")
	}
}

// A drawer indexed with text other than its own: the rows agree, and only
// FTS5's own integrity-check, a write under the write lock, sees it. What
// it finds is the check's outcome, not an error of the check.
func TestRepairFTSWrongText(t *testing.T) {
	s, ds := healthPalace(t)
	b := ds["bravo bananas"]
	seq := seqOf(t, s, b.ID)
	if _, err := s.w.Exec(`INSERT INTO drawers_fts (drawers_fts, rowid, body, scope, symbols, path, parts)
		SELECT 'delete', seq, body, scope, symbols, path, parts FROM drawers_search WHERE seq = ?`, seq); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.Exec(`INSERT INTO drawers_fts (rowid, body, scope) SELECT seq, 'kiwi', scope FROM drawers_search WHERE seq = ?`, seq); err != nil {
		t.Fatal(err)
	}
	wantOnlyFailing(t, s, CheckFTS, "5 live drawers, 5 indexed; FTS5 integrity-check: database disk image is malformed")
	if r := repairOK(t, s); !r.FTSRebuilt || r.Reindexed {
		t.Errorf("repair: %+v, want the FTS index rebuilt and no REINDEX", r)
	}
	wantHealthy(t, s, "after repair")
	if ids := searchIDs(t, s, "bananas"); len(ids) != 1 || ids[0] != b.ID {
		t.Errorf("bananas after repair: %v, want %s", ids, b.ID)
	}
	if ids := searchIDs(t, s, "kiwi"); len(ids) != 0 {
		t.Errorf("the wrong text is still indexed: %v", ids)
	}
}

// dirState is every file of a folder tree with its size and mtime, to
// show nothing on disk changed.
func dirState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		fmt.Fprintln(&b, p, fi.Size(), fi.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A palace this user may not write: every check runs, those parts that
// need the write lock are skipped and say so, the palace is healthy, and
// nothing on disk changes (no -wal, no -shm). The tests run as root, whom
// file modes do not stop, so the store is opened the way Open opens a
// palace it may not write.
func TestCheckReadOnlyPalace(t *testing.T) {
	ctx := context.Background()
	s, _ := healthPalace(t)
	// A line past the committed number: only the write lock could tell a
	// live writer's from a dead one's.
	committed, err := committedSeq(ctx, s.r)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AuditLog().Append(audit.Entry{Seq: committed + 1, Time: time.Now(), Op: "note.add", Actor: "mcp", Status: audit.Applied}); err != nil {
		t.Fatal(err)
	}
	home, path := s.Home(), s.Path()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + "-wal"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a -wal file is left after close (%v): the store would not be opened immutable", err)
	}
	before := dirState(t, home)
	ro, err := openReadOnly(home, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if !ro.ReadOnly() {
		t.Fatal("the store does not know it is read-only")
	}
	cs := wantHealthy(t, ro, "read-only palace")
	if d := cs[CheckIntegrity].Detail; d != "PRAGMA integrity_check: ok" {
		t.Errorf("integrity detail %q", d)
	}
	if d := cs[CheckFTS].Detail; d != "5 live drawers, 5 indexed; FTS5 integrity-check skipped: read-only palace" {
		t.Errorf("fts detail %q", d)
	}
	if d := cs[CheckAudit].Detail; !strings.Contains(d, fmt.Sprintf("1 applied lines past the last committed seq %d", committed)) ||
		!strings.Contains(d, "skipped: read-only palace") {
		t.Errorf("audit detail %q, want the line reported as not verified", d)
	}
	if _, err := ro.Repair(ctx); !errors.Is(err, ErrReadOnly) {
		t.Errorf("repair of a read-only palace: %v, want ErrReadOnly", err)
	}
	if after := dirState(t, home); after != before {
		t.Errorf("the read-only palace changed on disk:\nbefore\n%s\nafter\n%s", before, after)
	}
}

// A repair with no audit line to correct takes no write lock for it: it
// does not wait for another process's write. The other write holds the
// lock until the repair has returned, so a repair that asked for the lock
// fails (busy, or its context's end) instead of succeeding.
func TestRepairAuditLooksBeforeLocking(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if _, err := s.InsertDrawers(ctx, []Drawer{drawer("w", "/p/a", 0, "one")}); err != nil {
		t.Fatal(err)
	}
	other, err := Open(s.Home())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	tx, err := other.w.BeginTx(ctx, nil) // immediate: holds the write lock
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	n, err := s.repairAudit(rctx)
	if err != nil || n != 0 || rctx.Err() != nil {
		t.Errorf("repairAudit beside a held write lock: %d, %v (context: %v); want nothing corrected, no wait", n, err, rctx.Err())
	}
}

// A committed sequence number that is not a number stops the write: read
// as 0 it would make every applied line look uncommitted and be corrected.
func TestAuditedRefusesUnreadableSeq(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if _, err := s.InsertDrawers(ctx, []Drawer{drawer("w", "/p/a", 0, "one")}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.Exec(`UPDATE meta SET value = 'x' WHERE key = ?`, metaAuditSeq); err != nil {
		t.Fatal(err)
	}
	before := len(auditEntries(t, s))
	_, err := s.InsertDrawers(ctx, []Drawer{drawer("w", "/p/b", 0, "two")})
	if err == nil || !strings.Contains(err.Error(), `committed sequence "x"`) {
		t.Errorf("write with an unreadable committed sequence: %v", err)
	}
	if es := auditEntries(t, s); len(es) != before {
		t.Errorf("the log grew from %d to %d lines: %+v", before, len(es), es[before:])
	}
	var n int
	if err := s.r.QueryRow(`SELECT count(*) FROM drawers`).Scan(&n); err != nil || n != 1 {
		t.Errorf("%d drawers (%v), want the second write not committed", n, err)
	}
}

// A drawer whose metadata is not a JSON object (what an import stored
// before imports were checked) fails the metadata check, which names it,
// and a repair leaves the drawer as it is.
func TestCheckInvalidMetadata(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	good, bad, arr := drawer("w", "a.go", 0, "alpha"), drawer("w", "b.go", 0, "beta"), drawer("w", "c.go", 0, "gamma")
	bad.Metadata, arr.Metadata = `{"speakers":`, `[1,2]`
	if _, err := s.InsertDrawers(ctx, []Drawer{good, bad, arr}); err != nil {
		t.Fatal(err)
	}
	if c, ok := checksOf(t, s)[CheckMetadata]; !ok || c.OK {
		t.Fatalf("metadata check %+v (present %v), want it to fail", c, ok)
	}
	wantOnlyFailing(t, s, CheckMetadata, "2 drawers have metadata that is not a JSON object ("+bad.ID+", "+arr.ID+")")
	before := drawerRows(t, s)
	repairOK(t, s)
	if after := drawerRows(t, s); after != before {
		t.Errorf("repair changed drawers:\n%s---\n%s", before, after)
	}
}
