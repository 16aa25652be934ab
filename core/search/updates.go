package search

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/palace-dev/palace/core/store"
)

// newerFirst puts a note before the older drawers it may update (their ids
// in its metadata's store.MetaUpdates, written by remember) when both are
// hit: a correction answers before what it corrects, whatever their
// scores. The note moves up to just before the first of them; the other
// hits keep their order. Ids in the metadata come from the palace, but an
// import may hold any, so the moves are bounded: a cycle cannot loop.
func newerFirst(hs []Hit) []Hit {
	for range len(hs) {
		moved := false
		at := make(map[string]int, len(hs))
		for i, h := range hs {
			at[h.ID] = i
		}
		for i, h := range hs {
			to := i
			for _, id := range updatesOf(h.Metadata) {
				if j, ok := at[id]; ok && j < to {
					to = j
				}
			}
			if to == i {
				continue
			}
			h.Why = strings.TrimPrefix(h.Why+"; may update "+hs[to].ID+", which it comes before", "; ")
			hs = slices.Insert(slices.Delete(hs, i, i+1), to, h)
			moved = true
			break
		}
		if !moved {
			break
		}
	}
	return hs
}

// updatesOf reads the ids a note's metadata says it may update.
func updatesOf(meta json.RawMessage) []string {
	if len(meta) == 0 || !strings.Contains(string(meta), `"`+store.MetaUpdates+`"`) {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(meta, &m) != nil {
		return nil
	}
	var ids []string
	if json.Unmarshal(m[store.MetaUpdates], &ids) != nil {
		return nil
	}
	return ids
}
