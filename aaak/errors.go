package aaak

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Rule codes name the rule a [ParseError] reports. They are stable so that
// tools and tests can match on them instead of on the wording of Reason.
const (
	RuleHeader    = "header"    // missing header or wrong number of header fields
	RuleVersion   = "version"   // version is not digits, or not 1
	RuleBody      = "body"      // no body line, or a line of no known kind
	RuleEncoding  = "encoding"  // invalid UTF-8, a stray carriage return or a terminal control
	RuleZettel    = "zettel"    // zettel id or field count
	RuleEntity    = "entity"    // entity code shape
	RuleTopic     = "topic"     // topics field
	RuleQuote     = "quote"     // quote field
	RuleStars     = "stars"     // stars field
	RuleEmotion   = "emotion"   // emotion code shape in a zettel
	RuleFlag      = "flag"      // flag outside the closed set
	RuleTunnel    = "tunnel"    // tunnel syntax or blank label
	RuleArc       = "arc"       // arc syntax or emotion code shape
	RuleDuplicate = "duplicate" // zettel id used twice
	RuleEndpoint  = "endpoint"  // tunnel endpoint names no zettel
	RuleMismatch  = "mismatch"  // Validate: a value would not read back as written
)

// ParseError is one violated rule at a position in AAAK text. Line and Col
// are 1-based; Col counts runes, not bytes. For errors from [Validate] the
// position refers to the text [Print] writes for the document.
type ParseError struct {
	Line   int
	Col    int
	Rule   string // one of the Rule* constants
	Reason string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Reason)
}

// Errors collects every error found in one document, sorted by position.
// It unwraps to its elements, so errors.As finds a *ParseError.
type Errors []*ParseError

func (es Errors) Error() string {
	switch len(es) {
	case 0:
		return "aaak: no errors"
	case 1:
		return "aaak: " + es[0].Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "aaak: %d errors:", len(es))
	for _, e := range es {
		b.WriteString("\n\t")
		b.WriteString(e.Error())
	}
	return b.String()
}

// Unwrap returns the individual errors.
func (es Errors) Unwrap() []error {
	out := make([]error, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

func (es Errors) sort() {
	slices.SortStableFunc(es, func(a, b *ParseError) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
}

// Note records one thing the legacy reader changed to make its input valid V1.
type Note struct {
	Line    int // 1-based line of the input the note is about; 0 for the whole document
	Message string
}

func (n Note) String() string {
	if n.Line == 0 {
		return n.Message
	}
	return fmt.Sprintf("line %d: %s", n.Line, n.Message)
}
