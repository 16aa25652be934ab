package query

import (
	"strings"
	"unicode"
)

// irregular lists English verbs whose past forms the index's Porter
// stemmer cannot join to the present: it reads wins and winning as win,
// but not won. A question asks "when did Nate win his third tourney?" and
// the message says "I won another tournament last week", so a query word
// that is one of these forms also matches the others (see Term.Forms).
// Left out are forms that are more often another word (left, saw, felt,
// found, sat, fell, led, lay, rose, spoke, ground), those of be, have and
// do (stop words), and go: with went and gone, turn R_all@10 on LoCoMo
// dev conversations 1-2 fell from 0.710 to 0.706 (multi-hop questions
// 0.116 to 0.093); without it that part stays at 0.710 (MRR 0.487 →
// 0.488), and the held-back conversations 3-4 went from 0.687 to 0.695
// (temporal questions 0.742 to 0.788).
var irregular = [][]string{
	{"begin", "began", "begun"}, {"break", "broke", "broken"}, {"bring", "brought"}, {"build", "built"},
	{"buy", "bought"}, {"catch", "caught"}, {"choose", "chose", "chosen"}, {"come", "came"},
	{"draw", "drew", "drawn"}, {"drink", "drank"}, {"drive", "drove", "driven"}, {"eat", "ate", "eaten"},
	{"fight", "fought"}, {"fly", "flew", "flown"}, {"forget", "forgot", "forgotten"}, {"give", "gave", "given"},
	{"grow", "grew", "grown"}, {"hear", "heard"}, {"hold", "held"}, {"keep", "kept"},
	{"know", "knew", "known"}, {"lose", "lost"}, {"make", "made"}, {"meet", "met"}, {"pay", "paid"},
	{"ride", "rode", "ridden"}, {"run", "ran"}, {"say", "said"}, {"sell", "sold"}, {"send", "sent"},
	{"sing", "sang", "sung"}, {"sleep", "slept"}, {"speak", "spoken"}, {"spend", "spent"},
	{"stand", "stood"}, {"steal", "stole", "stolen"}, {"swim", "swam", "swum"}, {"take", "took", "taken"},
	{"teach", "taught"}, {"tell", "told"}, {"think", "thought"}, {"throw", "threw", "thrown"},
	{"understand", "understood"}, {"wake", "woke", "woken"}, {"wear", "wore", "worn"}, {"win", "won"},
	{"write", "wrote", "written"},
}

// otherForms maps each form of irregular to the verb's other forms.
var otherForms = func() map[string][]string {
	out := map[string][]string{}
	for _, all := range irregular {
		for _, f := range all {
			for _, g := range all {
				if g != f {
					out[f] = append(out[f], g)
				}
			}
		}
	}
	return out
}()

// termForms returns the other forms of a term that is one irregular verb
// form, else nil. Phrases, prefixes, possessives and identifiers are taken
// as typed.
func termForms(t Term) []string {
	if t.Phrase || t.Prefix || t.Of != "" || len(t.Parts) > 0 || len(t.Pieces) > 0 {
		return nil
	}
	word := strings.TrimFunc(t.Text, func(r rune) bool { return !unicode.IsLetter(r) })
	return otherForms[strings.ToLower(word)]
}
