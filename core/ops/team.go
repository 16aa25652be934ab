package ops

import (
	"context"
	"errors"
	"os"
	"slices"
	"time"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/route"
	"github.com/palace-dev/palace/core/store"
	"github.com/palace-dev/palace/core/team"
)

// TeamURLEnv names the environment variable that holds the team's
// PostgreSQL connection string; it wins over the one `team join` kept.
const TeamURLEnv = "PALACE_TEAM_URL"

// TeamTimeoutEnv names the environment variable that bounds each step of
// a team operation (a Go duration: "30s", "2m") when the request names no
// bound; unset, TeamTimeout. It is how 'palace serve' is given one.
const TeamTimeoutEnv = "PALACE_TEAM_TIMEOUT"

// TeamTimeout is the bound of each step when neither the request nor
// TeamTimeoutEnv names one.
const TeamTimeout = team.Timeout

// checkTimeout accepts 0 (the default) or a positive bound.
func checkTimeout(d time.Duration) error {
	if d < 0 {
		return input.Invalid("timeout", "%s: want a positive duration such as 10s or 2m", d)
	}
	return nil
}

// teamTimeout is the bound of each step of a team operation: d when set,
// else the one TeamTimeoutEnv sets, else TeamTimeout.
func teamTimeout(d time.Duration) (time.Duration, error) {
	if d > 0 {
		return d, nil
	}
	v := os.Getenv(TeamTimeoutEnv)
	if v == "" {
		return TeamTimeout, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, input.Invalid(TeamTimeoutEnv, "%s is not a positive duration such as 10s or 2m", input.Quote(v))
	}
	return d, nil
}

// teamDial connects to url, each step bounded as teamTimeout says.
func teamDial(ctx context.Context, url string, timeout time.Duration) (*team.Conn, error) {
	timeout, err := teamTimeout(timeout)
	if err != nil {
		return nil, err
	}
	return team.Connect(ctx, url, timeout)
}

// ErrNoTeam is returned when the palace has joined no team.
var ErrNoTeam = errors.New("this palace has joined no team: palace team join URL (or set " + TeamURLEnv + ")")

// teamConnect opens the team database this palace joined. The connection
// string never appears in an error, a log or the audit log.
func teamConnect(ctx context.Context, p *palace.Palace, timeout time.Duration) (*team.Conn, error) {
	url := os.Getenv(TeamURLEnv)
	if url == "" {
		v, ok, err := p.Store.Meta(ctx, store.MetaTeamURL)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, ErrNoTeam
		}
		url = v
	}
	return teamDial(ctx, url, timeout)
}

// TeamJoinRequest names the team database.
type TeamJoinRequest struct {
	// URL is a PostgreSQL connection string ("": $PALACE_TEAM_URL).
	URL string `json:"-"`
	// Timeout bounds each step the team server must answer (0:
	// $PALACE_TEAM_TIMEOUT, else TeamTimeout).
	Timeout time.Duration `json:"-"`
}

// Validate names the first bad field.
func (r TeamJoinRequest) Validate() error {
	if r.URL == "" && os.Getenv(TeamURLEnv) == "" {
		return input.Invalid("url", "is empty and "+TeamURLEnv+" is unset")
	}
	return checkTimeout(r.Timeout)
}

// TeamJoinResult says who joined.
type TeamJoinResult struct {
	Role string `json:"role"`
}

// TeamJoin connects to the team database (creating its schema when this
// role may and it is missing), records this role as a member and keeps
// the connection string in the palace (a local meta key no export
// carries), unless it came from $PALACE_TEAM_URL.
func TeamJoin(ctx context.Context, p *palace.Palace, r TeamJoinRequest) (TeamJoinResult, error) {
	if err := r.Validate(); err != nil {
		return TeamJoinResult{}, err
	}
	url := r.URL
	if url == "" {
		url = os.Getenv(TeamURLEnv)
	}
	c, err := teamDial(ctx, url, r.Timeout)
	if err != nil {
		return TeamJoinResult{}, err
	}
	defer c.Close(context.WithoutCancel(ctx))
	if err := c.Join(ctx); err != nil {
		return TeamJoinResult{}, err
	}
	if r.URL != "" {
		if _, err := retryBusy(ctx, "team join", func() (struct{}, error) {
			return struct{}{}, p.Store.SetMeta(ctx, store.MetaTeamURL, r.URL)
		}); err != nil {
			return TeamJoinResult{}, err
		}
	}
	return TeamJoinResult{Role: c.Role()}, nil
}

// TeamShareRequest names a wing to share or stop sharing.
type TeamShareRequest struct {
	Wing string `json:"wing"`
	// Timeout bounds each step of sharing, as TeamJoinRequest's does;
	// unsharing never asks the team server.
	Timeout time.Duration `json:"-"`
}

// Validate names the first bad field.
func (r TeamShareRequest) Validate() error {
	if err := checkText("wing", r.Wing); err != nil {
		return err
	}
	return checkTimeout(r.Timeout)
}

// TeamShareResult says what sharing did.
type TeamShareResult struct {
	Wing   string `json:"wing"`
	Write  bool   `json:"write"`  // this member may write it
	Queued int    `json:"queued"` // rows of the wing queued for the next push
}

// TeamShare shares a wing: it is created in the team database when new
// (this member becomes its writer), and its rows are queued for the next
// sync. A wing of the team this palace does not hold yet is shared too, so
// the next sync pulls it. A wing this member may not read is refused,
// naming it.
func TeamShare(ctx context.Context, p *palace.Palace, r TeamShareRequest) (TeamShareResult, error) {
	res := TeamShareResult{Wing: r.Wing}
	if err := r.Validate(); err != nil {
		return res, err
	}
	if err := route.CheckName("wing", r.Wing); err != nil {
		return res, err
	}
	c, err := teamConnect(ctx, p, r.Timeout)
	if err != nil {
		return res, err
	}
	defer c.Close(context.WithoutCancel(ctx))
	if res.Write, err = c.Share(ctx, r.Wing); err != nil {
		return res, err
	}
	res.Queued, err = retryBusy(ctx, "team share", func() (int, error) { return p.Store.TeamShare(ctx, r.Wing) })
	return res, err
}

// TeamUnshare stops sharing a wing from this palace: its queued writes
// are dropped and nothing more of it is pulled. The team keeps it.
func TeamUnshare(ctx context.Context, p *palace.Palace, r TeamShareRequest) (TeamShareResult, error) {
	res := TeamShareResult{Wing: r.Wing}
	if err := r.Validate(); err != nil {
		return res, err
	}
	was, err := retryBusy(ctx, "team unshare", func() (bool, error) { return p.Store.TeamUnshare(ctx, r.Wing) })
	if err != nil {
		return res, err
	}
	if !was {
		return res, input.Invalid("wing", "%q is not shared", r.Wing)
	}
	return res, nil
}

// TeamGrantRequest gives a role access to a wing.
type TeamGrantRequest struct {
	Wing  string `json:"wing"`
	Role  string `json:"role"`
	Write bool   `json:"write"`
	// Revoke takes the role's access away instead.
	Revoke bool `json:"revoke"`
	// Timeout bounds the step, as TeamJoinRequest's does.
	Timeout time.Duration `json:"-"`
}

// Validate names the first bad field.
func (r TeamGrantRequest) Validate() error {
	if err := checkText("wing", r.Wing); err != nil {
		return err
	}
	if err := checkText("role", r.Role); err != nil {
		return err
	}
	return checkTimeout(r.Timeout)
}

// TeamGrant gives (or revokes) a role's access to a wing; only a writer
// of the wing may.
func TeamGrant(ctx context.Context, p *palace.Palace, r TeamGrantRequest) (TeamGrantRequest, error) {
	if err := r.Validate(); err != nil {
		return r, err
	}
	c, err := teamConnect(ctx, p, r.Timeout)
	if err != nil {
		return r, err
	}
	defer c.Close(context.WithoutCancel(ctx))
	if r.Revoke {
		return r, c.Revoke(ctx, r.Wing, r.Role)
	}
	return r, c.Grant(ctx, r.Wing, r.Role, r.Write)
}

// SyncRequest selects what a sync covers.
type SyncRequest struct {
	Wing string `json:"wing,omitempty"` // "": every shared wing
	// Timeout bounds each step (connecting, one batch pushed or pulled),
	// as TeamJoinRequest's does; a long sync of many batches is not cut.
	Timeout time.Duration `json:"-"`
}

// Validate names the first bad field; every field is optional.
func (r SyncRequest) Validate() error { return checkTimeout(r.Timeout) }

// SyncResult says what a sync did.
type SyncResult = team.SyncResult

// Sync pushes this palace's queued writes to shared wings, then pulls and
// applies the team's.
func Sync(ctx context.Context, p *palace.Palace, r SyncRequest) (SyncResult, error) {
	if err := r.Validate(); err != nil {
		return SyncResult{}, err
	}
	c, err := teamConnect(ctx, p, r.Timeout)
	if err != nil {
		return SyncResult{}, err
	}
	defer c.Close(context.WithoutCancel(ctx))
	return team.Sync(ctx, p, c, r.Wing)
}

// TeamStatusRequest bounds the status read.
type TeamStatusRequest struct {
	// Timeout bounds each step, as TeamJoinRequest's does.
	Timeout time.Duration `json:"-"`
}

// Validate names the first bad field; every field is optional.
func (r TeamStatusRequest) Validate() error { return checkTimeout(r.Timeout) }

// TeamStatusResult is a team palace's state as this member sees it.
type TeamStatusResult struct {
	Joined  bool              `json:"joined"`
	Role    string            `json:"role,omitempty"`
	Members []team.Member     `json:"members,omitempty"`
	Wings   []team.WingAccess `json:"team_wings,omitempty"`
	Shared  []TeamSharedWing  `json:"shared"`
	Synced  string            `json:"last_sync,omitempty"`
	// Contradictions are the graph's functional predicates holding
	// different values over overlapping dates, as 'kg check' lists them: a
	// sync keeps both members' facts, and the later start is current.
	Contradictions []KGContradiction `json:"contradictions"`
	Error          string            `json:"error,omitempty"` // the team database could not be reached
}

// TeamSharedWing is a wing this palace shares.
type TeamSharedWing struct {
	Wing    string `json:"wing"`
	Pending int    `json:"pending"` // local writes not pushed yet
	Seq     int64  `json:"seq"`     // the last operation applied
}

// TeamStatus reports the members, the wings, this palace's shared wings
// with their pending operations and last sync, and the contradictions of
// the knowledge graph. It works offline, or against a team server that
// does not answer: the team's part is then replaced by Error.
func TeamStatus(ctx context.Context, p *palace.Palace, r TeamStatusRequest) (TeamStatusResult, error) {
	var res TeamStatusResult
	if err := r.Validate(); err != nil {
		return res, err
	}
	wings, err := p.Store.TeamWings(ctx)
	if err != nil {
		return res, err
	}
	pending, err := p.Store.TeamPending(ctx)
	if err != nil {
		return res, err
	}
	for _, w := range wings {
		seq, err := team.LastSeq(ctx, p.Store, w)
		if err != nil {
			return res, err
		}
		res.Shared = append(res.Shared, TeamSharedWing{Wing: w, Pending: pending[w], Seq: seq})
	}
	res.Shared = slices.Clip(res.Shared)
	if res.Shared == nil {
		res.Shared = []TeamSharedWing{}
	}
	res.Synced, _, err = p.Store.Meta(ctx, store.MetaTeamSynced)
	if err != nil {
		return res, err
	}
	if res.Contradictions, err = kg.Contradictions(ctx, p.Store); err != nil {
		return res, err
	}
	c, err := teamConnect(ctx, p, r.Timeout)
	switch {
	case errors.Is(err, ErrNoTeam):
		return res, nil
	case errors.Is(err, input.ErrInvalid):
		// A bad setting is the caller's to fix, not the database down.
		return res, err
	}
	res.Joined = true
	if err != nil {
		res.Error = err.Error()
		return res, nil
	}
	defer c.Close(context.WithoutCancel(ctx))
	res.Role = c.Role()
	res.Members, res.Wings, err = c.Status(ctx)
	if err != nil {
		res.Error = err.Error()
	}
	return res, nil
}

// TeamPoll is how often a serving palace syncs when no notification came.
const TeamPoll = 5 * time.Second

// TeamFollow keeps the palace at home in sync with its team while ctx
// lives (`palace serve`): each push by a member notifies the others,
// which pull at once; a poll every TeamPoll covers lost notifications. A
// server that does not answer a step within TeamTimeoutEnv's bound is
// logged and tried again after TeamPoll, like one that is down.
// A palace that joined no team returns at once. It opens its own handle
// on the palace, so the server's handle needs no change, and reports to
// logf (never stdout, which carries the protocol).
func TeamFollow(ctx context.Context, home string, o palace.Options, logf func(string, ...any)) error {
	// The server creates the palace once its flags are accepted; the
	// follower never does, so a refused serve leaves nothing behind. With
	// no palace there is no joined team, unless the environment names one.
	home, err := store.ResolveHome(home)
	if err != nil {
		return err
	}
	for store.CheckExists(home) != nil {
		if os.Getenv(TeamURLEnv) == "" {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(TeamPoll / 10):
		}
	}
	// A bad timeout would fail every retry the same way: say it once.
	if _, err := teamTimeout(0); err != nil {
		return err
	}
	o.NoCreate = true
	p, err := Open(ctx, home, o)
	if err != nil {
		return err
	}
	defer p.Close()
	if _, ok, err := p.Store.Meta(ctx, store.MetaTeamURL); err != nil || (!ok && os.Getenv(TeamURLEnv) == "") {
		return err
	}
	team.Follow(ctx, p, func(ctx context.Context) (*team.Conn, error) { return teamConnect(ctx, p, 0) }, TeamPoll, logf)
	return nil
}
