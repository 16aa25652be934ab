package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"
)

// TurnsName is the lock file writers share beside palace.db.
const TurnsName = DBName + "-writers"

// maxYield bounds how long a bulk writer waits for the others between two
// of its transactions. A waiting writer sleeps up to 100 ms between its
// tries for the write lock (SQLite's busy handler), so a shorter wait
// would often end before it wakes.
const maxYield = 250 * time.Millisecond

// turns lets writers of other processes in between a bulk writer's
// transactions. SQLite has no queue for its write lock: waiters poll, and a
// mine that commits batch after batch holds the lock almost all the time,
// so a palace_remember beside a cold mine of Go's src waited up to 2.1 s,
// polling, for a window it kept missing. Every writer holds a shared flock
// on palace.db-writers while it waits for and holds the write lock; between
// its transactions a bulk writer takes the flock exclusively, which it gets
// only once no one is waiting, or gives up after maxYield.
type turns struct {
	path string
	max  time.Duration // the longest a yield waits: maxYield
	mu   sync.Mutex
	f    *os.File // open while n > 0; holds this process's shared lock
	n    int      // this process's writers waiting for or holding the write lock
}

// enter marks one writer of this process as waiting; leave undoes it.
func (t *turns) enter() (leave func(), err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n == 0 {
		f, err := os.OpenFile(t.path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
		if err != nil {
			return nil, fmt.Errorf("writer turns: %w", err)
		}
		if err := flock(f, syscall.LOCK_SH); err != nil {
			f.Close()
			return nil, fmt.Errorf("writer turns %s: %w", t.path, err)
		}
		t.f = f
	}
	t.n++
	return t.leave, nil
}

func (t *turns) leave() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n--; t.n == 0 {
		t.f.Close() // closing releases the lock
		t.f = nil
	}
}

// yield waits until no writer of another process is waiting, at most
// maxYield. It is a courtesy, never a failure: errors end the wait.
func (t *turns) yield(ctx context.Context) {
	f, err := os.OpenFile(t.path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	deadline := time.Now().Add(t.max)
	for {
		err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil || !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) || ctx.Err() != nil {
			return // closing f releases the lock
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// flock retries the interrupted call Go's runtime signals can cause.
func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// Yield is for bulk writers such as a mine, between two transactions: it
// lets writers of other processes that are waiting for the write lock go
// first, waiting at most a quarter of a second.
func (s *Store) Yield(ctx context.Context) {
	if !s.readOnly {
		s.turns.yield(ctx)
	}
}
