package mine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"golang.org/x/text/encoding/unicode"
)

// Reasons a file is not mined. They appear in summaries and JSON.
const (
	ReasonIgnored         = "ignored"
	ReasonSymlink         = "symlink"
	ReasonSpecial         = "not_regular" // device, socket, fifo
	ReasonUnreadable      = "unreadable"
	ReasonTooLarge        = "too_large"
	ReasonBinary          = "binary"
	ReasonInvalidUTF8     = "invalid_utf8"
	ReasonNotConversation = "not_conversation" // --mode convos and no chat format
	// ReasonMetadata marks files a mine reads for what they say about the
	// others, never as drawers: palace.yaml and .palaceignore (at any
	// depth), and a Slack export's users.json, channels.json and the like
	// (see convo.SlackMetadata; not in ModeProjects).
	ReasonMetadata = "metadata"
	// ReasonSensitive marks credential folders and files (see
	// sensitiveNames) met inside a mined folder.
	ReasonSensitive = "sensitive"
)

// errSkip carries a reason a file is not text Palace should keep.
type errSkip struct {
	reason string
	detail string
}

func (e *errSkip) Error() string { return e.reason + ": " + e.detail }

// sniffLen is how much of a file the binary check looks at, as git does.
const sniffLen = 8000

// readText returns a file's text as UTF-8. A UTF-8 BOM is dropped; UTF-16
// with a BOM is decoded. Files over maxSize, with a NUL byte in their first
// 8000 bytes, or not valid UTF-8 are refused with an *errSkip saying why.
func readText(ctx context.Context, path string, maxSize int64) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", &errSkip{ReasonUnreadable, err.Error()}
	}
	defer f.Close()
	// The binary test reads only the head: a binary file (a tenth of Go's
	// source tree) is judged by it without reading the rest, which every
	// mine, a no-op one too, would otherwise read again in full, since a
	// skipped file is not recorded.
	head := make([]byte, min(int64(sniffLen+3), maxSize+1))
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return "", &errSkip{ReasonUnreadable, err.Error()}
	}
	if s := binaryHead(head[:n]); s != nil {
		return "", s
	}
	// From the start again rather than appending to the head: one buffer
	// for the whole file, as before.
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return "", &errSkip{ReasonUnreadable, err.Error()}
	}
	// Read one byte past the cap so a file that grew since stat is caught.
	b, err := io.ReadAll(io.LimitReader(ctxReader{ctx, f}, maxSize+1))
	if err != nil {
		return "", &errSkip{ReasonUnreadable, err.Error()}
	}
	if int64(len(b)) > maxSize {
		return "", &errSkip{ReasonTooLarge, fmt.Sprintf("larger than %d bytes", maxSize)}
	}
	return decode(b)
}

// binaryHead is decode's binary test on the first bytes of a file, when
// it can tell from them: a UTF-16 file (by its BOM) is judged after
// decoding, so only whole.
func binaryHead(head []byte) *errSkip {
	if bytes.HasPrefix(head, []byte{0xFF, 0xFE}) || bytes.HasPrefix(head, []byte{0xFE, 0xFF}) {
		return nil
	}
	return binary(bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF}))
}

// binary is the binary test of text as decoded: a NUL byte in its first
// sniffLen bytes.
func binary(b []byte) *errSkip {
	if bytes.IndexByte(b[:min(len(b), sniffLen)], 0) >= 0 {
		return &errSkip{ReasonBinary, "NUL byte in the first 8000 bytes"}
	}
	return nil
}

// decode applies the BOM/encoding check and the binary and UTF-8 tests.
func decode(b []byte) (string, error) {
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		b = b[3:]
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}), bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		dec := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder()
		u, err := dec.Bytes(b)
		if err != nil {
			return "", &errSkip{ReasonInvalidUTF8, "bad UTF-16: " + err.Error()}
		}
		b = u
	}
	if s := binary(b); s != nil {
		return "", s
	}
	if !utf8.Valid(b) {
		off := firstInvalid(b)
		return "", &errSkip{ReasonInvalidUTF8, fmt.Sprintf("invalid UTF-8 at byte %d", off)}
	}
	return string(b), nil
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

func asSkip(err error) (*errSkip, bool) {
	var s *errSkip
	ok := errors.As(err, &s)
	return s, ok
}

// ctxReader reads r until ctx is done: a file of hundreds of megabytes
// (a raised --max-size) takes a while to read, and an interrupt must not
// wait for it.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
