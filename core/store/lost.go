package store

// A lost or damaged palace must never look like a new or empty one: a
// palace.db emptied, truncated or replaced while its audit log still
// records committed writes is refused by every command that opens it,
// naming what happened and how to recover, and nothing is written over it
// (no schema created, no audit line corrected).

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/palace-dev/palace/core/audit"
)

// ErrLostPalace is a palace database that is gone, empty or holds no
// schema while the audit log beside it records committed writes: the
// palace existed and was lost, it is not a new one.
var ErrLostPalace = errors.New("palace lost")

// ErrDamagedPalace is a palace database SQLite cannot read whole, found
// before any read: a file shorter than its header says.
var ErrDamagedPalace = errors.New("palace damaged")

// lostHelp says how to recover a lost palace, and how to start anew.
func lostHelp(abs string) string {
	return fmt.Sprintf("restore %s from a backup, or import your last export into a new palace "+
		"(`palace --home NEW_FOLDER import FILE.jsonl`); a damaged copy of the file (one cut short) can be salvaged with "+
		"`palace repair --into NEW_FOLDER` run on a home holding it; %s lists every write the palace held; "+
		"to start a new palace here instead, move %s away first",
		filepath.Join(abs, DBName), filepath.Join(abs, audit.DirName, audit.FileName), filepath.Join(abs, audit.DirName))
}

// checkLost refuses the palace database at path (in home abs) when it is
// missing, empty (0 bytes) or a database without tables (see noTables)
// and the audit log records committed writes. Only such a file costs a
// read of the log; checkSchemaLost covers a schema-less database whose
// WAL holds frames once it is open.
func checkLost(abs, path string) error {
	fi, err := os.Stat(path)
	state := "is empty (0 bytes)"
	switch {
	case errors.Is(err, fs.ErrNotExist):
		state = "does not exist"
	case err != nil:
		return nil // Open reports it with its own context
	case fi.Size() > 0 && !noTables(path):
		return nil
	case fi.Size() > 0:
		state = "holds no tables"
	}
	return lostIfAudited(abs, path, state)
}

// noTables reports whether the database file at path, read without
// SQLite, holds no table at all: its schema table on page 1 is a leaf
// without cells, and no WAL holds frames that may add them (a palace
// being created keeps its new schema in the WAL until a checkpoint).
// Caught before any connection opens, a database put in place of a lost
// palace is not even switched to WAL mode.
func noTables(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var h [108]byte
	if _, err := io.ReadFull(f, h[:]); err != nil || string(h[:16]) != sqliteHeader {
		return false
	}
	if wal, err := os.Stat(path + "-wal"); err == nil && wal.Size() > 0 {
		return false
	}
	return h[100] == pageTableLeaf && binary.BigEndian.Uint16(h[103:105]) == 0
}

// pageTableLeaf is the first byte of a table b-tree leaf page's header.
const pageTableLeaf = 0x0D

// lostIfAudited returns ErrLostPalace, saying the database at path is in
// state, when the audit log of home abs records committed writes.
func lostIfAudited(abs, path, state string) error {
	n, last, err := audit.ReadOnly(abs).Committed()
	if err != nil {
		return fmt.Errorf("palace database %s %s, and its audit log cannot be read to tell a new palace from a lost one: %w", path, state, err)
	}
	if n == 0 {
		return nil
	}
	return fmt.Errorf("palace home %s: %w: %s %s, but its audit log records committed writes (%d; the last, %s, at %s): "+
		"the palace was lost (emptied, truncated or replaced), it is not a new one; nothing was changed: %s",
		abs, ErrLostPalace, DBName, state, n, last.Op, last.Time.Format(time.RFC3339), lostHelp(abs))
}

// sqliteHeader is the start of every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

// shortFile is what the header of a database file cut short says.
type shortFile struct {
	pageSize int64
	have     int64 // whole pages the file holds
	want     int64 // pages the header records
}

// truncation reads the header of the database file at path and reports
// whether the file is shorter than the page count its header records:
// what a copy cut short, a full disk or a truncation leaves. SQLite
// refuses such a file whole ("database disk image is malformed") before
// it reads a single table. A file that is not a database, cannot be read
// or whose header count is not valid is left to SQLite, and so is one
// with a WAL that holds frames: a checkpoint cut short writes the header
// before the pages that extend the file, and the WAL still holds them all.
func truncation(path string) (shortFile, bool) {
	f, err := os.Open(path)
	if err != nil {
		return shortFile{}, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return shortFile{}, false
	}
	var h [100]byte
	if _, err := io.ReadFull(f, h[:]); err != nil || string(h[:16]) != sqliteHeader {
		return shortFile{}, false
	}
	if wal, err := os.Stat(path + "-wal"); err == nil && wal.Size() > 0 {
		return shortFile{}, false
	}
	size := int64(binary.BigEndian.Uint16(h[16:18]))
	if size == 1 {
		size = 65536
	}
	if size < 512 || size&(size-1) != 0 {
		return shortFile{}, false
	}
	pages := int64(binary.BigEndian.Uint32(h[28:32]))
	// The header's page count is valid only when the change counter
	// matches the version-valid-for number (SQLite's own rule).
	if pages == 0 || binary.BigEndian.Uint32(h[24:28]) != binary.BigEndian.Uint32(h[92:96]) {
		return shortFile{}, false
	}
	if fi.Size() >= pages*size {
		return shortFile{}, false
	}
	return shortFile{pageSize: size, have: fi.Size() / size, want: pages}, true
}

// checkTruncated refuses a database file cut short (see truncation), so
// that nothing opens it for writing and every command says what
// happened and how to salvage it.
func checkTruncated(path string) error {
	t, short := truncation(path)
	if !short {
		return nil
	}
	return fmt.Errorf("palace database %s: %w: the file holds %d of the %d pages its header records (%.1f of %.1f MB), "+
		"so part of every table is unreadable; nothing was changed: keep a copy of the palace folder; "+
		"`palace repair --into NEW_FOLDER` copies every row SQLite can still read into a new palace and lists what was lost",
		path, ErrDamagedPalace, t.have, t.want, float64(t.have*t.pageSize)/(1<<20), float64(t.want*t.pageSize)/(1<<20))
}

// checkSchemaLost refuses, before the migration would create a schema, a
// database that holds no table at all when the audit log records
// committed writes: what noTables cannot tell from the file alone, a
// database whose WAL holds frames.
func (s *Store) checkSchemaLost(ctx context.Context) error {
	var v, objects int
	if err := s.w.QueryRowContext(ctx, `SELECT (SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_master)`).
		Scan(&v, &objects); err != nil {
		return fmt.Errorf("palace database %s: read schema version: %w", s.path, err)
	}
	if v != 0 || objects != 0 {
		return nil
	}
	return lostIfAudited(s.home, s.path, "holds no tables")
}
