// Package store owns Palace's SQLite file: every SQL statement and every
// migration lives here, so the rest of the core speaks in drawers, sources
// and taxonomy entries, never in SQL.
//
// One file, $PALACE_HOME/palace.db, in WAL mode. Writes go through a single
// connection opened with _txlock=immediate (a deferred transaction that later
// upgrades to a write lock fails with SQLITE_BUSY_SNAPSHOT no matter how long
// busy_timeout is; an immediate one waits its turn), reads through a separate
// read-only pool so searches never wait for a mine.
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"syscall"

	// Registers the "sqlite3" driver; FTS5 is enabled by the sqlite_fts5 build tag.
	"github.com/mattn/go-sqlite3"

	"github.com/palace-dev/palace/core/audit"
)

// DBName is the file name of the palace database inside the home directory.
const DBName = "palace.db"

// Store is an open palace database.
type Store struct {
	home  string
	path  string
	w     *sql.DB // the single writer connection
	r     *sql.DB // read-only pool
	audit *audit.Log
	turns turns      // lets other processes' writers in between a mine's batches
	stats writeStats // the writer's running totals (WriteStats)
	who   sync.Mutex // guards actor and client, which a server sets late
	actor string     // who writes, for the audit log
	// client is the front's client name when known (an MCP client, an
	// editor).
	client string
	// readOnly is set when this user may not write the palace; w and r
	// are then the same read-only pool.
	readOnly bool
	// immutable is set when the read-only palace was opened immutable (see
	// openReadOnly); connections opened later open it the same way.
	immutable bool
}

// DefaultHome returns $PALACE_HOME, else ~/.palace.
func DefaultHome() (string, error) {
	if h := os.Getenv("PALACE_HOME"); h != "" {
		return h, nil
	}
	u, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find home directory (set PALACE_HOME): %w", err)
	}
	return filepath.Join(u, ".palace"), nil
}

// ErrNoPalace is a home that holds no palace database.
var ErrNoPalace = errors.New("no palace here")

// CheckExists returns an error wrapping ErrNoPalace, naming home, when home
// holds no palace database: what a read command says about a mistyped
// home instead of creating an empty palace there. A database that is
// missing, empty or without tables while the audit log records committed
// writes is ErrLostPalace instead.
func CheckExists(home string) error {
	abs, err := filepath.Abs(home)
	if err != nil {
		return fmt.Errorf("palace home %s: %w", home, err)
	}
	path := filepath.Join(abs, DBName)
	if err := checkLost(abs, path); err != nil {
		return err
	}
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("palace home %s: %w (%s does not exist; check --home or PALACE_HOME, or create one with `palace mine`)", abs, ErrNoPalace, DBName)
		}
		return fmt.Errorf("palace home %s: %w", abs, err)
	}
	return nil
}

// Open creates home (0700) if needed, opens or creates palace.db (0600) and
// brings its schema up to date. A lost palace (a database missing, empty
// or without tables beside an audit log of committed writes) is
// ErrLostPalace and a truncated one ErrDamagedPalace, and nothing is
// created or written in either: a schema created over a lost palace would
// make it look new and empty.
func Open(home string) (*Store, error) {
	abs, err := filepath.Abs(home)
	if err != nil {
		return nil, fmt.Errorf("palace home %s: %w", home, err)
	}
	path := filepath.Join(abs, DBName)
	if err := checkLost(abs, path); err != nil {
		return nil, err
	}
	if err := checkTruncated(path); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("create palace home %s: %w", abs, err)
	}
	registerVec()
	// Create the file ourselves so its mode is 0600 whatever the umask is,
	// and never through a symbolic link planted in its place.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		if _, serr := os.Stat(path); serr == nil && (errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)) {
			return openReadOnly(abs, path)
		}
		return nil, fmt.Errorf("open palace database %s: %w", path, err)
	}
	// The first process sets a new file up (setPageSize) under an exclusive
	// flock of it, which SQLite's own (fcntl) locks ignore: a process
	// opening the palace at the same moment waits, then finds it set up.
	// Without it, two processes both set the empty file up, or one read it
	// through the other's rollback journal as it vanished ("database is
	// locked", "disk I/O error").
	var fi os.FileInfo
	if err = flock(f, syscall.LOCK_EX); err == nil {
		fi, err = f.Stat()
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open palace database %s: %w", path, err)
	}
	if fi.Size() == 0 {
		err = setPageSize(path)
	}
	f.Close() // releases the flock
	if err != nil {
		return nil, err
	}

	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_busy_timeout", "10000")
	q.Set("_synchronous", "NORMAL")
	q.Set("_txlock", "immediate")
	q.Set("_foreign_keys", "1")
	// Freed space and pages are zeroed, so what a write removes (a purged
	// drawer, a replaced chunk) does not linger in the file's free space.
	// It costs writes only where pages are freed whole.
	q.Set("_secure_delete", "1")
	// 8 MiB of page cache for the writer: a cold mine of Go's src is as
	// fast as with 16 or 64 MiB and peaks lower (about 8 MB under 16 MiB,
	// 50 MB more under 64 MiB); a save's transaction is as fast (docs/performance.md,
	// Against the floor). 4 MiB saved 3 MB more and was slower.
	q.Set("_cache_size", "-8192")
	// database/sql hands a connection to one goroutine at a time, so
	// SQLite's own per-connection mutexes only cost (2 % of a mine).
	q.Set("_mutex", "no")
	// The writer runs the same few statements for every file a mine
	// writes (its drawers so far, its purged chunks, its source row):
	// kept prepared, a cold mine of Go's src no longer prepares 40,000
	// statements (0.8 s of the writer's time).
	q.Set("_stmt_cache_size", "32")
	log, err := audit.Open(abs)
	if err != nil {
		return nil, err
	}
	w := sql.OpenDB(writerConnector{dsn: "file:" + escapePath(path) + "?" + q.Encode()})
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	s := &Store{home: abs, path: path, w: w, audit: log, actor: "cli", turns: turns{path: filepath.Join(abs, TurnsName), max: maxYield}}
	if err := s.checkSchemaLost(context.Background()); err != nil {
		w.Close()
		return nil, err
	}
	if err := s.migrate(context.Background()); err != nil {
		w.Close()
		return nil, fmt.Errorf("palace database %s: %w", path, err)
	}
	if err := s.setAutomerge(context.Background()); err != nil {
		w.Close()
		return nil, fmt.Errorf("palace database %s: %w", path, err)
	}
	// The read pool is opened after the writer so the WAL's -shm file exists.
	r, err := sql.Open("sqlite3", readOnlyDSN(path, false))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open palace database %s read-only: %w", path, err)
	}
	r.SetMaxOpenConns(4)
	s.r = r
	for _, p := range []string{path + "-wal", path + "-shm"} {
		// WAL side files inherit the umask; keep them private like the database.
		if err := os.Chmod(p, 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
			s.Close()
			return nil, fmt.Errorf("protect %s: %w", p, err)
		}
	}
	return s, nil
}

// ftsAutomerge is how many index segments of one level FTS5 lets pile up
// before it merges them into one of the next (its default is 4). A
// mine's every transaction adds a segment, and each merge rewrites what
// it merges: at 8 a cold mine of Go's src took about 4 % less time, and
// search over 100k drawers was as fast (docs/cli.md, Mining).
const ftsAutomerge = 8

// setAutomerge sets ftsAutomerge in the full-text index's config table,
// where it persists, if the palace does not have it: a palace made before
// gets it on its next open, and a binary that predates it reads the
// palace as before (a config row, not a schema change).
func (s *Store) setAutomerge(ctx context.Context) error {
	var v int
	err := s.w.QueryRowContext(ctx, `SELECT v FROM drawers_fts_config WHERE k = 'automerge'`).Scan(&v)
	if err == nil && v == ftsAutomerge {
		return nil
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("read the full-text index's automerge: %w", err)
	}
	if _, err := s.w.ExecContext(ctx, `INSERT INTO drawers_fts (drawers_fts, rank) VALUES ('automerge', ?)`, ftsAutomerge); err != nil {
		return fmt.Errorf("set the full-text index's automerge: %w", err)
	}
	return nil
}

// pageSize is the page size of a new palace database. SQLite fixes it
// when the first page is written, and a WAL database cannot change it, so
// it is set on the empty file before the writer (whose connection string
// turns WAL on) opens it; an existing palace keeps its own.
const pageSize = 8192

// setPageSize gives the empty database file at path pageSize pages.
func setPageSize(path string) error {
	db, err := sql.Open("sqlite3", "file:"+escapePath(path))
	if err != nil {
		return fmt.Errorf("create palace database %s: %w", path, err)
	}
	defer db.Close()
	for _, p := range []string{fmt.Sprintf(`PRAGMA page_size = %d`, pageSize), `PRAGMA journal_mode = WAL`} {
		if _, err := db.Exec(p); err != nil {
			return fmt.Errorf("create palace database %s: %s: %w", path, p, err)
		}
	}
	return nil
}

// walAutocheckpoint is how many pages the WAL holds before a commit
// checkpoints it (SQLite's default is 1,000). A mine's batches rewrite the
// same index and full-text pages commit after commit (the index on drawer
// ids most: ids are hashes, so every batch touches most of its pages);
// checkpointed every 1,000 pages (8 MiB), each was copied to the file
// again and again. At 4,000 the cold mine of Go's src spent 3.1-3.5 s in
// its commits instead of 3.9-6.5 s; at 16,000, with batches of 2,000
// drawers, 2.08-2.15 s against 2.75-2.92 s at 4,000 and 1,000 (three
// alternating runs each, docs/performance.md, The writer). The WAL then
// grows to about 128 MiB between checkpoints (on disk; the page cache is
// not in it); the LSP server checkpoints after every save it answers
// (Checkpoint), and a purge checkpoints and truncates it, as before.
const walAutocheckpoint = 16000

// writerConnector opens the writer's connection with its temporary files
// in memory. Every insert into drawers fires the FTS5 triggers, so SQLite
// keeps a statement journal for it, and with temporary files on disk those
// journals were most of what a mine wrote, to deleted files under /var/tmp:
// twelve times as many writes for Go's net as with them in memory (see the
// strace command in docs/cli.md, Mining). A statement journal holds the pages one
// statement changes, so in memory it stays small.
type writerConnector struct{ dsn string }

func (c writerConnector) Connect(context.Context) (driver.Conn, error) {
	return c.Driver().Open(c.dsn)
}

func (writerConnector) Driver() driver.Driver {
	return &sqlite3.SQLiteDriver{ConnectHook: func(conn *sqlite3.SQLiteConn) error {
		if _, err := conn.Exec(`PRAGMA temp_store = MEMORY`, nil); err != nil {
			return fmt.Errorf("keep temporary files in memory: %w", err)
		}
		if _, err := conn.Exec(fmt.Sprintf(`PRAGMA wal_autocheckpoint = %d`, walAutocheckpoint), nil); err != nil {
			return fmt.Errorf("set the WAL's checkpoint limit: %w", err)
		}
		return nil
	}}
}

// readOnlyDSN is the data source of a read-only connection to the palace
// database at path: the read pool, a read-only palace's only pool, and the
// integrity check's own connection. immutable opens it without locks and
// without the WAL's -shm file (see openReadOnly).
func readOnlyDSN(path string, immutable bool) string {
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("_query_only", "1")
	q.Set("_busy_timeout", "10000")
	q.Set("_cache_size", "-32768")
	if immutable {
		q.Set("immutable", "1")
	}
	return "file:" + escapePath(path) + "?" + q.Encode()
}

// openReadOnly opens an existing palace this user may not write (a
// read-only file, folder or mount): searches and reads work, every write
// fails with ErrReadOnly, and nothing on disk changes. Without a -wal file
// the database is opened immutable, because SQLite could not create the
// -shm file it otherwise needs; a -wal file means another process may be
// writing, so the database is read through it.
//
// Immutable is decided once, here: if the owner starts writing later, this
// store does not see it. SQLite then neither locks nor looks for changes,
// so a long-lived reader (a server) keeps reading pages as they were, and
// once a checkpoint rewrites the file it may read a mix of old and new
// pages, which can look like corruption, until it is reopened. That is
// accepted because there is no alternative: short of immutable, SQLite
// reads a WAL database only through its -shm file, and it cannot create
// one in a folder it may not write. A palace nobody writes, the usual
// read-only case (a copy, a read-only mount), is read exactly.
func openReadOnly(abs, path string) (*Store, error) {
	s, err := openReadOnlyPool(abs, path)
	if err != nil {
		return nil, err
	}
	db := s.r
	var v int
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil {
		db.Close()
		return nil, fmt.Errorf("open palace database %s read-only: %w", path, err)
	}
	if v != len(migrations) {
		db.Close()
		if v > len(migrations) {
			return nil, fmt.Errorf("palace database %s: schema version %d is newer than this palace binary understands (%d): upgrade palace", path, v, len(migrations))
		}
		return nil, fmt.Errorf("palace database %s is read-only and its schema (v%d) needs an upgrade to v%d, which needs write access", path, v, len(migrations))
	}
	return s, nil
}

// openReadOnlyPool opens the palace database at path read-only, reading
// nothing yet: see openReadOnly for when it is opened immutable.
func openReadOnlyPool(abs, path string) (*Store, error) {
	_, err := os.Stat(path + "-wal")
	immutable := errors.Is(err, os.ErrNotExist)
	db, err := sql.Open("sqlite3", readOnlyDSN(path, immutable))
	if err != nil {
		return nil, fmt.Errorf("open palace database %s read-only: %w", path, err)
	}
	db.SetMaxOpenConns(4)
	return &Store{home: abs, path: path, w: db, r: db, audit: audit.ReadOnly(abs), actor: "cli", readOnly: true, immutable: immutable}, nil
}

// OpenForCheck opens an existing palace read-only without reading or
// migrating its schema, for `palace doctor` on a palace Open refuses: a
// damaged file fails Open (the migration reads it), and doctor must still
// run every check it can and say which failed. Nothing is written: checks
// that need the write lock say they were skipped.
func OpenForCheck(home string) (*Store, error) {
	if err := CheckExists(home); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return nil, fmt.Errorf("palace home %s: %w", home, err)
	}
	registerVec()
	return openReadOnlyPool(abs, filepath.Join(abs, DBName))
}

// ErrReadOnly is a write to a palace opened read-only.
var ErrReadOnly = errors.New("the palace is read-only for this user (no write permission); nothing was written")

// checkWritable refuses a write before it starts on a read-only palace.
func (s *Store) checkWritable() error {
	if s.readOnly {
		return fmt.Errorf("palace database %s: %w", s.path, ErrReadOnly)
	}
	return nil
}

// ReadOnly reports whether this user may not write the palace: every write
// fails with ErrReadOnly, and `palace repair` cannot run.
func (s *Store) ReadOnly() bool { return s.readOnly }

// escapePath keeps characters such as '?' and '#' in a path from being read
// as URI syntax by SQLite.
func escapePath(p string) string {
	return (&url.URL{Path: p}).EscapedPath()
}

// Home is the palace directory the store lives in.
func (s *Store) Home() string { return s.home }

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close checkpoints nothing on purpose (SQLite does that itself) and closes
// both pools.
func (s *Store) Close() error {
	var errs []error
	if s.r != nil {
		errs = append(errs, s.r.Close())
	}
	if s.r != s.w {
		errs = append(errs, s.w.Close())
	}
	return errors.Join(errs...)
}

// write runs fn in one immediate transaction on the writer connection.
func (s *Store) write(ctx context.Context, fn func(*sql.Tx) error) error {
	if err := s.checkWritable(); err != nil {
		return err
	}
	leave, err := s.turns.enter()
	if err != nil {
		return err
	}
	defer leave()
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin write: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// Checkpoint moves what the WAL holds into the database file without
// waiting for readers (SQLite's PASSIVE checkpoint). SQLite checkpoints
// on its own once the WAL passes 1,000 pages, inside whichever commit
// crosses that line; a long-lived server calls this after a write it has
// answered, so that cost is not paid inside the next one.
func (s *Store) Checkpoint(ctx context.Context) error {
	if s.readOnly {
		return nil
	}
	var busy, frames, done int
	if err := s.w.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &done); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}
