package convo

import (
	"bytes"
	"regexp"
)

var (
	sessionHeading = regexp.MustCompile(`(?i)^#{1,6}[ \t]+session\b`)
	mdHeading      = regexp.MustCompile(`^#{1,6}[ \t]+\S`)
	sepLine        = regexp.MustCompile(`^-{3,}[ \t]*$`)
	sessionWord    = regexp.MustCompile(`(?i)^session\b`)
)

// SplitSessions cuts a plain-text file holding several sessions one after
// another (a "mega transcript" of copied Claude Code sessions, or notes with
// one section per session) into one slice per session. The slices are
// consecutive pieces of data: joined they give data back byte for byte.
//
// A session starts at a header line:
//
//  1. the top line ("╭…") of Claude Code's welcome box, when one of the
//     next three lines says "Claude Code";
//  2. otherwise any line containing "Claude Code v" (the version banner);
//  3. a Markdown heading "# Session…" (any level, any case);
//  4. a separator line of three or more dashes followed, after blank lines,
//     by a Markdown heading, a line starting with "Session", or a header of
//     kind 1–3; the session then starts at the separator.
//
// A Claude Code banner with "Ctrl+E" or "previous messages" within its next
// six lines is the context restore printed after compaction or resume, not
// a new session, and is ignored. Text before the first header is a session
// of its own when it holds a user turn (a "> " line outside code fences);
// otherwise it is a preamble and belongs to the first session. Data with
// fewer than two sessions comes back whole; blank data gives nil.
func SplitSessions(data []byte) [][]byte {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	type ln struct {
		text []byte
		off  int
	}
	var ls []ln
	for off := 0; off < len(data); {
		end := bytes.IndexByte(data[off:], '\n')
		next := len(data)
		if end >= 0 {
			next = off + end + 1
		} else {
			end = len(data) - off
		}
		ls = append(ls, ln{text: bytes.TrimRight(data[off:off+end], "\r"), off: off})
		off = next
	}
	has := func(i int, s string) bool { return i < len(ls) && bytes.Contains(ls[i].text, []byte(s)) }
	restore := func(i int) bool {
		for k := i; k < i+7 && k < len(ls); k++ {
			if has(k, "Ctrl+E") || has(k, "previous messages") {
				return true
			}
		}
		return false
	}
	boxTop := func(i int) bool {
		if !bytes.HasPrefix(bytes.TrimLeft(ls[i].text, " "), []byte("╭")) {
			return false
		}
		for k := i + 1; k <= i+3; k++ {
			if has(k, "Claude Code") {
				return !restore(i)
			}
		}
		return false
	}
	bannerUntil := -1 // banner lines inside an already counted welcome box
	banner := func(i int) bool {
		return i > bannerUntil && has(i, "Claude Code v") && !restore(i)
	}
	header := func(i int) bool {
		if boxTop(i) {
			bannerUntil = i + 3
			return true
		}
		return banner(i) || sessionHeading.Match(ls[i].text)
	}
	var starts []int
	for i := 0; i < len(ls); i++ {
		if sepLine.Match(bytes.TrimLeft(ls[i].text, " ")) {
			k := i + 1
			for k < len(ls) && len(bytes.TrimSpace(ls[k].text)) == 0 {
				k++
			}
			if k < len(ls) && (header(k) || mdHeading.Match(ls[k].text) || sessionWord.Match(ls[k].text)) {
				starts = append(starts, i)
				i = k
				continue
			}
		}
		if header(i) {
			starts = append(starts, i)
		}
	}
	if len(starts) > 0 && starts[0] > 0 {
		// Text before the first header is a session of its own when it
		// has a user turn, else a preamble of the first session.
		if hasQuote(textLines(string(data[:ls[starts[0]].off]))) {
			starts = append([]int{0}, starts...)
		} else {
			starts[0] = 0
		}
	}
	if len(starts) < 2 {
		return [][]byte{data}
	}
	out := make([][]byte, 0, len(starts))
	for j, s := range starts {
		end := len(data)
		if j+1 < len(starts) {
			end = ls[starts[j+1]].off
		}
		out = append(out, data[ls[s].off:end])
	}
	return out
}
