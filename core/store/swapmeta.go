package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// SwapMeta writes value under key if the key still holds old ("" for a
// key that is not set), and reports whether it did. A caller that derives
// a value from what it read (the AAAK entity map) so never overwrites
// what another process wrote in between; it reads again and retries.
func (s *Store) SwapMeta(ctx context.Context, key, old, value string) (bool, error) {
	swapped := false
	err := s.write(ctx, func(tx *sql.Tx) error {
		var cur string
		err := tx.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&cur)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("read meta %s: %w", key, err)
		}
		if cur != old {
			return nil
		}
		if err := putMeta(ctx, tx, key, value); err != nil {
			return err
		}
		swapped = true
		return nil
	})
	return swapped, err
}
