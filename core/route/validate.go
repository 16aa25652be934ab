package route

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/store"
)

// Limits on taxonomy entries written by a taxonomy set (every front). Names
// are identifiers, not text; keywords are single words.
const (
	MaxNameBytes    = 200
	MaxKeywordBytes = 64
	MaxKeywords     = 100
)

// ErrInvalid is matched (errors.Is) by every refused taxonomy entry: it is
// input.ErrInvalid, so every front reports it as bad input (exit 2,
// JSON-RPC invalid params, an MCP "invalid input" tool error), as for any
// other feature, and nothing is written. The errors are *input.Error, so
// they name the field at fault.
var ErrInvalid = input.ErrInvalid

// CheckName accepts a wing or room name (what is "wing" or "room"): not
// empty, valid UTF-8, at most MaxNameBytes, no control characters, no
// surrounding spaces, and no '/' or '"'. Names are printed as wing/room in
// outputs and citations and become parts of paths, where a '/' would split
// a name in two and a '"' would end a quoted one.
func CheckName(what, name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return input.Invalid(what, "name is empty")
	case len(name) > MaxNameBytes:
		return input.Invalid(what, "name %s is %d bytes; the limit is %d", Show(name), len(name), MaxNameBytes)
	case !utf8.ValidString(name):
		return input.Invalid(what, "name %s is not valid UTF-8", Show(name))
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return input.Invalid(what, "name %s contains a control character", Show(name))
	case strings.ContainsAny(name, `/"`):
		return input.Invalid(what, `name %s contains '/' or '"': names appear as wing/room in paths and citations, so neither is allowed`, Show(name))
	case strings.TrimSpace(name) != name:
		return input.Invalid(what, "name %s starts or ends with a space", Show(name))
	}
	return nil
}

// CheckDisplayName accepts a room's display name: free text, but valid
// UTF-8, one line, at most MaxNameBytes.
func CheckDisplayName(name string) error {
	switch {
	case len(name) > MaxNameBytes:
		return input.Invalid("display_name", "%s is %d bytes; the limit is %d", Show(name), len(name), MaxNameBytes)
	case !utf8.ValidString(name):
		return input.Invalid("display_name", "%s is not valid UTF-8", Show(name))
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return input.Invalid("display_name", "%s contains a control character", Show(name))
	}
	return nil
}

// NormalizeKeywords trims and lower-cases keywords, drops empty ones and
// repeats (keeping first-seen order), and refuses a keyword routing could
// never match: queries and content are compared word by word, a word being a
// run of letters, digits, '-' and '_', so "auth service" or "node.js" would
// sit in the taxonomy matching nothing.
func NormalizeKeywords(in []string) ([]string, error) {
	out := []string{}
	seen := map[string]bool{}
	for _, raw := range in {
		if len(raw) > MaxKeywordBytes*4 { // before trimming a huge string
			return nil, input.Invalid("keywords", "has %s, %d bytes long; the limit is %d", Show(raw), len(raw), MaxKeywordBytes)
		}
		if !utf8.ValidString(raw) {
			return nil, input.Invalid("keywords", "has %s, which is not valid UTF-8", Show(raw))
		}
		k := strings.ToLower(strings.TrimSpace(raw))
		if k == "" || seen[k] {
			continue
		}
		if len(k) > MaxKeywordBytes {
			return nil, input.Invalid("keywords", "has %s, %d bytes long; the limit is %d", Show(k), len(k), MaxKeywordBytes)
		}
		if strings.IndexFunc(k, notWord) >= 0 {
			return nil, input.Invalid("keywords", "has %s, which is not one word: routing compares whole words of letters, digits, '-' and '_', so it could never match (give its words as separate keywords)", Show(k))
		}
		seen[k] = true
		out = append(out, k)
		if len(out) > MaxKeywords {
			return nil, input.Invalid("keywords", "has more than %d words; the limit is %d", MaxKeywords, MaxKeywords)
		}
	}
	return out, nil
}

// CheckRoom validates a taxonomy entry and returns it with its keywords
// normalised.
func CheckRoom(r store.Room) (store.Room, error) {
	if err := CheckName("wing", r.Wing); err != nil {
		return r, err
	}
	if err := CheckName("room", r.Room); err != nil {
		return r, err
	}
	if err := CheckDisplayName(r.DisplayName); err != nil {
		return r, err
	}
	kw, err := NormalizeKeywords(r.Keywords)
	if err != nil {
		return r, err
	}
	r.Keywords = kw
	return r, nil
}

// Show quotes s for an error message, cut to 40 bytes so a 10 MB argument
// does not come back as a 10 MB error; invalid bytes are escaped.
func Show(s string) string {
	const max = 40
	if len(s) <= max {
		return strconv.Quote(s)
	}
	cut := max
	for cut > max-utf8.UTFMax && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "..."
}
