package aaak

import (
	"fmt"
	"slices"
	"strings"
)

// Validate checks that doc is a valid V1 document: every field has its
// grammatical shape, zettel ids are unique, tunnel endpoints exist and arc
// emotions are valid codes. A valid document survives the round trip:
// Parse(Print(doc)) equals doc.
//
// Errors are [Errors]; their positions are lines and columns of Print(doc).
func Validate(doc *Document) error {
	if doc == nil {
		return Errors{{Line: 1, Col: 1, Rule: RuleHeader, Reason: "nil document"}}
	}
	// First the problems Print would hide (it turns line breaks into spaces)
	// or that would read back as something else without a parse error.
	var errs Errors
	flagged := map[int]bool{}
	bad := func(line, col int, rule, format string, args ...any) {
		errs = append(errs, &ParseError{Line: line, Col: col, Rule: rule, Reason: fmt.Sprintf(format, args...)})
		flagged[line] = true
	}
	for _, f := range []struct{ name, v string }{
		{"wing", doc.Wing}, {"room", doc.Room}, {"date", doc.Date}, {"source", doc.Source},
	} {
		if strings.ContainsAny(f.v, "|\r\n") || hasTerminalControl(f.v) {
			bad(1, 1, RuleHeader, "header %s %q contains '|', a line break or a control character", f.name, f.v)
		}
	}
	line := 1
	for _, z := range doc.Zettels {
		line++
		text, off := formatZettel(z)
		cols := newColumns(text)
		for _, tp := range z.Topics {
			switch {
			case tp == "":
				bad(line, cols.at(off[1]), RuleTopic, "zettel %d has an empty topic", z.ID)
			case strings.ContainsAny(tp, "_|\r\n") || hasTerminalControl(tp):
				bad(line, cols.at(off[1]), RuleTopic, "topic %q contains '_', '|', a line break or a control character", tp)
			}
		}
		if strings.ContainsAny(z.Quote, "|\r\n") || hasTerminalControl(z.Quote) {
			bad(line, cols.at(off[2]), RuleQuote, "quote of zettel %d contains '|', a line break or a control character", z.ID)
		}
	}
	for _, t := range doc.Tunnels {
		line++
		if strings.ContainsAny(t.Label, "\r\n") || hasTerminalControl(t.Label) {
			bad(line, 1, RuleTunnel, "tunnel label %q contains a line break or a control character", t.Label)
		}
	}

	// Then everything else, by reading back what Print writes: the one
	// reader is the one definition of validity.
	got, err := Parse(Print(doc))
	if err != nil {
		for _, e := range err.(Errors) {
			if !flagged[e.Line] {
				errs = append(errs, e)
			}
		}
	} else if len(errs) == 0 {
		errs = mismatches(doc, got)
	}
	if len(errs) > 0 {
		errs.sort()
		return errs
	}
	return nil
}

// hasTerminalControl reports whether s holds a character AAAK text may not
// hold (isTerminalControl), which Print would not write as it is.
func hasTerminalControl(s string) bool { return strings.IndexFunc(s, isTerminalControl) >= 0 }

// mismatches reports elements that parse but read back differently. With
// the checks above this should not happen; it is the safety net that makes
// Validate exactly "Parse(Print(doc)) equals doc".
func mismatches(want, got *Document) Errors {
	var errs Errors
	bad := func(line int, format string, args ...any) {
		errs = append(errs, &ParseError{Line: line, Col: 1, Rule: RuleMismatch, Reason: fmt.Sprintf(format, args...)})
	}
	if want.Header != got.Header {
		bad(1, "header reads back as %+v", got.Header)
	}
	line := 1
	for i, z := range want.Zettels {
		line++
		if i >= len(got.Zettels) || !z.Equal(got.Zettels[i]) {
			bad(line, "zettel %d does not read back as written", z.ID)
		}
	}
	for i, t := range want.Tunnels {
		line++
		if i >= len(got.Tunnels) || t != got.Tunnels[i] {
			bad(line, "tunnel %d<->%d does not read back as written", t.From, t.To)
		}
	}
	for i := range want.Arcs {
		line++
		if i >= len(got.Arcs) || !slices.Equal(want.Arcs[i].Emotions, got.Arcs[i].Emotions) {
			bad(line, "arc does not read back as written")
		}
	}
	return errs
}
