// Package fsx holds the checks a front makes on a path it is handed before
// it reads or mines it: whether the path, its symbolic links resolved, lies
// inside the folders the user allowed, and reading a small regular file
// without blocking on a FIFO or reading past a limit.
package fsx

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Within resolves path's symbolic links and reports which of roots holds
// it, roots resolved too, so a link inside a root that leads out of it does
// not count. A root holds itself and everything below it; when several do,
// the innermost wins. at is the index in roots of the holding root, or -1
// when none holds it; a root that does not resolve (missing) holds nothing.
// err is filepath.EvalSymlinks's error for path, which names the path, so
// each caller can word the refusal for its own field.
func Within(path string, roots []string) (real string, at int, err error) {
	real, err = filepath.EvalSymlinks(path)
	if err != nil {
		return "", -1, err
	}
	at = -1
	var best string
	for i, r := range roots {
		dir, err := filepath.EvalSymlinks(r)
		if err != nil {
			continue
		}
		// Two roots holding the same path are one inside the other, so
		// the longer resolved one is the inner.
		if under(real, dir) && (at < 0 || len(dir) > len(best)) {
			at, best = i, dir
		}
	}
	return real, at, nil
}

// under reports whether path is dir or lies below it (both clean and
// absolute). filepath.Rel rather than a prefix test, so a root of "/"
// holds everything and /ab is not inside /a.
func under(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return false
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)))
}

// ErrNotRegular is matched (errors.Is) by ReadRegular's error for a folder,
// FIFO, device or socket.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is matched (errors.Is) by ReadRegular's error for a file
// over its limit.
var ErrTooLarge = errors.New("over the size limit")

// ReadRegular reads the regular file at path (symbolic links followed) if
// it holds at most max bytes. A FIFO or device reports size 0 and would
// block or never end, so only regular files are read: the file is checked
// before it is opened (opening a FIFO blocks until it has a writer), opened
// without blocking in case it was swapped for one meanwhile, checked again,
// and never read past max, even if it grows.
func ReadRegular(path string, max int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := regular(path, fi, max); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := regular(path, fi, max); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s is %w of %d bytes", path, ErrTooLarge, max)
	}
	return b, nil
}

// regular refuses what ReadRegular must not read, from fi.
func regular(path string, fi os.FileInfo, max int64) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is %w", path, ErrNotRegular)
	}
	if fi.Size() > max {
		return fmt.Errorf("%s is %w of %d bytes (%d bytes)", path, ErrTooLarge, max, fi.Size())
	}
	return nil
}
