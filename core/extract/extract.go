// Package extract proposes knowledge-graph facts from what was said: it
// reads a note, a diary entry or a conversation drawer and returns the
// facts its sentences state (who works on, owns, decided, uses, moved to,
// prefers what), each with the sentence it came from, a confidence and the
// date it was said. It is rule-based: English patterns over words, and
// patterns over gojieba's part-of-speech tags for Chinese; no model.
//
// It only proposes. Nothing here touches the palace: core/kg keeps the
// proposals for review, and a fact enters the graph only when it is
// accepted. The rules therefore lean to precision: a question, a negation
// ("we don't use X", "no longer"), a plan, a suggestion or a hedge ("maybe
// we should use X") proposes nothing, or a confidence below
// DefaultMinConfidence, and a sentence whose subject cannot be named (he,
// it, this fix, "I" in a transcript whose speaker is "user") is skipped.
//
// Conventions of the facts it proposes (the labelled fixture in testdata
// follows them):
//   - owner is the functional predicate core/kg knows: "Dana owns the
//     billing service" is (billing service, owner, Dana), so a new owner is
//     a supersession of the old one.
//   - "we", "our team" is the drawer's We (its wing, the project the
//     conversation is about); "I" is the speaker of the line ("Kai: I work
//     on X"), or the diary's agent.
//   - decided ("we decided to use Postgres", "we went with X") proposes
//     both (we, decided, X) and (we, uses, X).
//   - a move ("we moved from MySQL to Postgres", "从A迁移到B") proposes
//     (we, uses, Postgres) with Replaces MySQL: accepting it ends the old
//     fact from the same date. 搬到 a place proposes lives_in.
//   - objects lose their leading article and what follows them ("Redis for
//     sessions" is Redis); "React and Vite" are two facts.
package extract

import (
	"strings"
	"time"

	"github.com/palace-dev/palace/core/cjk"
)

// The predicates the extractor proposes, normalised as core/kg stores them.
const (
	WorksOn = "works_on"
	Owner   = "owner"
	Decided = "decided"
	Uses    = "uses"
	Prefers = "prefers"
	LivesIn = "lives_in"
)

// DefaultMinConfidence is the confidence below which a proposal is not
// kept. Hedged statements score below it; the labelled fixture's precision
// is measured at it.
const DefaultMinConfidence = 0.7

// Version numbers the rules: a drawer extracted by an older version is
// extracted again by `palace kg extract`. Raise it when the rules change
// what they find.
const Version = 1

// Drawer is what the extractor reads.
type Drawer struct {
	ID   string
	Text string
	// Time is when it was said (a conversation's message time, a note's
	// or diary entry's writing); proposals start on its date. Zero: unknown.
	Time time.Time
	// Speaker is who "I" is on lines without a "Name:" label: the diary's
	// agent. "" leaves those first-person sentences out.
	Speaker string
	// We is who "we" and "our team" are: the wing's project. "" leaves
	// those sentences out.
	We string
}

// Proposal is a fact a sentence states.
type Proposal struct {
	Subject   string `json:"subject"`
	Predicate string `json:"predicate"`
	Object    string `json:"object"`
	// Replaces is, for a move, the object the fact replaces: the subject
	// stopped using it when it started using Object.
	Replaces   string  `json:"replaces,omitempty"`
	Confidence float64 `json:"confidence"`
	// Sentence is the sentence the fact was read from, verbatim.
	Sentence string `json:"sentence"`
	Drawer   string `json:"drawer"`
	// ValidFrom is the date the drawer was said on (UTC midnight); zero
	// when it has no time.
	ValidFrom time.Time `json:"valid_from"`
}

// Tagger tags Chinese words with their part of speech; *cjk.Segmenter is
// one. It is asked only about text holding Han characters.
type Tagger interface {
	Tag(text string) ([]cjk.Tagged, error)
}

// Extractor proposes facts. It holds no state besides its tagger and is
// safe for concurrent use when the tagger is.
type Extractor struct {
	tagger Tagger
}

// New returns an extractor tagging Chinese with t; nil skips Chinese
// sentences.
func New(t Tagger) *Extractor { return &Extractor{tagger: t} }

// fact is a proposal before the drawer's fields are filled in.
type fact struct {
	s, p, o, replaces string
	conf              float64
}

// Extract returns the proposals of d's sentences at or above floor
// confidence, in the order they were said, without repeats (the same
// subject, predicate and object keeps its first sentence and its highest
// confidence). An error comes only from the tagger.
func (e *Extractor) Extract(d Drawer, floor float64) ([]Proposal, error) {
	var day time.Time
	if !d.Time.IsZero() {
		u := d.Time.UTC()
		day = time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)
	}
	var out []Proposal
	seen := map[[3]string]int{}
	for _, u := range units(d.Text, d.Speaker) {
		w := who{speaker: u.speaker, we: d.We}
		var facts []fact
		if hasHan(u.sentence) {
			if e.tagger == nil {
				continue
			}
			var err error
			if facts, err = chinese(e.tagger, u.sentence, w); err != nil {
				return nil, err
			}
		} else {
			facts = english(u.sentence, w)
		}
		for _, f := range facts {
			if f.conf < floor || f.s == "" || f.o == "" || key(f.s) == key(f.o) {
				continue
			}
			k := [3]string{key(f.s), f.p, key(f.o)}
			if i, ok := seen[k]; ok {
				out[i].Confidence = max(out[i].Confidence, round(f.conf))
				continue
			}
			seen[k] = len(out)
			out = append(out, Proposal{Subject: f.s, Predicate: f.p, Object: f.o, Replaces: f.replaces,
				Confidence: round(f.conf), Sentence: u.sentence, Drawer: d.ID, ValidFrom: day})
		}
	}
	return out, nil
}

// who is who the pronouns of a sentence are.
type who struct{ speaker, we string }

// key compares names loosely, as core/kg matches entities: case and
// spacing ignored.
func key(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), "_") }

func round(c float64) float64 { return float64(int(c*100+0.5)) / 100 }
