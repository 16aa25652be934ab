package store

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// ReadableCopy makes the palace database of home, when it is cut short
// (see truncation), readable by SQLite again in a copy: dir/palace.db
// holds the file's whole pages with the header's page count cleared, so
// SQLite sizes the database by the file instead of refusing it whole, and
// reads every row whose pages the file still holds (a read that reaches a
// missing page fails, and ExportRows' salvage reads around it). SQLite's
// writable_schema would do the same on the file itself, but the driver
// sets it only after its first PRAGMA has already refused the file.
//
// It returns false, copying nothing, when the file is not cut short: it
// is read where it is. The palace itself is only read; dir must exist,
// and the caller removes the copy.
func ReadableCopy(home, dir string) (bool, error) {
	abs, err := filepath.Abs(home)
	if err != nil {
		return false, fmt.Errorf("palace home %s: %w", home, err)
	}
	path := filepath.Join(abs, DBName)
	t, short := truncation(path)
	if !short {
		return false, nil
	}
	dst := filepath.Join(dir, DBName)
	if err := copyPages(path, dst, t.have*t.pageSize); err != nil {
		os.Remove(dst)
		return false, fmt.Errorf("copy the readable pages of %s: %w", path, err)
	}
	return true, nil
}

// copyPages copies the first n bytes of src to a new file dst (0600)
// with the header's page count (bytes 28 to 31) cleared: SQLite then
// takes the page count from the file's size.
func copyPages(src, dst string, n int64) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.CopyN(out, in, n); err != nil {
		out.Close()
		return err
	}
	if _, err := out.WriteAt(make([]byte, 4), 28); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
