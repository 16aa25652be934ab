package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/palace-dev/palace/core/audit"
)

// metaAuditSeq is the sequence number of the last audited write that
// committed; an audit line with a higher number never committed.
const metaAuditSeq = "audit.seq"

// auditRec is what a write says about itself for the audit log.
type auditRec struct {
	IDs  []string
	Hash string
	Size int64
	// Skip leaves the log alone: the write changed nothing.
	Skip bool
}

// SetActor names who writes through this store (cli, mcp, lsp, hook) and,
// when known, the client's name, for the audit log.
func (s *Store) SetActor(actor, client string) {
	s.who.Lock()
	defer s.who.Unlock()
	s.actor, s.client = actor, client
}

func (s *Store) writer() (actor, client string) {
	s.who.Lock()
	defer s.who.Unlock()
	return s.actor, s.client
}

// AuditLog is the palace's write log.
func (s *Store) AuditLog() *audit.Log { return s.audit }

// audited runs fn in one immediate transaction and logs it. The line is
// appended while the write lock is held and before the commit; a failed
// write is logged as failed; a failed commit gets a correction line. Lines
// left by a process that died before its commit are corrected here, on the
// next write, since their sequence numbers are past the committed one.
func (s *Store) audited(ctx context.Context, op string, fn func(*sql.Tx, *auditRec) error) error {
	if err := s.checkWritable(); err != nil {
		return err
	}
	leave, err := s.turns.enter()
	if err != nil {
		return err
	}
	defer leave()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin write: %w", err)
	}
	var rec auditRec
	actor, client := s.writer()
	entry := audit.Entry{Time: time.Now().UTC(), Actor: actor, Client: client, Op: op}
	if err := fn(tx, &rec); err != nil {
		tx.Rollback()
		if rec.Skip {
			return err
		}
		entry.IDs, entry.Status, entry.Error = rec.IDs, audit.Failed, err.Error()
		return errors.Join(err, s.audit.Append(entry))
	}
	if rec.Skip {
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("commit: %w", err)
		}
		return nil
	}
	committed, err := committedSeq(ctx, tx)
	if err != nil {
		tx.Rollback()
		return err
	}
	tAudit := time.Now()
	orphans, err := s.audit.Tail(committed)
	if err != nil {
		tx.Rollback()
		return err
	}
	next := committed + 1
	var lines []audit.Entry
	for _, o := range orphans {
		lines = append(lines, audit.Entry{Time: entry.Time, Actor: "palace", Op: o.Op, Status: audit.Failed,
			Corrects: o.Seq, Error: "not committed: the writing process stopped before its commit"})
		next = max(next, o.Seq+1)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, metaAuditSeq, strconv.FormatInt(next, 10)); err != nil {
		tx.Rollback()
		return fmt.Errorf("audit: %w", err)
	}
	entry.Seq, entry.IDs, entry.Hash, entry.Size, entry.Status = next, rec.IDs, rec.Hash, rec.Size, audit.Applied
	if err := s.audit.Append(append(lines, entry)...); err != nil {
		tx.Rollback()
		return fmt.Errorf("%w; nothing was written", err)
	}
	tCommit := time.Now()
	s.stats.audit.Add(int64(tCommit.Sub(tAudit)))
	defer func() { s.stats.commit.Add(int64(time.Since(tCommit))) }()
	if err := tx.Commit(); err != nil {
		fix := audit.Entry{Time: time.Now().UTC(), Actor: actor, Client: client, Op: op,
			Status: audit.Failed, Corrects: next, Error: "commit failed: " + err.Error()}
		return errors.Join(fmt.Errorf("commit: %w", err), s.audit.Append(fix))
	}
	return nil
}
