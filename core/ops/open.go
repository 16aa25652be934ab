package ops

import (
	"context"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// Open opens the palace at home ("": $PALACE_HOME, else ~/.palace; "~/"
// is the user's home), creating it if needed. Opening may create or
// migrate the schema, a write: a palace another process is writing is
// waited for, as for any write.
func Open(ctx context.Context, home string, o palace.Options) (*palace.Palace, error) {
	home, err := store.ResolveHome(home)
	if err != nil {
		return nil, err
	}
	return retryBusy(ctx, "open palace "+home, func() (*palace.Palace, error) {
		return palace.Open(home, o)
	})
}
