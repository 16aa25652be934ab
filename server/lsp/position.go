package lsp

import (
	"strings"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/palace-dev/palace/core/ops"
)

// toCore converts an LSP position (UTF-16 code units, the protocol's
// default encoding) into the core's byte offset within the line.
func toCore(text string, p protocol.Position) ops.Position {
	line := lineAt(text, int(p.Line))
	col, units := 0, int(p.Character)
	for col < len(line) && units > 0 {
		r, size := utf8.DecodeRuneInString(line[col:])
		if r >= 0x10000 {
			units -= 2
		} else {
			units--
		}
		if units < 0 {
			break // inside a surrogate pair: stay before the rune
		}
		col += size
	}
	return ops.Position{Line: int(p.Line), Col: col}
}

// lineAt returns line n of text without its line break ("" past the end).
func lineAt(text string, n int) string {
	for i := 0; i < n; i++ {
		j := strings.IndexByte(text, '\n')
		if j < 0 {
			return ""
		}
		text = text[j+1:]
	}
	if j := strings.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return strings.TrimSuffix(text, "\r")
}

// sliceRange returns the text of r in text.
func sliceRange(text string, r protocol.Range) string {
	start, end := offset(text, r.Start), offset(text, r.End)
	if end < start {
		start, end = end, start
	}
	return text[start:end]
}

// offset is the byte offset of an LSP position in text, clamped to it.
func offset(text string, p protocol.Position) int {
	off := 0
	for i := 0; i < int(p.Line); i++ {
		j := strings.IndexByte(text[off:], '\n')
		if j < 0 {
			return len(text)
		}
		off += j + 1
	}
	c := toCore(text[off:], protocol.Position{Character: p.Character})
	return off + c.Col
}

// lspRange is the range of whole lines [start, end] (1-based, inclusive),
// as drawers record them.
func lspRange(start, end int) *protocol.Range {
	if start <= 0 {
		return nil
	}
	return &protocol.Range{
		Start: protocol.Position{Line: uint32(start - 1)},
		End:   protocol.Position{Line: uint32(end)},
	}
}
