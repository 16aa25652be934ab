// Package extract proposes knowledge-graph facts from what was said: it
// reads a note, a diary entry or a conversation drawer and returns the
// facts its sentences state (who works on, owns, decided, uses, moved to,
// prefers what, and what is due when), each with the sentence it came
// from, a confidence and the date it was said. It is rule-based: English
// patterns over words, and patterns over gojieba's part-of-speech tags
// for Chinese; no model.
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
//   - "the team" is We too; "the payments team" is people (it owns and
//     decides), "the billing service" a thing (it uses).
//   - decided ("we decided to use Postgres", "we went with X") proposes
//     both (we, decided, X) and (we, uses, X). A person's decision is
//     (Maya, decided, Redis), and the project's use only when it says
//     what for: "Maya decided to use Redis for the cache" adds (We, uses,
//     Redis), never (Maya, uses, Redis).
//   - a move ("we moved from MySQL to Postgres", "从A迁移到B") proposes
//     (we, uses, Postgres) with Replaces MySQL: accepting it ends the old
//     fact from the same date. What moved is the subject when named:
//     "Maya moved the billing service from MySQL to PostgreSQL" is
//     (billing service, uses, PostgreSQL) replacing MySQL. "Moved off
//     Heroku" with nowhere to proposes ending (we, uses, Heroku). 搬到 a
//     place proposes lives_in.
//   - a replacement ("replaced A with B", "swapped A for B", "A was
//     replaced by B", "dropped A in favour of B") is a move to B; a
//     person doing it does it for the project (We), and "in the web app"
//     names the subject.
//   - a version is part of the object: "we upgraded Go to 1.26" is (we,
//     uses, Go 1.26); "bumped Postgres from 15 to 16" replaces Postgres 15.
//   - a deadline is due, its object the day as said: "the RFC is due by
//     Monday", "the deadline for X is March 31", "we have to ship X by
//     Friday", "the launch slipped to May 20" are (X, due, day); pushed
//     "from Friday to Monday" replaces Friday. A meeting moved to a day is
//     no deadline. due is not functional in core/kg: a new day replaces
//     the old only when the sentence names both.
//   - ownership: owns, is owned by, is responsible for, is on the hook
//     for, took over, handed X over to P, "ownership of X moved to P".
//     Maintaining is not owning.
//   - objects lose their leading article and what follows them ("Redis for
//     sessions" is Redis); "React and Vite" are two facts.
package extract

import (
	"fmt"
	"slices"
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
	Due     = "due"
)

// DefaultMinConfidence is the confidence below which a proposal is not
// kept. Hedged statements score below it; the labelled fixture's precision
// is measured at it.
const DefaultMinConfidence = 0.7

// Version numbers the rules: a drawer extracted by an older version is
// extracted again by `palace kg extract`. Raise it when the rules change
// what they find. 2: moves of a named thing, replacements, versions,
// deadlines (due), hand-overs.
const Version = 2

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
	Replaces string `json:"replaces,omitempty"`
	// Ends says the sentence takes the fact back ("no longer", "not ...
	// anymore", "stopped using", "left"): accepting ends it at ValidFrom
	// rather than adding it.
	Ends       bool    `json:"ends,omitempty"`
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
	// ends: the sentence retracts the fact (Proposal.Ends).
	ends bool
	// now: the sentence marks the fact as the current state ("now",
	// "currently"), so it replaces what the drawer said earlier.
	now bool
}

// Extract returns the proposals of d's sentences at or above floor
// confidence, in the order they were said, without repeats (the same
// subject, predicate and object keeps its first sentence and its highest
// confidence). A sentence that only denies ("That's not true.") takes
// back what the sentence before it proposed; a statement marked as the
// current state ("Dana owns X now") replaces what an earlier sentence of
// the drawer said of the same subject and predicate. An error comes only
// from the tagger.
func (e *Extractor) Extract(d Drawer, floor float64) ([]Proposal, error) {
	var day time.Time
	if !d.Time.IsZero() {
		u := d.Time.UTC()
		day = time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)
	}
	us := units(d.Text, d.Speaker)
	said := make([][]fact, len(us))
	for i, u := range us {
		w := who{speaker: u.speaker, we: d.We}
		if hasHan(u.sentence) {
			if e.tagger == nil {
				continue
			}
			var err error
			if said[i], err = chinese(e.tagger, u.sentence, w); err != nil {
				return nil, err
			}
			continue
		}
		if i > 0 && denial(tokenize(strings.TrimRight(u.sentence, ".!"))) {
			said[i-1] = nil
		}
		said[i] = english(u.sentence, w)
	}
	supersede(said)
	var out []Proposal
	seen := map[[4]string]int{}
	for i, u := range us {
		for _, f := range said[i] {
			if f.conf < floor || f.s == "" || f.o == "" || key(f.s) == key(f.o) {
				continue
			}
			k := [4]string{key(f.s), f.p, key(f.o), fmt.Sprint(f.ends)}
			if i, ok := seen[k]; ok {
				out[i].Confidence = max(out[i].Confidence, round(f.conf))
				continue
			}
			seen[k] = len(out)
			out = append(out, Proposal{Subject: f.s, Predicate: f.p, Object: f.o, Replaces: f.replaces, Ends: f.ends,
				Confidence: round(f.conf), Sentence: u.sentence, Drawer: d.ID, ValidFrom: day})
		}
	}
	return out, nil
}

// supersede applies the statements marked as the current state (fact.now)
// to what the same drawer said before them: an earlier fact of the same
// subject and predicate with another object is dropped, and the current
// one replaces it (accepting it ends the old fact where it is stored).
// "Carol owns billing. Dana owns billing now." proposes Dana replacing
// Carol, not both from the same day.
func supersede(said [][]fact) {
	for i := range said {
		for j := range said[i] {
			f := &said[i][j]
			if !f.now || f.ends {
				continue
			}
			for k := 0; k < i; k++ {
				said[k] = slices.DeleteFunc(said[k], func(g fact) bool {
					if g.ends || key(g.s) != key(f.s) || g.p != f.p || key(g.o) == key(f.o) {
						return false
					}
					if f.replaces == "" {
						f.replaces = g.o
					}
					return true
				})
			}
		}
	}
}

// who is who the pronouns of a sentence are.
type who struct{ speaker, we string }

// key compares names loosely, as core/kg matches entities: case and
// spacing ignored.
func key(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), "_") }

func round(c float64) float64 { return float64(int(c*100+0.5)) / 100 }
