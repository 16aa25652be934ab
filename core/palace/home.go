package palace

import "github.com/palace-dev/palace/core/store"

// ResolveHome is the palace home a front opens: explicit (a --home flag, an
// editor's setting) when set, else $PALACE_HOME, else ~/.palace, with a
// leading "~/" expanded. Fronts ask here, not the store, which they do not
// import.
func ResolveHome(explicit string) (string, error) { return store.ResolveHome(explicit) }
