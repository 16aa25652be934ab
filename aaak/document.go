package aaak

import "slices"

// Version is the only dialect version this package reads strictly and writes.
const Version = 1

// Flag marks why a zettel matters. The set is closed; see [Flags].
type Flag string

// The six V1 flags, in canonical order.
const (
	FlagDecision  Flag = "DECISION"
	FlagOrigin    Flag = "ORIGIN"
	FlagCore      Flag = "CORE"
	FlagPivot     Flag = "PIVOT"
	FlagTechnical Flag = "TECHNICAL"
	FlagSensitive Flag = "SENSITIVE"
)

// flagOrder is the canonical order the encoder writes flags in.
var flagOrder = [...]Flag{FlagDecision, FlagOrigin, FlagCore, FlagPivot, FlagTechnical, FlagSensitive}

// Flags returns the closed set of V1 flags in canonical order.
func Flags() []Flag { return slices.Clone(flagOrder[:]) }

// Valid reports whether f is one of the six V1 flags.
func (f Flag) Valid() bool { return slices.Contains(flagOrder[:], f) }

// Fallback values that keep a zettel valid when the encoder found nothing
// for a required field. They are mempal's, so both tools agree on them.
const (
	UnknownEntity  = "UNK"    // no entity detected
	DefaultTopic   = "note"   // no topic word found
	DefaultEmotion = "determ" // no emotion cue found
	DefaultFlag    = FlagCore // no flag cue found
)

// Header is the first line of a document: V<version>|wing|room|date|source.
// Wing, room, date and source are free text without '|' or line breaks.
type Header struct {
	Version int
	Wing    string
	Room    string
	Date    string
	Source  string
}

// Document is one AAAK document. The body is kept by kind; the printer
// writes zettels, then tunnels, then arcs (see SPEC.md, "Canonical form").
type Document struct {
	Header
	Zettels []Zettel
	Tunnels []Tunnel
	Arcs    []Arc
}

// Zettel is one memory line:
// id:ENTITIES|topics|"quote"|stars|emotions|flags.
type Zettel struct {
	ID       uint64
	Entities []string // each exactly 3 ASCII uppercase letters
	Topics   []string // non-empty, no '_', '|' or line break
	Quote    string   // inner text, without the enclosing '"'
	Stars    int      // 1..5
	Emotions []string // each 3..7 ASCII lowercase letters
	Flags    []Flag
}

// Tunnel links two zettels of the same document: T:from<->to|label.
type Tunnel struct {
	From, To uint64
	Label    string // not blank; may contain '|'
}

// Arc is an emotional trajectory: ARC:emo->emo->...
type Arc struct {
	Emotions []string
}

// Equal reports whether d and o describe the same document. Nil and empty
// slices are equal: the printed form cannot tell them apart.
func (d *Document) Equal(o *Document) bool {
	if d == nil || o == nil {
		return d == o
	}
	return d.Header == o.Header &&
		slices.EqualFunc(d.Zettels, o.Zettels, Zettel.Equal) &&
		slices.Equal(d.Tunnels, o.Tunnels) &&
		slices.EqualFunc(d.Arcs, o.Arcs, func(a, b Arc) bool { return slices.Equal(a.Emotions, b.Emotions) })
}

// Equal reports whether z and o are the same zettel.
func (z Zettel) Equal(o Zettel) bool {
	return z.ID == o.ID && z.Quote == o.Quote && z.Stars == o.Stars &&
		slices.Equal(z.Entities, o.Entities) && slices.Equal(z.Topics, o.Topics) &&
		slices.Equal(z.Emotions, o.Emotions) && slices.Equal(z.Flags, o.Flags)
}

// IsEntityCode reports whether s is a valid entity code: exactly three ASCII
// uppercase letters.
func IsEntityCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	for i := range 3 {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// IsEmotionCode reports whether s is a valid emotion code: three to seven
// ASCII lowercase letters.
func IsEmotionCode(s string) bool {
	if len(s) < 3 || len(s) > 7 {
		return false
	}
	for i := range len(s) {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}
