package ops

import (
	"testing"

	"github.com/palace-dev/palace/core/palace"
)

// openPalace opens a fresh palace in a temporary home, closed at the end
// of the test.
func openPalace(t *testing.T, o ...palace.Options) *palace.Palace {
	t.Helper()
	p, err := palace.Open(t.TempDir(), o...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}
