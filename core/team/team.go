package team

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
	"github.com/palace-dev/palace/core/transfer"
	"github.com/palace-dev/palace/core/vectors"
)

// Batch is how many operations one push or pull transaction carries.
const Batch = 2000

// Channel is the PostgreSQL notification channel a push notifies, with
// the wing as payload, so serving members pull at once.
const Channel = "palace_ops"

// ErrNoAccess is the class of a refusal by PostgreSQL's policies.
var ErrNoAccess = errors.New("no access")

// AccessError names the wing a member may not read or write.
type AccessError struct {
	Wing, Role string
	Write      bool
}

func (e *AccessError) Error() string {
	what := "read"
	if e.Write {
		what = "write"
	}
	return fmt.Sprintf("team: role %s may not %s wing %q (ask a writer of the wing for access)", e.Role, what, e.Wing)
}

func (e *AccessError) Unwrap() error { return ErrNoAccess }

// Timeout is how long the team server may take over one step of a team
// operation when the caller names no other bound: connecting (with the
// schema check), one batch pushed or pulled, a join, share, grant or status
// read. A server that accepts the connection and never answers (a hung
// PostgreSQL, a proxy whose other side is gone) would otherwise hold a
// command, or a serving palace's sync, forever: TCP alone never gives up.
// It bounds a step rather than a whole sync, so a long catch-up of many
// batches is not cut short.
const Timeout = 10 * time.Second

// TimeoutError is a step the team server did not answer in time.
type TimeoutError struct {
	Step  string        // what was asked: "connect", "push", "pull", ...
	Host  string        // the server's host and port, never the connection string
	After time.Duration // the bound that ran out
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("team %s: the team server at %s did not answer within %s", e.Step, e.Host, e.After)
}

// Unwrap makes a timeout a context.DeadlineExceeded, as pgx's own are, so
// ops.Classify names it as every other deadline.
func (e *TimeoutError) Unwrap() error { return context.DeadlineExceeded }

// Conn is a member's connection to the team database.
type Conn struct {
	pg      *pgx.Conn
	role    string
	host    string
	timeout time.Duration // the bound of each step
	// statement is the server's statement_timeout, at most timeout.
	statement time.Duration
}

// Connect opens url (a PostgreSQL connection string, with the TLS settings
// pgx accepts) and creates or migrates the team schema when it is missing
// or older. Each step of the connection's operations must be answered
// within timeout (0: Timeout): the client gives up on the step then, and
// the server cancels any one statement running longer (statement_timeout,
// unless the role or url set a lower one), so a slow query does not go on
// holding locks after the client left. A connect_timeout in url bounds
// connecting to each address instead (pgx tries each one, and with the
// default sslmode TLS then plain). Errors never quote the connection
// string: it may hold a password.
func Connect(ctx context.Context, url string, timeout time.Duration) (*Conn, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, errors.New("team: the connection string is not one PostgreSQL accepts")
	}
	if timeout <= 0 {
		timeout = Timeout
	}
	c := &Conn{host: net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port))), timeout: timeout}
	connect := timeout
	if cfg.ConnectTimeout > 0 {
		// Bounded by pgx per address; ours would cut the user's short.
		connect = 0
	}
	err = c.within(ctx, "connect", connect, func(ctx context.Context) error {
		pg, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			return fmt.Errorf("team: connect to PostgreSQL at %s: %w", c.host, err)
		}
		c.pg = pg
		return nil
	})
	var te *TimeoutError
	if errors.As(err, &te) && connect == 0 {
		te.After = cfg.ConnectTimeout
	}
	if err != nil {
		return nil, err
	}
	if err := c.within(ctx, "connect", timeout, func(ctx context.Context) error {
		// Session-wide, in the same round trip as the role. A lower
		// setting already in place (the role's, the database's, the url's)
		// is kept, and read back so its cancel is reported with its bound.
		var secs float64
		if err := c.pg.QueryRow(ctx, `SELECT current_user, extract(epoch FROM (
			CASE WHEN current_setting('statement_timeout')::interval BETWEEN '1 microsecond' AND $1::text::interval
				THEN current_setting('statement_timeout')
				ELSE set_config('statement_timeout', $1, false) END)::interval)::float8`,
			strconv.FormatInt(max(timeout.Milliseconds(), 1), 10)+"ms").Scan(&c.role, &secs); err != nil {
			return fmt.Errorf("team: %w", err)
		}
		c.statement = time.Duration(secs * float64(time.Second))
		return install(ctx, c.pg)
	}); err != nil {
		c.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	return c, nil
}

// queryCanceled is PostgreSQL's code for a statement it cancelled; the
// message says whether statement_timeout (which Connect sets) ran out or
// someone cancelled it.
const queryCanceled = "57014"

// within runs step under a deadline of bound from now (0: none but ctx's)
// and says so when the server did not answer before it, rather than
// pgx's "context deadline exceeded", "conn closed" or the server's
// "canceling statement due to statement timeout".
func (c *Conn) within(ctx context.Context, step string, bound time.Duration, f func(context.Context) error) error {
	sctx := ctx
	if bound > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, bound)
		defer cancel()
	}
	err := f(sctx)
	if err == nil || ctx.Err() != nil {
		return err
	}
	// Whatever pgx made of the deadline (it closes the connection, so a
	// later read may say "conn closed"), the step ran out of time.
	if sctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return &TimeoutError{Step: step, Host: c.host, After: bound}
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == queryCanceled && strings.Contains(pe.Message, "statement timeout") {
		return &TimeoutError{Step: step, Host: c.host, After: c.statement}
	}
	return err
}

// Close ends the connection, waiting no longer than a step for the
// server to take the goodbye.
func (c *Conn) Close(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	return c.pg.Close(ctx)
}

// Role is the PostgreSQL role this member connects as.
func (c *Conn) Role() string { return c.role }

// Join records this role as a member.
func (c *Conn) Join(ctx context.Context) error {
	return c.within(ctx, "join", c.timeout, func(ctx context.Context) error {
		if _, err := c.pg.Exec(ctx, `INSERT INTO palace.members (role) VALUES (current_user) ON CONFLICT DO NOTHING`); err != nil {
			return fmt.Errorf("team join: %w", err)
		}
		return nil
	})
}

// Share creates wing in the team database (the caller becomes its writer)
// or, when it exists, checks the caller may read it.
func (c *Conn) Share(ctx context.Context, wing string) (write bool, err error) {
	err = c.within(ctx, "share", c.timeout, func(ctx context.Context) error {
		if _, err := c.pg.Exec(ctx, `SELECT palace.share($1)`, wing); err != nil {
			return fmt.Errorf("team share %s: %w", wing, err)
		}
		read, w, err := c.access(ctx, wing)
		if err != nil {
			return err
		}
		if !read {
			return &AccessError{Wing: wing, Role: c.role}
		}
		write = w
		return nil
	})
	return write, err
}

// Grant gives role read or write access to wing; only a writer may.
func (c *Conn) Grant(ctx context.Context, wing, role string, write bool) error {
	return c.within(ctx, "grant", c.timeout, func(ctx context.Context) error {
		if _, err := c.pg.Exec(ctx, `SELECT palace.grant_access($1, $2, $3)`, wing, role, write); err != nil {
			var pe *pgconn.PgError
			if errors.As(err, &pe) && pe.Code == "42501" {
				return &AccessError{Wing: wing, Role: c.role, Write: true}
			}
			return fmt.Errorf("team grant %s: %w", wing, err)
		}
		return nil
	})
}

// Revoke takes role's access to wing away; only a writer may.
func (c *Conn) Revoke(ctx context.Context, wing, role string) error {
	return c.within(ctx, "revoke", c.timeout, func(ctx context.Context) error {
		if _, err := c.pg.Exec(ctx, `SELECT palace.revoke_access($1, $2)`, wing, role); err != nil {
			var pe *pgconn.PgError
			if errors.As(err, &pe) && pe.Code == "42501" {
				return &AccessError{Wing: wing, Role: c.role, Write: true}
			}
			return fmt.Errorf("team revoke %s: %w", wing, err)
		}
		return nil
	})
}

func (c *Conn) access(ctx context.Context, wing string) (read, write bool, err error) {
	if err := c.pg.QueryRow(ctx, `SELECT palace.can_read($1, current_user), palace.can_write($1, current_user)`, wing).
		Scan(&read, &write); err != nil {
		return false, false, fmt.Errorf("team: access to wing %s: %w", wing, err)
	}
	return read, write, nil
}

// Push sends the queued operations of a batch in one transaction. An
// operation PostgreSQL already holds (a push retried after a cut) is
// skipped by its op id. A purge also rewrites the earlier operations of its
// drawer as the tombstone, so the erased content leaves PostgreSQL. The
// batch is one step of the connection's timeout.
func (c *Conn) Push(ctx context.Context, ops []store.TeamOp) error {
	return c.within(ctx, "push", c.timeout, func(ctx context.Context) error { return c.push(ctx, ops) })
}

func (c *Conn) push(ctx context.Context, ops []store.TeamOp) error {
	wings := map[string]bool{}
	for _, op := range ops {
		wings[op.Wing] = true
	}
	for _, w := range slices.Sorted(maps.Keys(wings)) {
		_, write, err := c.access(ctx, w)
		if err != nil {
			return err
		}
		if !write {
			return &AccessError{Wing: w, Role: c.role, Write: true}
		}
	}
	var ids, ws, kinds, keys, ats, rows []string
	var gone []bool
	for _, op := range ops {
		b, err := json.Marshal(op.Rows)
		if err != nil {
			return fmt.Errorf("team push: %w", err)
		}
		ids, ws, kinds, keys, ats = append(ids, op.ID), append(ws, op.Wing), append(kinds, op.Kind), append(keys, op.Key), append(ats, op.At)
		rows, gone = append(rows, string(b)), append(gone, op.Gone)
	}
	tx, err := c.pg.Begin(ctx)
	if err != nil {
		return fmt.Errorf("team push: %w", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(7061636502)`); err != nil {
		return fmt.Errorf("team push: %w", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO palace.ops (op_id, wing, kind, key, gone, at, rows)
		SELECT i, w, k, y, g, a, r::jsonb FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bool[], $6::text[], $7::text[])
			AS u (i, w, k, y, g, a, r)
		ON CONFLICT (op_id) DO NOTHING`, ids, ws, kinds, keys, gone, ats, rows); err != nil {
		return fmt.Errorf("team push: %w", err)
	}
	for _, op := range ops {
		if op.Kind != "drawer" || op.Gone || !purged(op.Rows) {
			continue
		}
		if err := erase(ctx, tx, op); err != nil {
			return fmt.Errorf("team push: purge drawer %s: %w", op.Key, err)
		}
	}
	for _, w := range slices.Sorted(maps.Keys(wings)) {
		if _, err := tx.Exec(ctx, `SELECT pg_notify($1, $2)`, Channel, w); err != nil {
			return fmt.Errorf("team push: %w", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("team push: %w", err)
	}
	return nil
}

// erase rewrites the earlier operations of a purged drawer as its
// tombstone, keeping each one's own removal times when they are earlier:
// a member that pulled such an operation before the purge holds those
// times, and the merge keeps the earliest, so a member pulling it after
// must find them too.
func erase(ctx context.Context, tx pgx.Tx, tomb store.TeamOp) error {
	rs, err := tx.Query(ctx, `SELECT seq, rows::text FROM palace.ops
		WHERE wing = $1 AND kind = 'drawer' AND key = $2 AND op_id <> $3 AND NOT gone`, tomb.Wing, tomb.Key, tomb.ID)
	if err != nil {
		return err
	}
	type old struct {
		seq  int64
		rows []store.Row
	}
	var olds []old
	for rs.Next() {
		var o old
		var text string
		if err := rs.Scan(&o.seq, &text); err != nil {
			rs.Close()
			return err
		}
		if err := json.Unmarshal([]byte(text), &o.rows); err != nil {
			rs.Close()
			return fmt.Errorf("operation %d: %w", o.seq, err)
		}
		olds = append(olds, o)
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return err
	}
	for _, o := range olds {
		row := store.Row{Kind: "drawer", Cols: maps.Clone(tomb.Rows[0].Cols)}
		if len(o.rows) == 1 {
			for _, c := range []string{"deleted_at", "purged_at"} {
				if v, _ := o.rows[0].Cols[c].(string); v != "" && store.EarlierTime(v, row.Cols[c]) {
					row.Cols[c] = v
				}
			}
		}
		b, err := json.Marshal([]store.Row{row})
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE palace.ops SET rows = $1::jsonb WHERE seq = $2`, string(b), o.seq); err != nil {
			return err
		}
	}
	return nil
}

func purged(rows []store.Row) bool {
	for _, r := range rows {
		if r.Kind == "drawer" && r.Cols["purged_at"] != nil {
			return true
		}
	}
	return false
}

// Pull reads up to limit operations of wing after sequence after, as one
// step of the connection's timeout.
func (c *Conn) Pull(ctx context.Context, wing string, after int64, limit int) (ops []store.TeamOp, err error) {
	err = c.within(ctx, "pull", c.timeout, func(ctx context.Context) error {
		ops, err = c.pull(ctx, wing, after, limit)
		return err
	})
	return ops, err
}

func (c *Conn) pull(ctx context.Context, wing string, after int64, limit int) ([]store.TeamOp, error) {
	read, _, err := c.access(ctx, wing)
	if err != nil {
		return nil, err
	}
	if !read {
		return nil, &AccessError{Wing: wing, Role: c.role}
	}
	rs, err := c.pg.Query(ctx, `SELECT seq, op_id, wing, kind, key, gone, at, coalesce(rows::text, '[]') FROM palace.ops
		WHERE wing = $1 AND seq > $2 ORDER BY seq LIMIT $3`, wing, after, limit)
	if err != nil {
		return nil, fmt.Errorf("team pull %s: %w", wing, err)
	}
	defer rs.Close()
	var ops []store.TeamOp
	for rs.Next() {
		var op store.TeamOp
		var rows string
		if err := rs.Scan(&op.Seq, &op.ID, &op.Wing, &op.Kind, &op.Key, &op.Gone, &op.At, &rows); err != nil {
			return nil, fmt.Errorf("team pull %s: %w", wing, err)
		}
		dec := json.NewDecoder(strings.NewReader(rows))
		dec.UseNumber()
		if err := dec.Decode(&op.Rows); err != nil {
			return nil, fmt.Errorf("team pull %s: operation %d: %w", wing, op.Seq, err)
		}
		ops = append(ops, op)
	}
	if err := rs.Err(); err != nil {
		return nil, fmt.Errorf("team pull %s: %w", wing, err)
	}
	return ops, nil
}

// SyncResult says what a sync did.
type SyncResult struct {
	Pushed int              `json:"pushed"`
	Pulled map[string]int   `json:"pulled"` // operations applied, by wing
	Seq    map[string]int64 `json:"seq"`    // the last sequence applied, by wing
	// Vectors is the embedding of what was pulled, when the palace has a
	// model: vectors never travel, each member embeds with its own model.
	Vectors *vectors.Summary `json:"vectors,omitempty"`
}

// Sync pushes the queued operations (of wing, "" for all), then pulls and
// applies every shared wing's (or wing's) operations after the last one
// applied, batch by batch, each batch in one local transaction. It can be
// cut at any point: a batch pushed but not yet dropped from the queue is
// pushed again and skipped by PostgreSQL; a batch pulled but not applied
// is pulled again.
func Sync(ctx context.Context, p *palace.Palace, c *Conn, wing string) (SyncResult, error) {
	res := SyncResult{Pulled: map[string]int{}, Seq: map[string]int64{}}
	st := p.Store
	shared, err := st.TeamWings(ctx)
	if err != nil {
		return res, err
	}
	if wing != "" {
		if !slices.Contains(shared, wing) {
			return res, fmt.Errorf("team: wing %q is not shared (palace team share %s)", wing, wing)
		}
		shared = []string{wing}
	}
	n, err := push(ctx, st, c, wing)
	res.Pushed = n
	if err != nil {
		return res, err
	}
	for _, w := range shared {
		after, err := LastSeq(ctx, st, w)
		if err != nil {
			return res, err
		}
		for {
			ops, err := c.Pull(ctx, w, after, Batch)
			if err != nil {
				return res, err
			}
			if len(ops) == 0 {
				break
			}
			for i := range ops {
				for j := range ops[i].Rows {
					if err := transfer.Derive(p, &ops[i].Rows[j]); err != nil {
						return res, fmt.Errorf("team pull %s: operation %d: %w", w, ops[i].Seq, err)
					}
				}
			}
			last := ops[len(ops)-1].Seq
			applied, err := st.TeamApply(ctx, ops, w, last)
			if err != nil {
				return res, err
			}
			res.Pulled[w] += applied
			after = last
			if len(ops) < Batch {
				break
			}
		}
		res.Seq[w] = after
	}
	if err := c.within(ctx, "sync", c.timeout, func(ctx context.Context) error {
		if _, err := c.pg.Exec(ctx, `UPDATE palace.members SET last_sync = now() WHERE role = current_user`); err != nil {
			return fmt.Errorf("team: %w", err)
		}
		return nil
	}); err != nil {
		return res, err
	}
	if err := st.SetMeta(ctx, store.MetaTeamSynced, time.Now().UTC().Format(time.RFC3339)); err != nil {
		return res, err
	}
	pulled := 0
	for _, n := range res.Pulled {
		pulled += n
	}
	if pulled > 0 {
		// What was applied is committed; a fill cut short resumes at the
		// next sync that pulls, or at 'palace reindex'. Without a model
		// the fill does nothing.
		sum, err := vectors.Fill(ctx, p, vectors.Options{})
		if sum.Model != "" {
			res.Vectors = &sum
		}
		if err != nil {
			return res, fmt.Errorf("team pull: embed the pulled drawers: %w", err)
		}
	}
	return res, nil
}

// push sends the queue (of wing, "" for all) batch by batch.
func push(ctx context.Context, st *store.Store, c *Conn, wing string) (int, error) {
	total := 0
	for {
		ops, err := st.TeamOutbox(ctx, wing, Batch)
		if err != nil {
			return total, err
		}
		if len(ops) == 0 {
			return total, nil
		}
		if err := c.Push(ctx, ops); err != nil {
			return total, err
		}
		if err := st.TeamPushed(ctx, wing, ops[len(ops)-1].N); err != nil {
			return total, err
		}
		total += len(ops)
		if len(ops) < Batch {
			return total, nil
		}
	}
}

// LastSeq is the last sequence of wing this palace applied (0: none).
func LastSeq(ctx context.Context, st *store.Store, wing string) (int64, error) {
	v, ok, err := st.Meta(ctx, store.MetaTeamSeq+"."+wing)
	if err != nil || !ok {
		return 0, err
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("team: bad sequence %q for wing %s", v, wing)
	}
	return n, nil
}

// Member is one member of the team.
type Member struct {
	Role     string     `json:"role"`
	Joined   time.Time  `json:"joined"`
	LastSync *time.Time `json:"last_sync,omitempty"`
}

// WingAccess is a wing of the team and what this member may do with it.
type WingAccess struct {
	Wing  string `json:"wing"`
	Read  bool   `json:"read"`
	Write bool   `json:"write"`
	Ops   int64  `json:"ops"` // operations in the log this member can read
}

// Status lists the members and the wings of the team, as one step of the
// connection's timeout.
func (c *Conn) Status(ctx context.Context) (ms []Member, ws []WingAccess, err error) {
	err = c.within(ctx, "status", c.timeout, func(ctx context.Context) error {
		ms, ws, err = c.status(ctx)
		return err
	})
	return ms, ws, err
}

func (c *Conn) status(ctx context.Context) ([]Member, []WingAccess, error) {
	rs, err := c.pg.Query(ctx, `SELECT role, joined_at, last_sync FROM palace.members ORDER BY role`)
	if err != nil {
		return nil, nil, fmt.Errorf("team status: %w", err)
	}
	var ms []Member
	for rs.Next() {
		var m Member
		if err := rs.Scan(&m.Role, &m.Joined, &m.LastSync); err != nil {
			rs.Close()
			return nil, nil, fmt.Errorf("team status: %w", err)
		}
		ms = append(ms, m)
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return nil, nil, fmt.Errorf("team status: %w", err)
	}
	rs, err = c.pg.Query(ctx, `SELECT w.wing, palace.can_read(w.wing, current_user), palace.can_write(w.wing, current_user),
		(SELECT count(*) FROM palace.ops o WHERE o.wing = w.wing) FROM palace.wings w ORDER BY w.wing`)
	if err != nil {
		return nil, nil, fmt.Errorf("team status: %w", err)
	}
	defer rs.Close()
	var ws []WingAccess
	for rs.Next() {
		var w WingAccess
		if err := rs.Scan(&w.Wing, &w.Read, &w.Write, &w.Ops); err != nil {
			return nil, nil, fmt.Errorf("team status: %w", err)
		}
		ws = append(ws, w)
	}
	return ms, ws, rs.Err()
}

// LocalPoll is how often a following member looks for local writes to
// push between notifications: a remember made through the CLI, or
// another process's server, queues them without telling this one.
const LocalPoll = 50 * time.Millisecond

// Follow keeps p in sync while ctx lives: it syncs, then waits for a
// push's notification on Channel, for local writes to be queued (checked
// every LocalPoll), or for interval (which covers a lost notification),
// and syncs again. A failure (PostgreSQL down, a cut connection) is
// reported to logf and retried after interval; local writes queue
// meanwhile. connect opens a fresh connection each time one is lost.
func Follow(ctx context.Context, p *palace.Palace, connect func(context.Context) (*Conn, error), interval time.Duration, logf func(string, ...any)) {
	var c *Conn
	defer func() {
		if c != nil {
			c.Close(context.WithoutCancel(ctx))
		}
	}()
	for ctx.Err() == nil {
		if c == nil || c.pg.IsClosed() {
			var err error
			if c, err = connect(ctx); err != nil {
				if ctx.Err() != nil {
					return
				}
				logf("team sync: %v (retrying in %s)", err, interval)
				c = nil
				sleep(ctx, interval)
				continue
			}
			if err := c.within(ctx, "listen", c.timeout, func(ctx context.Context) error {
				_, err := c.pg.Exec(ctx, `LISTEN `+Channel)
				return err
			}); err != nil {
				logf("team sync: listen: %v", err)
			}
		}
		if _, err := Sync(ctx, p, c, ""); err != nil && ctx.Err() == nil {
			logf("team sync: %v (retrying in %s)", err, interval)
			if !c.pg.IsClosed() {
				sleep(ctx, interval)
				continue
			}
		}
		wait(ctx, p.Store, c, interval, logf)
	}
}

// wait returns on a notification, on local writes queued, after
// interval, or when the connection is lost.
func wait(ctx context.Context, st *store.Store, c *Conn, interval time.Duration, logf func(string, ...any)) {
	end := time.Now().Add(interval)
	for ctx.Err() == nil && !c.pg.IsClosed() && time.Now().Before(end) {
		w, cancel := context.WithTimeout(ctx, min(LocalPoll, time.Until(end)))
		_, err := c.pg.WaitForNotification(w)
		cancel()
		switch {
		case err == nil:
			return
		case ctx.Err() != nil || c.pg.IsClosed():
			return
		case !errors.Is(err, context.DeadlineExceeded):
			logf("team sync: wait: %v", err)
			return
		}
		if queued, err := st.TeamQueued(ctx); err != nil || queued {
			return
		}
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
