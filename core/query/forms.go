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
//
// Only a question gets the other forms (see isQuestion): a question puts
// the verb's base form after did, does or has where the answer says the
// past ("did Nate win" / "Nate won"). A request or a commit subject says
// what it means as typed ("Fix out of bounds write", "only send bearer if
// auth is allowed"), and there written and sent pulled other files above
// the changed one (bench code on Debian's redis and curl histories).
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

// questionWords are the first words of an English question: the wh-words
// and the auxiliaries a yes-no question starts with.
var questionWords = map[string]bool{
	"what": true, "when": true, "where": true, "which": true, "who": true, "whom": true,
	"whose": true, "why": true, "how": true, "did": true, "do": true, "does": true,
	"has": true, "have": true, "had": true, "is": true, "are": true, "was": true,
	"were": true, "can": true, "could": true, "would": true, "will": true, "should": true,
}

// objectPronoun are the pronouns that end a question as its object
// ("what did her family give her?"): they stand for a person the question
// names, unlike a stranded preposition, which the answer completes.
var objectPronoun = map[string]bool{
	"me": true, "you": true, "him": true, "her": true, "it": true, "them": true,
	"myself": true, "yourself": true, "himself": true, "herself": true, "itself": true,
	"ourselves": true, "themselves": true,
}

// isQuestion reports whether text is a question: it ends with a question
// mark or starts with a question word.
func isQuestion(text string) bool {
	text = strings.TrimSpace(text)
	if strings.HasSuffix(text, "?") {
		return true
	}
	words := strings.Fields(text)
	return len(words) > 0 && questionWords[bareWord(words[0])]
}

// termForms returns the other forms of a term that is one irregular verb
// form, else nil. Phrases, prefixes, possessives and identifiers are taken
// as typed.
func termForms(t Term) []string {
	if t.Phrase || t.Prefix || t.Of != "" || len(t.Parts) > 0 || len(t.Pieces) > 0 {
		return nil
	}
	return otherForms[bareWord(t.Text)]
}

// bareWord is w in lower case without the punctuation around it ("Win?"
// is win).
func bareWord(w string) string {
	return strings.ToLower(strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }))
}
