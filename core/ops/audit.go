package ops

import (
	"context"

	"github.com/palace-dev/palace/core/audit"
	"github.com/palace-dev/palace/core/palace"
)

// Actors are the fronts the write log names as a write's actor.
var Actors = []string{"cli", "mcp", "lsp", "hook"}

// AuditRequest filters the write log.
type AuditRequest struct {
	Since string // YYYY-MM-DD or RFC 3339: only writes from then on
	Actor string // one of Actors, or "" for all
	Op    string // an operation name such as drawer.add, or "" for all
}

// Validate names the first bad field.
func (r AuditRequest) Validate() error {
	_, err := r.filter()
	return err
}

func (r AuditRequest) filter() (audit.Filter, error) {
	f := audit.Filter{Actor: r.Actor, Op: r.Op}
	if err := checkEnum("actor", r.Actor, Actors); err != nil {
		return f, err
	}
	var err error
	f.Since, err = parseDate("since", r.Since, false)
	return f, err
}

// AuditEntry is one write in the log: when, who, what, and whether it
// committed; never the content.
type AuditEntry = audit.Entry

// Audit lists the writes r selects, oldest first, with a write later found
// not committed reading as failed.
func Audit(ctx context.Context, p *palace.Palace, r AuditRequest) ([]AuditEntry, error) {
	f, err := r.filter()
	if err != nil {
		return []AuditEntry{}, err
	}
	es, err := p.Store.AuditLog().Read(f)
	if es == nil {
		es = []AuditEntry{}
	}
	return es, err
}
