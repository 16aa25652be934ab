// Package chunk cuts text into overlapping, line-aware pieces small enough to
// rank well with BM25 and to embed, while keeping each piece a verbatim
// substring of the source with exact 1-based line numbers.
package chunk

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Options sizes the chunks, in characters (runes).
type Options struct {
	Size    int // target size; a chunk is at most Size characters
	Overlap int // roughly how much of the previous chunk the next one repeats
}

// Default is about 800 characters with about 100 of overlap.
var Default = Options{Size: 800, Overlap: 100}

// Chunk is a verbatim piece of the text.
type Chunk struct {
	Text      string
	LineStart int // 1-based, inclusive
	LineEnd   int // 1-based, inclusive
}

type line struct {
	text  string // including its line ending
	no    int
	runes int
	blank bool
}

// Split cuts text into chunks. Chunks end at line ends and prefer a blank
// line in the second half of the window; a line longer than Size is cut at
// whitespace (or anywhere, failing that) into pieces that all carry that
// line's number. Consecutive chunks share whole lines worth about Overlap
// characters. Empty or whitespace-only text gives no chunks.
func Split(text string, o Options) []Chunk {
	if o.Size <= 0 {
		o = Default
	}
	if o.Overlap < 0 || o.Overlap >= o.Size/2 {
		o.Overlap = o.Size / 8
	}
	if strings.TrimSpace(text) == "" {
		return nil
	}
	lines := splitLines(text)
	var out []Chunk
	i := 0
	for i < len(lines) {
		if lines[i].runes > o.Size {
			out = append(out, splitLong(lines[i], o)...)
			i++
			continue
		}
		// Grow the window line by line up to Size.
		j, n := i, 0
		lastBlank := -1
		for j < len(lines) && lines[j].runes <= o.Size && n+lines[j].runes <= o.Size {
			n += lines[j].runes
			if lines[j].blank && n >= o.Size/2 {
				lastBlank = j
			}
			j++
		}
		end := j // exclusive
		if j < len(lines) && lastBlank >= 0 {
			end = lastBlank + 1
		}
		out = appendChunk(out, lines[i:end])
		if end >= len(lines) {
			break
		}
		// Step back over trailing lines worth about Overlap characters, but
		// always advance by at least one line.
		next, back := end, 0
		for next-1 > i && back+lines[next-1].runes <= o.Overlap {
			back += lines[next-1].runes
			next--
		}
		for next < len(lines) && lines[next].blank {
			next++ // a chunk never starts on a blank line
		}
		if lines[end].runes > o.Size {
			next = end // a long line is chunked on its own; no overlap into it
		}
		i = next
	}
	return out
}

func appendChunk(out []Chunk, ls []line) []Chunk {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.text)
	}
	if strings.TrimSpace(b.String()) == "" {
		return out
	}
	return append(out, Chunk{Text: b.String(), LineStart: ls[0].no, LineEnd: ls[len(ls)-1].no})
}

// splitLines keeps each line's terminator ("\n" or "\r\n") so chunks
// concatenate back to the exact source.
func splitLines(text string) []line {
	var ls []line
	no := 1
	for len(text) > 0 {
		k := strings.IndexByte(text, '\n')
		var t string
		if k < 0 {
			t, text = text, ""
		} else {
			t, text = text[:k+1], text[k+1:]
		}
		ls = append(ls, line{text: t, no: no, runes: utf8.RuneCountInString(t), blank: strings.TrimSpace(t) == ""})
		no++
	}
	return ls
}

// splitLong cuts one over-long line into pieces of at most Size characters,
// preferring to end a piece after whitespace in its second half. It counts
// the line's characters once and then only those of each piece, so a line
// costs time linear in its length however long it is.
func splitLong(l line, o Options) []Chunk {
	var out []Chunk
	s, left := l.text, l.runes // left: characters in s
	for len(s) > 0 {
		if left <= o.Size {
			out = append(out, Chunk{Text: s, LineStart: l.no, LineEnd: l.no})
			break
		}
		// left > Size, so the loop stops at Size characters.
		cut, n := 0, 0
		lastSpace, atSpace := -1, 0
		for k, r := range s {
			if n == o.Size {
				cut = k
				break
			}
			n++
			if unicode.IsSpace(r) && n >= o.Size/2 {
				lastSpace, atSpace = k+utf8.RuneLen(r), n
			}
		}
		if lastSpace > 0 {
			cut, n = lastSpace, atSpace
		}
		out = append(out, Chunk{Text: s[:cut], LineStart: l.no, LineEnd: l.no})
		s, left = s[cut:], left-n
	}
	// Whitespace-only tails carry nothing worth a drawer.
	kept := out[:0]
	for _, c := range out {
		if strings.TrimSpace(c.Text) != "" {
			kept = append(kept, c)
		}
	}
	return kept
}
