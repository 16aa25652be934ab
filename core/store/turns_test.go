package store

import (
	"context"
	"database/sql"
	"sync/atomic"
	"testing"
	"time"
)

// Two Stores on one home stand for two processes: each has its own SQLite
// connection and its own open file description of the turns file, which is
// what flock locks.

// twoStores opens one home twice: a bulk writer and another.
func twoStores(t *testing.T) (bulk, other *Store) {
	t.Helper()
	home := t.TempDir()
	for _, s := range []**Store{&bulk, &other} {
		st, err := Open(home)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		*s = st
	}
	return bulk, other
}

// TestYieldLetsWaitingWriterIn: a writer blocked on another store's write
// lock commits before that store's Yield returns.
func TestYieldLetsWaitingWriterIn(t *testing.T) {
	ctx := context.Background()
	bulk, other := twoStores(t)
	// However slowly a loaded machine wakes the waiting writer, Yield must
	// not give up on it here.
	bulk.turns.max = time.Minute

	started := make(chan struct{})
	var committed atomic.Bool
	done := make(chan error, 1)
	// The bulk store holds the write lock while the other store's write
	// starts and waits for it.
	err := bulk.write(ctx, func(tx *sql.Tx) error {
		go func() {
			close(started)
			err := other.SetRoom(ctx, Room{Wing: "w", Room: "waiting", Keywords: []string{"k"}})
			committed.Store(err == nil)
			done <- err
		}()
		<-started
		// Until the other writer has entered, Yield would see no one.
		for !entered(other) {
			time.Sleep(time.Millisecond)
		}
		// Long enough for SQLite's busy handler to reach its 100 ms sleeps,
		// as it does beside a mine: the lock's release alone would not wake it.
		time.Sleep(300 * time.Millisecond)
		_, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES ('turns-test', '1')`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	bulk.Yield(ctx)
	if !committed.Load() {
		t.Fatal("Yield returned before the waiting writer of another store committed")
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// entered reports whether one of st's writers waits for or holds the
// write lock.
func entered(st *Store) bool {
	st.turns.mu.Lock()
	defer st.turns.mu.Unlock()
	return st.turns.n > 0
}

// TestYieldAloneAndBounded: with no one waiting Yield returns at once, and
// a writer that waits forever cannot hold a bulk writer up forever.
func TestYieldAloneAndBounded(t *testing.T) {
	ctx := context.Background()
	bulk, other := twoStores(t)

	// Alone, Yield does not wait for its bound: given an hour, it returns
	// before a context of ten seconds ends.
	bulk.turns.max = time.Hour
	alone, cancel := context.WithTimeout(ctx, 10*time.Second)
	bulk.Yield(alone)
	if alone.Err() != nil {
		t.Fatal("Yield with no other writer waited until its context ended")
	}
	cancel()
	bulk.turns.max = maxYield
	leave, err := other.turns.enter()
	if err != nil {
		t.Fatal(err)
	}
	defer leave()
	start := time.Now()
	bulk.Yield(ctx)
	if d := time.Since(start); d < maxYield {
		t.Fatalf("Yield returned after %v while another writer was waiting (bound %v)", d, maxYield)
	}
	// A write enters its turn and leaves it: nothing stays held.
	if err := bulk.SetRoom(ctx, Room{Wing: "w", Room: "r", Keywords: []string{"k"}}); err != nil {
		t.Fatal(err)
	}
	if entered(bulk) || bulk.turns.f != nil {
		t.Fatal("after its write, the store still holds its turn")
	}
}
