package bench

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// squash lower-cases s and collapses its runs of white space, so a
// phrase matches however the text wrapped or cased it.
func squash(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// holds says whether text holds every phrase of it.
func (it LoopItem) holds(text string) bool {
	t := squash(text)
	for _, p := range it {
		if !strings.Contains(t, squash(p)) {
			return false
		}
	}
	return true
}

// lineOf is the first line of lines holding the whole item, -1 for none.
func (it LoopItem) lineOf(lines []string) int {
	for i, l := range lines {
		if it.holds(l) {
			return i
		}
	}
	return -1
}

// noiseMarks are what tool calls look like once a transcript is rendered
// as text: "[tool_use Read]", a tool_result, a function call, or a JSON
// object's first key.
var noiseMarks = regexp.MustCompile(`(?i)\[tool_(use|result)\b|"tool_use_id"|"type"\s*:\s*"(tool_use|tool_result|function_call)|function_call(_output)?\b|\{\s*"[^"\n]{1,64}"\s*:`)

// noiseRefs are the lines of raw code and tool output a scenario put in
// its transcripts and projects; a SessionStart line holding one shows
// raw code or tool output.
type noiseRefs []string

// minRefRunes keeps short lines ("}", "return nil") out of the
// references: they say nothing about where a line came from.
const minRefRunes = 14

// add takes the lines of s that are long enough to tell.
func (r *noiseRefs) add(s string) {
	for _, l := range strings.Split(s, "\n") {
		// Read's numbering ("     3→") is not part of the code.
		if _, after, ok := strings.Cut(l, "→"); ok {
			l = after
		}
		if l = squash(l); utf8.RuneCountInString(l) >= minRefRunes {
			*r = append(*r, l)
		}
	}
}

// noisy says whether a line of SessionStart text is tool-call JSON, raw
// tool output or raw code.
func (r noiseRefs) noisy(line string) bool {
	if noiseMarks.MatchString(line) {
		return true
	}
	l := squash(line)
	for _, ref := range r {
		if strings.Contains(l, ref) {
			return true
		}
	}
	return false
}

// noise counts the characters of text on noisy lines, and all of them
// (line breaks count as clean).
func (r noiseRefs) noise(text string) (noisy, all int) {
	for _, l := range strings.Split(text, "\n") {
		if r.noisy(l) {
			noisy += utf8.RuneCountInString(l)
		}
	}
	return noisy, utf8.RuneCountInString(text)
}
