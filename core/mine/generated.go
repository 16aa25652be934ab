package mine

import (
	"regexp"
	"strings"
)

// generatedMarker is the comment that marks generated code: Go's "Code
// generated ... DO NOT EDIT." (any comment syntax) and the "@generated" of
// other generators.
var generatedMarker = regexp.MustCompile(`Code generated .* DO NOT EDIT|@generated\b`)

// generatedScan is how many first lines may hold the marker: Go requires it
// before the package clause, after any license header.
const generatedScan = 30

// isGenerated reports whether a file's first lines mark it generated.
// Only the first drawer holds the marker, so mining records it in the
// metadata of all of them.
func isGenerated(text string) bool {
	head := text
	for i, n := 0, 0; i < len(text); i++ {
		if text[i] == '\n' {
			if n++; n == generatedScan {
				head = text[:i]
				break
			}
		}
	}
	if strings.Contains(head, "generated") && generatedMarker.MatchString(head) {
		return true
	}
	return false
}
