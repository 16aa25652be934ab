package kg

import (
	"math"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/palace-dev/palace/core/dates"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/store"
)

// Limits on input. A name is a short label, not a document: refusing
// anything longer keeps a pasted file (or a 10 MB argument) out of the
// graph with a clear message instead of a slow, useless row.
const (
	MaxNameBytes = 1024 // subject, predicate, object, source drawer id
)

// ErrInvalid is matched (errors.Is) by every error about bad input.
var ErrInvalid = input.ErrInvalid

// InputError is bad input in one field; nothing is written when one is
// returned.
type InputError = input.Error

func invalid(field, format string, a ...any) error { return input.Invalid(field, format, a...) }

// NormalizeName is the matching key of an entity name, and its id: Unicode
// NFC, lowercase, apostrophes removed, runs of whitespace turned into one
// "_", ends trimmed. "Alice  Smith", "alice_smith" and "ALICE SMITH" are one
// entity; "O'Brien" and "OBrien" too.
func NormalizeName(s string) string {
	s = strings.ToLower(norm.NFC.String(s))
	s = strings.Map(func(r rune) rune {
		switch r {
		case '\'', '\u2019', '\u2018', '`':
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), "_")
}

// NormalizePredicate is the stored form of a predicate: the same rule as
// names, so "works at", "Works_At" and "works  at" are one predicate.
func NormalizePredicate(s string) string { return NormalizeName(s) }

// CheckName refuses a name (an entity, a predicate) that kg.Add refuses.
func CheckName(field, s string) error { return checkText(field, s, false) }

// checkText rejects what cannot be a name: too long (checked first so a huge
// input is never scanned or echoed), invalid UTF-8, control characters,
// nothing left after normalisation.
func checkText(field, s string, optional bool) error {
	if len(s) > MaxNameBytes {
		return invalid(field, "is %d bytes; the limit is %d", len(s), MaxNameBytes)
	}
	if !utf8.ValidString(s) {
		return invalid(field, "is not valid UTF-8")
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return invalid(field, "contains the control character %U", r)
		}
	}
	if strings.TrimSpace(s) == "" {
		if optional {
			return nil
		}
		return invalid(field, "is empty")
	}
	if NormalizeName(s) == "" {
		return invalid(field, "%s has nothing left to match on once apostrophes and spaces are removed", quote(s))
	}
	return nil
}

func quote(s string) string { return input.Quote(s) }

// ParseTime reads a date or datetime (see package dates). A date-only value
// is that day's start (00:00 UTC), or, with endOfDay, the next day's start:
// as a valid_to (an exclusive bound) "2026-05-01" then keeps the fact true
// for all of May 1. "" gives nil (unbounded).
func ParseTime(field, s string, endOfDay bool) (*time.Time, error) {
	t, err := dates.Parse(s, endOfDay)
	if err != nil {
		return nil, invalid(field, "%s is not a date (%v)", quote(strings.TrimSpace(s)), err)
	}
	if t.IsZero() {
		return nil, nil
	}
	return &t, nil
}

// Fact is a triple as a front receives it: strings, unvalidated.
type Fact struct {
	Subject   string `json:"subject"`
	Predicate string `json:"predicate"`
	Object    string `json:"object"`
	// ValidFrom is when the fact became true: YYYY-MM-DD (that day's start)
	// or an RFC 3339 time; "" means since always.
	ValidFrom string `json:"valid_from,omitempty"`
	// ValidTo is when it stopped being true, exclusive; a date-only value
	// keeps it true for that whole day. "" means still true.
	ValidTo string `json:"valid_to,omitempty"`
	// Confidence is in [0, 1]; nil means 1.
	Confidence *float64 `json:"confidence,omitempty"`
	// SourceDrawer is the id of the drawer the fact was read from, if any;
	// it must exist.
	SourceDrawer string `json:"source_drawer,omitempty"`
	// Wing is the project the fact was recorded in (an agent's session
	// wing), so its wake-up lists the fact though no drawer says it; ""
	// is none. Its name is the caller's to check (core/ops).
	Wing string `json:"wing,omitempty"`
	// Provenance is where the fact was said, when known.
	Provenance store.Provenance `json:"provenance,omitzero"`
}

// Validate checks a fact without touching the palace, so a front can refuse
// bad input before opening anything.
func (f Fact) Validate() error {
	_, err := f.triple()
	return err
}

// triple validates f and converts it to the stored form (no id yet).
func (f Fact) triple() (Triple, error) {
	if err := checkText("subject", f.Subject, false); err != nil {
		return Triple{}, err
	}
	if err := checkText("predicate", f.Predicate, false); err != nil {
		return Triple{}, err
	}
	if err := checkText("object", f.Object, false); err != nil {
		return Triple{}, err
	}
	if err := checkText("source_drawer", f.SourceDrawer, true); err != nil {
		return Triple{}, err
	}
	from, err := ParseTime("valid_from", f.ValidFrom, false)
	if err != nil {
		return Triple{}, err
	}
	to, err := ParseTime("valid_to", f.ValidTo, true)
	if err != nil {
		return Triple{}, err
	}
	if from != nil && to != nil && !to.After(*from) {
		return Triple{}, invalid("valid_to", "%s is not after valid_from %s (a date-only valid_to ends that day)",
			quote(f.ValidTo), quote(f.ValidFrom))
	}
	conf := 1.0
	if f.Confidence != nil {
		conf = *f.Confidence
		if math.IsNaN(conf) || conf < 0 || conf > 1 {
			return Triple{}, invalid("confidence", "%v is not between 0 and 1", conf)
		}
	}
	if field, err := f.Provenance.Check(); err != nil {
		return Triple{}, invalid(field, "%v", err)
	}
	var prov *store.Provenance
	if !f.Provenance.IsZero() {
		prov = &f.Provenance
	}
	return Triple{
		Wing:         strings.TrimSpace(f.Wing),
		Provenance:   prov,
		Subject:      strings.TrimSpace(f.Subject),
		SubjectID:    NormalizeName(f.Subject),
		Predicate:    NormalizePredicate(f.Predicate),
		Object:       strings.TrimSpace(f.Object),
		ObjectID:     NormalizeName(f.Object),
		ValidFrom:    from,
		ValidTo:      to,
		Confidence:   conf,
		SourceDrawer: strings.TrimSpace(f.SourceDrawer),
	}, nil
}

// ParseDirection reads a query direction: out (outgoing, the entity is the
// subject), in (incoming, the entity is the object) or both (also "").
func ParseDirection(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "both":
		return DirBoth, nil
	case "out", "outgoing":
		return DirOut, nil
	case "in", "incoming":
		return DirIn, nil
	}
	return "", invalid("direction", "%s is not in, out or both", quote(s))
}
