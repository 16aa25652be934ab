package mine

import (
	"context"

	"github.com/palace-dev/palace/core/store"
)

// skipMemory is what earlier mines recorded of the files they read and
// refused for what they hold, so that this one skips them unread when
// their size and mtime are as recorded, as it skips an unchanged source.
// On Go's src those are 752 files (736 binary) a no-op mine read again.
type skipMemory struct {
	had  map[string]store.SkippedFile
	seen map[string]bool // paths this mine skipped again, recalled or read
	put  []store.SkippedFile
	// limit is the largest file a record may decide alone: a larger one
	// is now too large, which a mine says before reading anything.
	limit int64
	// off in ModeConvos, where a file not in a chat format is skipped as
	// not a conversation before it is read.
	off bool
}

// remembered says whether a skip of this reason follows from a file's
// content alone, so that the same bytes are skipped the same way again.
func remembered(reason string) bool {
	return reason == ReasonBinary || reason == ReasonInvalidUTF8
}

func newSkipMemory(had map[string]store.SkippedFile, o Options) *skipMemory {
	return &skipMemory{had: had, seen: map[string]bool{}, limit: min(o.MaxSize, o.MaxConvoSize), off: o.Mode == ModeConvos}
}

// recall returns the recorded skip of a file unchanged since it was read.
func (k *skipMemory) recall(c candidate) (Skip, bool) {
	f, ok := k.had[c.path]
	if k.off || !ok || f.Size != c.info.Size() || f.Mtime != c.info.ModTime().UnixNano() || f.Size > k.limit {
		return Skip{}, false
	}
	k.seen[c.path] = true
	return Skip{Path: c.path, Reason: f.Reason, Detail: f.Detail}, true
}

// note records a skip a worker found by reading the file.
func (k *skipMemory) note(c candidate, s Skip) {
	if k.off || !remembered(s.Reason) {
		return
	}
	k.seen[c.path] = true
	k.put = append(k.put, store.SkippedFile{Path: c.path, Reason: s.Reason, Detail: s.Detail,
		Mtime: c.info.ModTime().UnixNano(), Size: c.info.Size()})
}

// save writes the new records; after a complete mine it also forgets the
// records of files it did not skip again (gone, changed or now mined).
func (k *skipMemory) save(ctx context.Context, st *store.Store, wing string, complete bool) error {
	if k.off {
		return nil
	}
	var drop []string
	if complete {
		for p := range k.had {
			if !k.seen[p] {
				drop = append(drop, p)
			}
		}
	}
	return st.RecordSkippedFiles(ctx, wing, k.put, drop)
}
