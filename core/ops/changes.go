package ops

import (
	"context"
	"time"

	"github.com/palace-dev/palace/core/palace"
)

// Changed is the palace after a change, as an editor refreshes it: its
// live drawers and when the change was seen (RFC 3339).
type Changed struct {
	Drawers int    `json:"drawers"`
	At      string `json:"at"`
}

// ChangeEvery is how often WatchChanges looks: changes closer together
// are reported once, so a mine that commits a batch every few
// milliseconds costs a client at most one refresh per interval.
const ChangeEvery = 500 * time.Millisecond

// WatchChanges calls changed after the palace database changes, whoever
// wrote it (this process, the CLI, an agent over MCP), at most once per
// every, until ctx ends; it then returns nil. It returns an error only
// when the database cannot be watched or read.
func WatchChanges(ctx context.Context, p *palace.Palace, every time.Duration, changed func(Changed)) error {
	w, err := p.Store.WatchChanges(ctx)
	if err != nil {
		return err
	}
	defer w.Close()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		ok, drawers, err := w.Poll(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if ok {
			changed(Changed{Drawers: drawers, At: time.Now().UTC().Format(time.RFC3339)})
		}
	}
}
