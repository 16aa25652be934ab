// Package audit keeps Palace's write log: one JSON line per write to the
// palace, appended before the write commits, in
// $PALACE_HOME/audit/write_log.jsonl (folder 0700, file 0600). It records
// who wrote what (ids, content hash and size), never the content itself.
//
// A line is written while the writer holds SQLite's write lock, so lines
// appear in commit order even with several processes. A write whose
// transaction fails gets a line with status "failed". A process that dies
// between the line and the commit leaves a line that looks applied; the
// store detects that on its next write (the line's sequence number is past
// the one committed in the database) and appends a correction, so readers
// see it as failed. Entry.Seq ties a correction to its write.
package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"
)

// File names and limits.
const (
	DirName  = "audit"
	FileName = "write_log.jsonl"
	// MaxBytes is the size at which the log rotates: write_log.jsonl.1 is
	// the previous file, .2 the one before, up to Keep of them.
	MaxBytes = 10 << 20
	Keep     = 5
)

// Statuses.
const (
	Applied = "applied"
	Failed  = "failed"
)

// Entry is one line of the log.
type Entry struct {
	Seq    int64     `json:"seq,omitempty"` // commit sequence; 0 for writes that failed before commit
	Time   time.Time `json:"time"`
	Actor  string    `json:"actor"`            // cli, mcp, lsp, hook
	Client string    `json:"client,omitempty"` // the client's name when known
	Op     string    `json:"op"`               // e.g. drawer.add, source.replace, kg.add
	IDs    []string  `json:"ids,omitempty"`    // drawer ids, source paths, triple ids
	Hash   string    `json:"hash,omitempty"`   // content hash of what was written
	Size   int64     `json:"size,omitempty"`   // bytes written
	Status string    `json:"status"`
	Error  string    `json:"error,omitempty"`
	// Corrects names the Seq of an earlier line this one marks failed.
	Corrects int64 `json:"corrects,omitempty"`
}

// Log appends to and reads the write log of one palace home.
type Log struct {
	dir      string
	maxBytes int64
}

// Open prepares the audit folder under home.
func Open(home string) (*Log, error) {
	dir := filepath.Join(home, DirName)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("audit log %s: %w", dir, err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, fmt.Errorf("audit log %s: %w", dir, err)
	}
	return &Log{dir: dir, maxBytes: MaxBytes}, nil
}

// Path is the current log file.
func (l *Log) Path() string { return filepath.Join(l.dir, FileName) }

// open opens the log for appending, creating it 0600. A symbolic link in
// its place is refused (O_NOFOLLOW): whoever planted it would have Palace
// append to, or create, a file of their choosing.
func (l *Log) open() (*os.File, error) {
	f, err := os.OpenFile(l.Path(), os.O_WRONLY|os.O_CREATE|os.O_APPEND|syscall.O_NOFOLLOW, 0o600)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("audit log %s is a symbolic link: Palace does not write through links (remove it): %w", l.Path(), err)
	}
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	return f, nil
}

// Append writes entries as lines, rotating first when the file is full. The
// file is locked for the append so lines from several processes never
// interleave, and synced so a line is on disk before its write commits.
func (l *Log) Append(es ...Entry) error {
	f, err := l.open()
	if err != nil {
		return err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("audit log: lock: %w", err)
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	if fi, err := f.Stat(); err == nil && fi.Size() >= l.maxBytes {
		if err := l.rotate(); err != nil {
			return err
		}
		// Append to the fresh file; the locked one is now .1.
		f.Close()
		if f, err = l.open(); err != nil {
			return err
		}
		defer f.Close()
	}
	var buf []byte
	for _, e := range es {
		b, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("audit log: %w", err)
		}
		buf = append(append(buf, b...), '\n')
	}
	if _, err := f.Write(buf); err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("audit log: %w", err)
	}
	return nil
}

// rotate shifts write_log.jsonl to .1, .1 to .2 and so on, dropping the
// oldest beyond Keep.
func (l *Log) rotate() error {
	for i := Keep - 1; i >= 1; i-- {
		from := fmt.Sprintf("%s.%d", l.Path(), i)
		if err := os.Rename(from, fmt.Sprintf("%s.%d", l.Path(), i+1)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("audit log: rotate: %w", err)
		}
	}
	if err := os.Rename(l.Path(), l.Path()+".1"); err != nil {
		return fmt.Errorf("audit log: rotate: %w", err)
	}
	return nil
}

// Filter selects entries for Read. Zero fields match everything.
type Filter struct {
	Since time.Time
	Actor string
	Op    string
}

// Read returns the entries of all kept files in the order they were
// written, with
// corrections applied: a write later found not committed reads as failed.
// The correction lines themselves are not returned.
func (l *Log) Read(f Filter) ([]Entry, error) {
	all, err := l.readAll()
	if err != nil {
		return nil, err
	}
	failed := map[int64]string{}
	for _, e := range all {
		if e.Corrects != 0 {
			failed[e.Corrects] = e.Error
		}
	}
	out := []Entry{}
	for _, e := range all {
		if e.Corrects != 0 {
			continue
		}
		if why, ok := failed[e.Seq]; ok && e.Seq != 0 {
			e.Status, e.Error = Failed, why
		}
		if (!f.Since.IsZero() && e.Time.Before(f.Since)) || (f.Actor != "" && e.Actor != f.Actor) || (f.Op != "" && e.Op != f.Op) {
			continue
		}
		out = append(out, e)
	}
	return out, nil // in file order, which is commit order
}

// readAll returns every line of all kept files, correction lines included,
// oldest file first.
func (l *Log) readAll() ([]Entry, error) {
	var all []Entry
	for i := Keep; i >= 0; i-- {
		p := l.Path()
		if i > 0 {
			p = fmt.Sprintf("%s.%d", p, i)
		}
		es, err := readFile(p)
		if err != nil {
			return nil, err
		}
		all = append(all, es...)
	}
	return all, nil
}

// tailBytes is how much of the log's end Tail reads: far more than the
// lines a crashed writer can leave behind, far less than the whole file.
const tailBytes = 256 << 10

// Tail returns the applied entries near the end of the current file whose
// Seq is above after: lines of writes that never committed, for the store
// to correct. Every write calls it, so it reads lines from the end and
// stops at the first applied line at or below after: writers append under
// the database's write lock, so sequence numbers grow down the file, and
// the line before a write is nearly always the previous committed one.
// Only the fields it needs are decoded; a mine's line can list thousands
// of ids.
func (l *Log) Tail(after int64) ([]Entry, error) {
	f, err := os.Open(l.Path())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	// The last few KiB nearly always hold the committed line; the whole
	// tail is read only when they do not.
	es, found, err := tailOf(f, fi.Size(), tailFirst, after)
	if err != nil || found || tailFirst >= fi.Size() {
		return es, err
	}
	es, _, err = tailOf(f, fi.Size(), tailBytes, after)
	return es, err
}

// tailFirst is how much of the log's end Tail reads first.
const tailFirst = 16 << 10

// tailOf scans the last n bytes of the log f (size bytes long) from the
// end for applied lines past after, and reports whether it reached the
// applied line at or below after, where the scan can stop.
func tailOf(f *os.File, size, n, after int64) ([]Entry, bool, error) {
	start := max(size-n, 0)
	b := make([]byte, size-start)
	if _, err := f.ReadAt(b, start); err != nil && !errors.Is(err, io.EOF) {
		return nil, false, fmt.Errorf("audit log: %w", err)
	}
	if start > 0 { // drop the partial first line
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	var out []Entry
	found := false
	for len(b) > 0 {
		i := bytes.LastIndexByte(b, '\n')
		line := b[i+1:]
		b = b[:max(i, 0)]
		var e struct {
			Seq      int64  `json:"seq"`
			Op       string `json:"op"`
			Status   string `json:"status"`
			Corrects int64  `json:"corrects"`
		}
		if len(line) == 0 || json.Unmarshal(line, &e) != nil || e.Corrects != 0 || e.Status != Applied {
			continue
		}
		if e.Seq > 0 && e.Seq <= after {
			found = true
			break
		}
		if e.Seq > after {
			out = append(out, Entry{Seq: e.Seq, Op: e.Op, Status: e.Status})
		}
	}
	slices.Reverse(out)
	return out, found, nil
}

// readFile parses one log file; a missing file is empty, and a torn last
// line (a crash mid-append) is skipped. Anything but a regular file is
// refused: a device or a FIFO in the log's place (/dev/zero, /dev/full)
// never ends, and reading it would grow one line without bound.
func readFile(path string) ([]Entry, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("audit log %s is not a regular file (%v)", path, fi.Mode().Type())
	}
	var out []Entry
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			var e Entry
			if json.Unmarshal(line, &e) == nil {
				out = append(out, e)
			}
		}
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("audit log %s: %w", path, err)
		}
	}
}
