package ops

import (
	"context"
	"strings"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/palace"
)

// checkWing refuses a filter on a wing the palace does not hold: a typo
// would otherwise read as "nothing matches", the silent failure a memory
// must not have. The error lists the wings there are.
func checkWing(ctx context.Context, p *palace.Palace, field, wing string) error {
	if wing == "" {
		return nil
	}
	if ok, err := p.Store.HasWing(ctx, wing); ok || err != nil {
		return err
	}
	wings, err := p.Store.Wings(ctx)
	if err != nil {
		return err
	}
	if len(wings) == 0 {
		return input.Invalid(field, "%s: no such wing (the palace is empty)", input.Quote(wing))
	}
	const show = 20
	list := wings
	more := ""
	if len(list) > show {
		list, more = list[:show], ", ..."
	}
	return input.Invalid(field, "%s: no such wing (wings: %s%s)", input.Quote(wing), strings.Join(list, ", "), more)
}
