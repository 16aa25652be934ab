package route

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/store"
)

// Limits on taxonomy entries written through 'palace taxonomy set'. Names
// are identifiers, not text; keywords are single words.
const (
	MaxNameBytes    = 200
	MaxKeywordBytes = 64
	MaxKeywords     = 100
)

// ErrInvalid is matched (errors.Is) by every refused taxonomy entry: it is
// input.ErrInvalid, so every front reports it as bad input (exit 2,
// JSON-RPC invalid params), as for any other feature, and nothing is
// written.
var ErrInvalid = input.ErrInvalid

// invalidError is an ErrInvalid whose message is only the reason, so the
// CLI's one-line errors do not repeat "invalid input".
type invalidError struct{ msg string }

func (e invalidError) Error() string { return e.msg }

// Is makes errors.Is(err, ErrInvalid) true.
func (e invalidError) Is(target error) bool { return target == input.ErrInvalid }

func invalid(format string, a ...any) error {
	return invalidError{fmt.Sprintf(format, a...)}
}

// CheckName accepts a wing or room name (what is "wing" or "room"): not
// empty, valid UTF-8, at most MaxNameBytes, no control characters, no
// surrounding spaces, and no '/' or '"'. Names are printed as wing/room in
// outputs and citations and become parts of paths, where a '/' would split
// a name in two and a '"' would end a quoted one.
func CheckName(what, name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return invalid("%s name is empty", what)
	case len(name) > MaxNameBytes:
		return invalid("%s name %s is %d bytes; the limit is %d", what, Show(name), len(name), MaxNameBytes)
	case !utf8.ValidString(name):
		return invalid("%s name %s is not valid UTF-8", what, Show(name))
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return invalid("%s name %s contains a control character", what, Show(name))
	case strings.ContainsAny(name, `/"`):
		return invalid(`%s name %s contains '/' or '"': names appear as wing/room in paths and citations, so neither is allowed`, what, Show(name))
	case strings.TrimSpace(name) != name:
		return invalid("%s name %s starts or ends with a space", what, Show(name))
	}
	return nil
}

// CheckDisplayName accepts a room's display name: free text, but valid
// UTF-8, one line, at most MaxNameBytes.
func CheckDisplayName(name string) error {
	switch {
	case len(name) > MaxNameBytes:
		return invalid("display name %s is %d bytes; the limit is %d", Show(name), len(name), MaxNameBytes)
	case !utf8.ValidString(name):
		return invalid("display name %s is not valid UTF-8", Show(name))
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return invalid("display name %s contains a control character", Show(name))
	}
	return nil
}

// ParseKeywords splits a comma-separated keyword list (the --keywords flag)
// and normalises it with NormalizeKeywords.
func ParseKeywords(list string) ([]string, error) {
	// Bound the work before splitting: a list this long cannot be valid.
	if limit := MaxKeywords * (MaxKeywordBytes + 1) * 4; len(list) > limit {
		return nil, invalid("keyword list is %d bytes; at most %d keywords of %d bytes are allowed", len(list), MaxKeywords, MaxKeywordBytes)
	}
	return NormalizeKeywords(strings.Split(list, ","))
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
			return nil, invalid("keyword %s is %d bytes; the limit is %d", Show(raw), len(raw), MaxKeywordBytes)
		}
		if !utf8.ValidString(raw) {
			return nil, invalid("keyword %s is not valid UTF-8", Show(raw))
		}
		k := strings.ToLower(strings.TrimSpace(raw))
		if k == "" || seen[k] {
			continue
		}
		if len(k) > MaxKeywordBytes {
			return nil, invalid("keyword %s is %d bytes; the limit is %d", Show(k), len(k), MaxKeywordBytes)
		}
		if strings.IndexFunc(k, notWord) >= 0 {
			return nil, invalid("keyword %s is not one word: routing compares whole words of letters, digits, '-' and '_', so it could never match (give its words as separate keywords)", Show(k))
		}
		seen[k] = true
		out = append(out, k)
		if len(out) > MaxKeywords {
			return nil, invalid("more than %d keywords", MaxKeywords)
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
