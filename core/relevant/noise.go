package relevant

import (
	"regexp"
	"strings"
	"unicode"
)

// Noise: words that are under the cursor or near it but say nothing about
// what the reader is looking at. An error variable or a method's receiver
// is in every function, a package line in every file of the package, a
// licence header in every file of the project, and a URL's hash in no
// other drawer at all; as the identifier they made the panel's title
// ("Relevant: err") and as nearby words they filled the query.

// Kinds of noise at the cursor, for the sentence that says why the word
// under it was left out.
const (
	noiseCommon   = "common"
	noiseShort    = "short"
	noiseReceiver = "receiver"
	noisePackage  = "package"
	noiseLicence  = "licence"
	noiseURL      = "url"
	noiseHash     = "hash"
)

var (
	// packageLine is a package clause: Go's "package foo", Java's and
	// Kotlin's "package a.b.c;".
	packageLine = regexp.MustCompile(`^\s*package\s+[\p{L}_][\p{L}\p{N}_.]*\s*;?\s*(?://.*)?$`)
	// goReceiver is the receiver's variable of a Go method's first line.
	goReceiver = regexp.MustCompile(`^func\s*\(\s*([\p{L}_][\p{L}\p{N}_]*)\s+\*?[\p{L}_]`)
	// urlRe is a URL written out, up to the characters Markdown, HTML and
	// prose close it with.
	urlRe = regexp.MustCompile("[A-Za-z][A-Za-z0-9+.-]*://[^\\s()\\[\\]<>\"'`]+")
	// licenceWords mark a file's leading comment as its licence header.
	licenceWords = regexp.MustCompile(`(?i)copyright|licen[cs]e|spdx-`)
)

// atCursorNoise says which kind of noise the identifier id at col of
// lines[line] is, or "" when it is a clue. called and qualified are as
// usedAsCode says: a called or qualified name (len(x), x.c) is code the
// reader points at, whatever its length.
func atCursorNoise(lines []string, header []bool, line, col int, id string, called, qualified bool) string {
	switch {
	case header[line]:
		return noiseLicence
	case packageLine.MatchString(lines[line]):
		return noisePackage
	case inURL(lines[line], col):
		return noiseURL
	case id == "":
		return ""
	case looksLikeHash(id):
		return noiseHash
	case called || qualified:
		return ""
	case common[strings.ToLower(id)]:
		return noiseCommon
	case id == receiverOf(lines, line):
		return noiseReceiver
	case len([]rune(id)) == 1:
		return noiseShort
	}
	return ""
}

// inURL reports whether col of line falls inside a URL.
func inURL(line string, col int) bool {
	for _, m := range urlRe.FindAllStringIndex(line, -1) {
		if m[0] <= col && col < m[1] {
			return true
		}
	}
	return false
}

// receiverOf is the receiver's variable of the Go method around line: the
// first unindented line at or above it that is not a comment, when it
// opens a method ("func (c *Command) Execute() error {"); "" otherwise.
func receiverOf(lines []string, line int) string {
	for i := line; i >= 0 && i >= line-maxEnclosingScan; i-- {
		l := lines[i]
		if l == "" || indent(l) > 0 || strings.HasPrefix(l, "//") {
			continue
		}
		if m := goReceiver.FindStringSubmatch(l); m != nil {
			return m[1]
		}
		return ""
	}
	return ""
}

// looksLikeHash reports whether w is a hash or a generated id (a commit,
// an image URL's digest, a base64 key) rather than a name: hex digits
// mixing letters and digits, or a long run of both without '_'.
func looksLikeHash(w string) bool {
	if len(w) < 8 {
		return false
	}
	digits, letters, hex := 0, 0, true
	for _, r := range w {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F':
			letters++
		default:
			hex = false
			if unicode.IsLetter(r) {
				letters++
			}
		}
	}
	if hex {
		return digits > 0 && letters > 0
	}
	return len(w) >= 16 && digits >= 4 && letters >= 4 && !strings.Contains(w, "_")
}

// licenceHeader marks the lines of a file's leading comment (after blank
// lines and a #! line) when it holds a copyright or licence notice. first
// is the document line lines[0] is: a view that does not start at the top
// of the file has no header. Markdown has none: its '#' lines are headings.
func licenceHeader(lines []string, first int, markdown bool) []bool {
	header := make([]bool, len(lines))
	if first != 0 || markdown {
		return header
	}
	end, inBlock, notice := 0, false, false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		isComment := inBlock || t == "" || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") ||
			strings.HasPrefix(t, "#") || strings.HasPrefix(t, "--") || strings.HasPrefix(t, ";;") ||
			strings.HasPrefix(t, "(*") || strings.HasPrefix(t, "<!--")
		if !isComment {
			break
		}
		if strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "(*") || strings.HasPrefix(t, "<!--") {
			inBlock = true
		}
		if inBlock && (strings.HasSuffix(t, "*/") || strings.HasSuffix(t, "*)") || strings.HasSuffix(t, "-->")) {
			inBlock = false
		}
		notice = notice || licenceWords.MatchString(t)
		end = i + 1
	}
	if notice {
		for i := 0; i < end; i++ {
			header[i] = true
		}
	}
	return header
}

// withoutNoise is lines with the licence header blanked and URLs replaced
// by spaces (so columns stay where they were): what nearby and selected
// words are read from.
func withoutNoise(lines []string, header []bool) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		switch {
		case header[i]:
			out[i] = ""
		case strings.Contains(l, "://"):
			out[i] = urlRe.ReplaceAllStringFunc(l, func(u string) string { return strings.Repeat(" ", len(u)) })
		default:
			out[i] = l
		}
	}
	return out
}

// noiseNote says, in a sentence, what was left out as noise at the cursor
// and what the hits are about instead; "" when nothing was left out.
func noiseNote(c Clues, about string) string {
	what := skippedWhat(c)
	if what == "" {
		return ""
	}
	if len(c.Enclosing) > 0 && about == c.Enclosing[0] {
		return "Skipped " + what + "; the hits are about " + about + ", around it."
	}
	return "Skipped " + what + "; nothing better is under the cursor, so the hits are about the lines around " + about + "."
}

// skippedWhat names what was skipped as noise at the cursor, and why; ""
// when nothing was.
func skippedWhat(c Clues) string {
	var what string
	switch c.noise {
	case noiseCommon:
		what = c.Skipped + " under the cursor (a name every file uses)"
	case noiseShort:
		what = c.Skipped + " under the cursor (too short to say what it is)"
	case noiseReceiver:
		what = c.Skipped + " under the cursor (the method's receiver)"
	case noisePackage:
		what = "the package line (every file of the package has one)"
	case noiseLicence:
		what = "the licence header (it says nothing about the code)"
	case noiseURL:
		what = "the URL under the cursor"
	case noiseHash:
		what = c.Skipped + " under the cursor (a hash)"
	}
	return what
}
