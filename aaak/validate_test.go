package aaak

import (
	"errors"
	"testing"
)

func TestValidate(t *testing.T) {
	if err := Validate(sampleDoc()); err != nil {
		t.Fatalf("sample document: %v", err)
	}
	tests := []struct {
		name   string
		mutate func(d *Document)
		line   int
		rule   string
	}{
		{"nil-safe zero version", func(d *Document) { d.Version = 0 }, 1, RuleVersion},
		{"pipe in wing", func(d *Document) { d.Wing = "a|b" }, 1, RuleHeader},
		{"line break in source", func(d *Document) { d.Source = "a\nb" }, 1, RuleHeader},
		{"no body", func(d *Document) { d.Zettels, d.Tunnels, d.Arcs = nil, nil, nil }, 2, RuleBody},
		{"bad entity", func(d *Document) { d.Zettels[1].Entities = []string{"ALICE"} }, 3, RuleEntity},
		{"no entity", func(d *Document) { d.Zettels[0].Entities = nil }, 2, RuleEntity},
		{"entity hiding a separator", func(d *Document) { d.Zettels[0].Entities = []string{"ALI+SQL"} }, 2, RuleMismatch},
		{"no topics", func(d *Document) { d.Zettels[0].Topics = nil }, 2, RuleTopic},
		{"empty topic", func(d *Document) { d.Zettels[0].Topics = []string{"a", ""} }, 2, RuleTopic},
		{"topic with separator", func(d *Document) { d.Zettels[0].Topics = []string{"snake_case"} }, 2, RuleTopic},
		{"quote with pipe", func(d *Document) { d.Zettels[1].Quote = "a|b" }, 3, RuleQuote},
		{"quote with newline", func(d *Document) { d.Zettels[1].Quote = "a\nb" }, 3, RuleQuote},
		{"invalid utf-8 quote", func(d *Document) { d.Zettels[1].Quote = "a\xffb" }, 3, RuleEncoding},
		{"zero stars", func(d *Document) { d.Zettels[0].Stars = 0 }, 2, RuleStars},
		{"six stars", func(d *Document) { d.Zettels[0].Stars = 6 }, 2, RuleStars},
		{"bad emotion", func(d *Document) { d.Zettels[0].Emotions = []string{"surprise"} }, 2, RuleEmotion},
		{"bad flag", func(d *Document) { d.Zettels[0].Flags = []Flag{"GENESIS"} }, 2, RuleFlag},
		{"duplicate id", func(d *Document) { d.Zettels[1].ID = 0 }, 3, RuleDuplicate},
		{"dangling tunnel", func(d *Document) { d.Tunnels[0].To = 9 }, 4, RuleEndpoint},
		{"blank label", func(d *Document) { d.Tunnels[0].Label = " " }, 4, RuleTunnel},
		{"label with newline", func(d *Document) { d.Tunnels[0].Label = "a\nb" }, 4, RuleTunnel},
		{"empty arc", func(d *Document) { d.Arcs[0].Emotions = nil }, 5, RuleArc},
		{"arc step hiding an arrow", func(d *Document) { d.Arcs[0].Emotions = []string{"joy->fear"} }, 5, RuleMismatch},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := sampleDoc()
			tc.mutate(d)
			err := Validate(d)
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("Validate = %v, want Errors", err)
			}
			if es[0].Line != tc.line || es[0].Rule != tc.rule {
				t.Errorf("first error %d:%d %s (%s), want line %d rule %s",
					es[0].Line, es[0].Col, es[0].Rule, es[0].Reason, tc.line, tc.rule)
			}
			// Validate's verdict is exactly the round trip's.
			if back, perr := Parse(Print(d)); perr == nil && back.Equal(d) {
				t.Errorf("Validate rejected a document that survives the round trip")
			}
		})
	}
	if Validate(nil) == nil {
		t.Error("Validate(nil) = nil")
	}
}

// TestValidateColumns: errors point into the printed text.
func TestValidateColumns(t *testing.T) {
	d := sampleDoc()
	d.Zettels[0].Emotions = []string{"determ", "X"}
	es := Validate(d).(Errors)
	// 0:ALI+SQL|sqlite_fts5|"We chose SQLite."|★★★★|determ+X|...
	if es[0].Line != 2 || es[0].Col != 54 {
		t.Errorf("got %d:%d, want 2:54 (%s)", es[0].Line, es[0].Col, es[0].Reason)
	}
}
