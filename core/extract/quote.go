package extract

import (
	"slices"
	"strings"
)

// What a sentence asserts is not all it holds: a claim it reports, one it
// quotes, one it denies and one it takes back. These read those, for
// english.

// reportedPenalty is how much less sure a reported or quoted claim is than
// the same words said plainly: the speaker passes it on without saying it
// is so. A claim a plain statement makes at 0.9 is proposed at 0.75, below
// the 0.8 a careful bulk accept asks for; at the default minimum it is
// still listed for review.
const reportedPenalty = 0.15

// reporters are the words that attribute what follows to someone else:
// "Bob said (that) ...", "according to Bob, ...", "apparently ...".
var reporters = set(`said says say claims claimed claim told tells mentioned mentions heard hears reported reports
	reckons reckoned insists insisted according apparently supposedly allegedly rumor rumour rumored rumoured`)

// reporting reports whether a clause attributes what it says, or what
// follows it, to someone else.
func reporting(ts []token) bool {
	return slices.ContainsFunc(ts, func(t token) bool { return reporters[t.low] })
}

// denials end a clause that calls what came before untrue: "that is
// false", "which isn't true", "that's a lie", "not true".
var denials = set("false untrue wrong incorrect lie nonsense fake bogus inaccurate")

// denial reports whether a clause denies what the sentence said before
// it, or, as a sentence of its own, what the sentence before it said:
// [that|this|which|it|all of that] [is|was] [not] (false|wrong|...|true|
// right|correct|the case), negated where the word is a truth.
func denial(ts []token) bool {
	var words []string
	for _, t := range ts {
		if !t.punct {
			words = append(words, t.low)
		}
	}
	i := 0
	for i < len(words) && (words[i] == "that" || words[i] == "this" || words[i] == "which" || words[i] == "it" ||
		words[i] == "all" || words[i] == "of" || words[i] == "is" || words[i] == "was" || words[i] == "totally" ||
		words[i] == "completely" || words[i] == "simply" || words[i] == "just" || words[i] == "a" || words[i] == "actually") {
		i++
	}
	not := false
	for i < len(words) && (words[i] == "not" || words[i] == "never") {
		not, i = true, i+1
	}
	if i != len(words)-1 && !(i == len(words)-2 && words[i] == "the" && words[i+1] == "case") {
		return false
	}
	last := words[len(words)-1]
	if denials[last] {
		return !not
	}
	return not && (last == "true" || last == "right" || last == "correct" || last == "case" || last == "so")
}

// nowWords mark a statement as the current state, replacing what was
// said before of the same subject: "Dana owns the billing service now".
var nowWords = set("now nowadays currently instead")

// retraction reads a clause that takes a fact back ("Alice does not work
// on Orion anymore", "Kai is no longer responsible for X", "we stopped
// using MongoDB", "Lena quit working on Atlas"): it returns the clause
// without the retracting words, so the fact it names is read as stated,
// and true. Any other clause comes back as it was, with false.
func retraction(ts []token) ([]token, bool) {
	var out []token
	retracts := false
	for i := 0; i < len(ts); i++ {
		low := ts[i].low
		next := ""
		if i+1 < len(ts) {
			next = ts[i+1].low
		}
		switch {
		case low == "anymore":
			retracts = true
			continue
		case (low == "no" && next == "longer") || (low == "any" && (next == "more" || next == "longer") && i+2 == len(ts)):
			// "any more" only last: "we don't need any more servers" is
			// a quantity, not a retraction.
			retracts = true
			i++
			continue
		case (low == "stopped" || low == "quit") && strings.HasSuffix(next, "ing"):
			// "stopped using X": was using it until now.
			retracts = true
			out = append(out, word("are"))
			continue
		}
		out = append(out, ts[i])
	}
	if !retracts {
		return ts, false
	}
	// "not ... anymore": the "not" belongs to the retraction; any other
	// negation ("never", "nobody") still denies the clause.
	out = slices.DeleteFunc(out, func(t token) bool { return t.low == "not" })
	return out, true
}

// leftNamed reports whether "S left O" names someone leaving: a named
// person, not "we" (a team leaves many things). That O is a name or a team
// ("left Orion", not "left the office") the pattern asks of every verb
// like it.
func leftNamed(left []side, w who) bool {
	for _, l := range left {
		if l.we || l.name == w.we {
			return false
		}
	}
	return true
}
