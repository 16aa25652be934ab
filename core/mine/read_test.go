package mine

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestReadTextJudgesBinaryByItsHead: a file with a NUL byte among its
// first 8000 bytes is binary after reading only those, so a file larger
// than the cap is still reported as binary, not read to its end; the
// binary test after the head (a NUL further on, a UTF-8 BOM, UTF-16) is
// the whole-file decode's, as before.
func TestReadTextJudgesBinaryByItsHead(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	big := append([]byte("\x00binary"), bytes.Repeat([]byte("x"), 100_000)...)
	lateNUL := append(bytes.Repeat([]byte("a"), sniffLen+10), 0)
	bomNUL := append([]byte{0xEF, 0xBB, 0xBF}, append(bytes.Repeat([]byte("a"), sniffLen-1), 0)...)
	for _, tc := range []struct {
		name   string
		b      []byte
		max    int64
		reason string
	}{
		{"binary head, over the cap", big, 1000, ReasonBinary},
		{"NUL after the head is text", lateNUL, 1 << 20, ""},
		{"NUL at byte 8000 after a UTF-8 BOM", bomNUL, 1 << 20, ReasonBinary},
		{"text over the cap", bytes.Repeat([]byte("x"), 2000), 1000, ReasonTooLarge},
	} {
		_, err := readText(context.Background(), write(tc.name, tc.b), tc.max)
		got := ""
		if s, ok := asSkip(err); ok {
			got = s.reason
		} else if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got != tc.reason {
			t.Errorf("%s: reason %q, want %q", tc.name, got, tc.reason)
		}
	}
}
