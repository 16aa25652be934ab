package audit

import "path/filepath"

// ReadOnly is the log of a palace this process may only read: the folder
// is neither created nor re-moded, so opening changes nothing on disk.
// Appending to it fails like any write to a read-only palace.
func ReadOnly(home string) *Log {
	return &Log{dir: filepath.Join(home, DirName), maxBytes: MaxBytes}
}
