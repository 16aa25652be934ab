package extract

import (
	"slices"
	"strings"
	"unicode"
)

// English sentences are read clause by clause: a clause is cut at ";",
// "," and "but", and one that denies, asks, plans or doubts proposes
// nothing, or proposes below the default confidence. In a clause, a verb
// phrase from the patterns below is looked for; its subject is the names
// (or "I", "we", "the X") just before it, its object the noun phrase just
// after it, up to a preposition, a conjunction or a time word.
//
// Who says it matters as much as what is said (quote.go): a claim someone
// else made ("Bob said Carol owns X", a quotation) is proposed below the
// plain statement, and one the sentence then denies ("... but that is
// false") not at all. A retraction ("no longer", "not ... anymore",
// "stopped using", "left") proposes ending the fact it names.
//
// Changes (change.go) are read past the verb: a move of a named thing, a
// replacement, an upgrade to a version, a hand-over and a deadline.

// shape is how a pattern's two sides map to a fact.
type shape int

const (
	active  shape = iota // S verb O: (S, pred, O)
	owns                 // S owns O: (O, owner, S)
	ownedBy              // O is owned by S: the left side is the thing
	// The shapes below are read in change.go.
	shift    // S moved [X] [from|off A] [to B]: a move, an upgrade or a deadline moved
	replace  // S replaced A with B, B replaced A in X
	swap     // S swapped A for B, dropped A in favour of B; without B, stopped using A
	passive  // A was replaced by B
	handover // S handed X over to P: (X, owner, P)
	rewrite  // S rewrote X in B: (X, uses, B)
	due      // X is due D: (X, due, D)
	deadline // the deadline for X is D, X's deadline is D
	dueBy    // S has to ship X by D
	state    // S is on B (uses B), S is off B (ended)
)

type pattern struct {
	words []string // the verb phrase, lower case
	pred  string
	shape shape
	// person: the subject must be a person or a team (a name, I, we), not
	// "the X": "the retry loop works on every platform" is no fact.
	person bool
	// decided also proposes (S, uses, O).
	decided bool
	// gerund: an -ing form, true only after am/is/are/been ("is using"),
	// not as a noun ("using Redis is fine").
	gerund bool
	// ends: the verb itself retracts the fact ("left Orion": no longer
	// works on it).
	ends bool
	// named: the object must be a name or a team ("joined Atlas", "left
	// the billing team"), not any noun ("joined the call").
	named bool
	// thing: the subject must be a thing ("the billing service talks to
	// Stripe"), not a person talking to someone.
	thing bool
	// tech, sched: what a shift may propose: what the subject uses (a
	// move, an upgrade), when it is due (a deadline pushed), or both.
	tech, sched bool
}

// patterns, longest first where one starts another.
var patterns = []pattern{
	{words: w("works on"), pred: WorksOn, person: true},
	{words: w("work on"), pred: WorksOn, person: true},
	{words: w("working on"), pred: WorksOn, person: true, gerund: true},

	{words: w("is owned by"), pred: Owner, shape: ownedBy},
	{words: w("are owned by"), pred: Owner, shape: ownedBy},
	{words: w("is the owner of"), pred: Owner, shape: owns, person: true},
	{words: w("are the owners of"), pred: Owner, shape: owns, person: true},
	{words: w("is responsible for"), pred: Owner, shape: owns, person: true},
	{words: w("are responsible for"), pred: Owner, shape: owns, person: true},
	{words: w("is in charge of"), pred: Owner, shape: owns, person: true},
	{words: w("on the hook for"), pred: Owner, shape: owns, person: true},
	{words: w("took ownership of"), pred: Owner, shape: owns, person: true},
	{words: w("took over"), pred: Owner, shape: owns, person: true},
	// Maintaining is not owning (labelled.jsonl): a thing has one owner,
	// and maintainers come in numbers.
	{words: w("owns"), pred: Owner, shape: owns, person: true},
	{words: w("own"), pred: Owner, shape: owns, person: true},
	{words: w("handed"), pred: Owner, shape: handover, person: true},

	{words: w("decided to use"), pred: Decided, decided: true},
	{words: w("decided to adopt"), pred: Decided, decided: true},
	{words: w("decided to go with"), pred: Decided, decided: true},
	{words: w("decided to switch to"), pred: Decided, decided: true},
	{words: w("decided to move to"), pred: Decided, decided: true},
	{words: w("decided on"), pred: Decided, decided: true},
	{words: w("went with"), pred: Decided, decided: true},
	{words: w("settled on"), pred: Decided, decided: true},
	{words: w("opted for"), pred: Decided, decided: true},
	{words: w("agreed on"), pred: Decided, decided: true},
	{words: w("agreed to use"), pred: Decided, decided: true},
	{words: w("agreed to go with"), pred: Decided, decided: true},
	{words: w("chose"), pred: Decided, decided: true},
	{words: w("picked"), pred: Decided, decided: true},

	// A move names what moved, or moves the subject itself: "Maya moved
	// the billing service from MySQL to PostgreSQL", "we migrated off
	// MongoDB", "we upgraded Go to 1.26", "the launch slipped to May 20".
	{words: w("moved"), pred: Uses, shape: shift, tech: true, sched: true},
	{words: w("migrated"), pred: Uses, shape: shift, tech: true},
	{words: w("switched"), pred: Uses, shape: shift, tech: true},
	{words: w("ported"), pred: Uses, shape: shift, tech: true},
	{words: w("upgraded"), pred: Uses, shape: shift, tech: true},
	{words: w("downgraded"), pred: Uses, shape: shift, tech: true},
	{words: w("bumped"), pred: Uses, shape: shift, tech: true},
	{words: w("pinned"), pred: Uses, shape: shift, tech: true},
	{words: w("pushed"), pred: Due, shape: shift, sched: true},
	{words: w("slipped"), pred: Due, shape: shift, sched: true},
	{words: w("postponed"), pred: Due, shape: shift, sched: true},
	{words: w("delayed"), pred: Due, shape: shift, sched: true},
	{words: w("rescheduled"), pred: Due, shape: shift, sched: true},

	{words: w("was replaced"), pred: Uses, shape: passive},
	{words: w("were replaced"), pred: Uses, shape: passive},
	{words: w("been replaced"), pred: Uses, shape: passive},
	{words: w("got replaced"), pred: Uses, shape: passive},
	{words: w("replaced"), pred: Uses, shape: replace},
	{words: w("swapped"), pred: Uses, shape: swap},
	{words: w("ditched"), pred: Uses, shape: swap},
	{words: w("dropped"), pred: Uses, shape: swap},
	{words: w("traded"), pred: Uses, shape: swap},
	{words: w("got rid of"), pred: Uses, shape: swap},
	{words: w("rewrote"), pred: Uses, shape: rewrite},

	{words: w("relies on"), pred: Uses},
	{words: w("rely on"), pred: Uses},
	{words: w("relying on"), pred: Uses, gerund: true},
	{words: w("uses"), pred: Uses},
	{words: w("use"), pred: Uses},
	{words: w("using"), pred: Uses, gerund: true},
	{words: w("runs on"), pred: Uses},
	{words: w("run on"), pred: Uses},
	{words: w("running on"), pred: Uses, gerund: true},
	{words: w("built on"), pred: Uses, gerund: true},
	{words: w("written in"), pred: Uses, gerund: true},
	{words: w("rewritten in"), pred: Uses, gerund: true},
	{words: w("targets"), pred: Uses, named: true},
	{words: w("target"), pred: Uses, named: true},
	{words: w("adopted"), pred: Uses},
	{words: w("talks to"), pred: Uses, thing: true, named: true},
	// "We're on Node 22", "the API service is on Java 21 now", "we're
	// finally off Python 2": after am/is/are only.
	{words: w("on"), pred: Uses, shape: state, gerund: true},
	{words: w("off"), pred: Uses, shape: state, gerund: true, ends: true},

	// Deadlines: "the RFC is due by Monday", "the deadline for X is March
	// 31", "we have to ship X by Friday".
	{words: w("due"), pred: Due, shape: due, gerund: true},
	{words: w("deadline for"), pred: Due, shape: deadline},
	{words: w("deadline is"), pred: Due, shape: deadline},
	{words: w("ship"), pred: Due, shape: dueBy},
	{words: w("finish"), pred: Due, shape: dueBy},
	{words: w("deliver"), pred: Due, shape: dueBy},
	{words: w("land"), pred: Due, shape: dueBy},
	{words: w("complete"), pred: Due, shape: dueBy},
	{words: w("submit"), pred: Due, shape: dueBy},
	{words: w("launch"), pred: Due, shape: dueBy},
	{words: w("release"), pred: Due, shape: dueBy},

	{words: w("would rather use"), pred: Prefers, person: true},
	{words: w("would rather"), pred: Prefers, person: true},
	{words: w("prefers"), pred: Prefers, person: true},
	{words: w("prefer"), pred: Prefers, person: true},
	{words: w("likes"), pred: Prefers, person: true},

	// Joining and leaving name what one works on: "Alice left Orion",
	// "Lena joined the payments team". Only a named object or a team,
	// since one also leaves the office and joins a call.
	{words: w("joined"), pred: WorksOn, person: true, named: true},
	{words: w("left"), pred: WorksOn, person: true, ends: true, named: true},
}

func w(s string) []string { return strings.Fields(s) }

// wordSet is a set of lower-case words.
type wordSet map[string]bool

func set(s string) wordSet {
	m := wordSet{}
	for _, f := range strings.Fields(s) {
		m[f] = true
	}
	return m
}

// negations deny the clause: it proposes nothing. "against" is "decided
// against"; "nobody" and "no one" deny the subject.
var negations = set("not never no nobody none neither nor against anymore longer without nothing")

// hedges doubt, plan, ask or suggest: the clause proposes below the
// default confidence. Modal verbs, "will" (a plan is not yet a fact),
// "if"/"whether" (a condition), thinking and suggesting.
var hedges = set(`maybe perhaps probably possibly likely might may could should would will shall must can
	think thinks guess suppose believe wonder wondering suggest suggested suggests suggesting propose proposed
	planning plan plans considering consider want wants hope unclear whether if unless eventually someday
	going try trying tempted debating`)

// skippable stand between a subject and its verb: auxiliaries and adverbs.
var skippable = set(`am is are be been being has have had do does did still also currently now mostly actually
	already really both all just always usually primarily mainly officially recently finally even then
	ultimately mostly basically definitely`).union(hedges)

// gerundAux make an -ing verb a present statement.
var gerundAux = set("am is are been")

// pastAux make it a past one.
var pastAux = set("was were had")

// function words end a name or a noun phrase, as hedges do ("I think
// Dana owns X": Dana).
var function = set(`the a an this that these those it its it's he she they them him her his their our my your
	i we you us me who what which whom whose where when why how whether if unless because since so as
	and or but nor for in on at with between by from to into onto over than before after until via per
	while though although about against without within under across through during of off up down out
	is are am was were be been being has have had do does did will would shall should can could may might must
	not no nobody none nothing someone somebody everyone everybody anyone anybody something everything anything
	all both each every some any many much more most few other another such
	maybe perhaps probably possibly also still just now then today yesterday tomorrow here there yet again
	anymore lately currently recently already very really quite instead too either neither
	please let lets let's ok okay yes well hi hey thanks`).union(hedges)

// objectStop ends an object: prepositions, conjunctions, time words.
var objectStop = set(`for in on at with between by from to into onto over than before after since until because
	so as via per when while if instead now today tonight tomorrow yesterday these this next last again anymore
	lately currently recently too also here there yet already still and or but which that who where whose
	except including like unlike against without during through across under within is are was were`)

// badObject start an object that names nothing: a quantifier or a pronoun.
var badObject = set(`every all any each no none some it that this these those them him her me us something
	anything everything whatever what which whether how one ones`)

// determiners are dropped from the front of an object; an indefinite one
// makes it less specific.
var determiners = set("the a an our their its his her my your")

func (m wordSet) union(o wordSet) wordSet {
	out := wordSet{}
	for k := range m {
		out[k] = true
	}
	for k := range o {
		out[k] = true
	}
	return out
}

// token is a word or a punctuation mark of a sentence.
type token struct {
	text, low string
	punct     bool
}

// tokenize cuts an English sentence into words and marks. A word keeps
// inner dots, dashes, slashes and apostrophes (Fly.io, table-driven,
// CI/CD); contractions are expanded (doesn't: does not; I'm: I am).
func tokenize(s string) []token {
	s = strings.NewReplacer("\u2019", "'", "\u2018", "'").Replace(s)
	rs := []rune(s)
	var out []token
	isWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case isWord(r):
			j := i + 1
			for j < len(rs) {
				if isWord(rs[j]) || rs[j] == '+' || rs[j] == '#' {
					j++
					continue
				}
				if strings.ContainsRune(".-/'", rs[j]) && j+1 < len(rs) && isWord(rs[j+1]) {
					j += 2
					continue
				}
				break
			}
			out = append(out, expand(string(rs[i:j]))...)
			i = j
		default:
			out = append(out, token{text: string(r), low: string(r), punct: true})
			i++
		}
	}
	// "Kai's working on X": the 's is "is" before an -ing verb.
	for i := 0; i+1 < len(out); i++ {
		if base, ok := strings.CutSuffix(out[i].text, "'s"); ok && strings.HasSuffix(out[i+1].low, "ing") {
			out = slices.Insert(out, i+1, word("is"))
			out[i] = word(base)
		}
	}
	return out
}

func word(s string) token { return token{text: s, low: strings.ToLower(s)} }

// contractions are the endings expand splits off, with what they stand for.
var contractions = []struct{ suffix, full string }{
	{"'m", "am"}, {"'re", "are"}, {"'ve", "have"}, {"'ll", "will"}, {"'d", "would"},
}

func expand(s string) []token {
	low := strings.ToLower(s)
	switch {
	case low == "can't" || low == "cannot":
		return []token{word("can"), word("not")}
	case low == "won't":
		return []token{word("will"), word("not")}
	case strings.HasSuffix(low, "n't"):
		return []token{word(s[:len(s)-3]), word("not")}
	case low == "it's" || low == "that's" || low == "there's" || low == "what's" || low == "who's" || low == "he's" || low == "she's":
		return []token{word(s[:len(s)-2]), word("is")}
	}
	for _, c := range contractions {
		if strings.HasSuffix(low, c.suffix) && len(s) > len(c.suffix) {
			return []token{word(s[:len(s)-len(c.suffix)]), word(c.full)}
		}
	}
	return []token{word(s)}
}

// english proposes the facts of one English sentence.
func english(sentence string, w who) []fact {
	if strings.HasSuffix(strings.TrimSpace(sentence), "?") {
		return nil // a question states nothing
	}
	cs := clauses(tokenize(sentence))
	var out []fact
	reported := false
	for _, c := range cs {
		if c.afterBut {
			reported = false // "Bob said X, but Dana owns Y": Y is the speaker's own
		}
		reported = reported || reporting(c.ts)
		if denial(c.ts) {
			// "... but that is false": what came before is denied.
			out = nil
			continue
		}
		fs := clause(c.ts, w)
		if reported || c.quoted {
			for i := range fs {
				fs[i].conf -= reportedPenalty
			}
		}
		out = append(out, fs...)
	}
	return out
}

// piece is a clause of a sentence: its tokens, whether it is inside
// quotation marks or holds some, and whether "but" began it.
type piece struct {
	ts       []token
	quoted   bool
	afterBut bool
}

// clauses cuts a sentence's tokens at ; : , ( ) dashes and "but", and
// drops a leading conjunction from each piece.
func clauses(ts []token) []piece {
	var out []piece
	var cur piece
	inQuote := false
	for _, t := range ts {
		if t.punct && strings.ContainsAny(t.text, "\"“”'") {
			if strings.ContainsAny(t.text, "\"“”") {
				inQuote = !inQuote
			}
			cur.quoted = true
		}
		if (t.punct && strings.ContainsAny(t.text, ";:,()—–\"“”")) || t.low == "but" {
			out, cur = append(out, cur), piece{quoted: inQuote, afterBut: t.low == "but"}
			continue
		}
		if t.punct && strings.ContainsAny(t.text, ".!") {
			continue
		}
		if len(cur.ts) == 0 && (t.low == "and" || t.low == "so" || t.low == "then" || t.low == "also") {
			continue
		}
		cur.ts = append(cur.ts, t)
	}
	return append(out, cur)
}

// side is one side of a fact: a name and how sure its reading is.
type side struct {
	name  string
	conf  float64
	thing bool // "the X": a thing, not a person or team
	we    bool // the drawer's We: "we", "our team", "the team"
}

// clause proposes the facts of one clause. A retraction ("no longer",
// "anymore", "stopped using") is read without its retracting words, and
// what it states is proposed as ending.
func clause(ts []token, w who) []fact {
	ts, retracts := retraction(ts)
	ts = notUntil(ts)
	for _, t := range ts {
		if negations[t.low] {
			return nil
		}
	}
	now := slices.ContainsFunc(ts, func(t token) bool { return nowWords[t.low] })
	var out []fact
	for i := 0; i < len(ts); i++ {
		p, ok := match(ts, i)
		if !ok {
			continue
		}
		j := i + len(p.words)
		fs := read(ts, i, j, p, w)
		for k := range fs {
			fs[k].ends = fs[k].ends || retracts || p.ends
			fs[k].now = now
		}
		out = append(out, fs...)
		i = j - 1
	}
	return out
}

// match finds the pattern starting at ts[i].
func match(ts []token, i int) (pattern, bool) {
	for _, p := range patterns {
		if i+len(p.words) > len(ts) {
			continue
		}
		ok := true
		for k, wd := range p.words {
			if ts[i+k].low != wd {
				ok = false
				break
			}
		}
		if ok {
			return p, true
		}
	}
	return pattern{}, false
}

// read turns the pattern found at ts[i:j] into facts. A hedge anywhere
// in the clause halves their confidence.
func read(ts []token, i, j int, p pattern, w who) []fact {
	hedged := false
	for k, t := range ts {
		if (k < i || k >= j) && hedges[t.low] && !month(ts, k) {
			hedged = true
		}
	}
	out := readFacts(ts, i, j, p, w)
	if hedged {
		for k := range out {
			out[k].conf /= 2
		}
	}
	return out
}

// month reports whether ts[k], "may", is the month: "in May", "by May 3".
func month(ts []token, k int) bool {
	return ts[k].text == "May" && k > 0 && (ts[k-1].low == "in" || ts[k-1].low == "by" || ts[k-1].low == "on" ||
		ts[k-1].low == "until" || ts[k-1].low == "since" || ts[k-1].low == "to" || ts[k-1].low == "of")
}

func readFacts(ts []token, i, j int, p pattern, w who) []fact {
	// Deadlines name their subject after the verb, or before it as a
	// possessive; "have to ship X by D" is the one "to" that states.
	switch p.shape {
	case deadline:
		return deadlineFacts(ts, i, j, p, w)
	case dueBy:
		return dueByFacts(ts, i, j)
	}
	if i > 0 && ts[i-1].low == "to" {
		return nil // "need to use X", "how to use X": not a statement
	}
	k, aux, past := i-1, false, false
	for k >= 0 && skippable[ts[k].low] {
		aux = aux || gerundAux[ts[k].low]
		past = past || pastAux[ts[k].low]
		k--
	}
	if p.gerund && (!aux || past) {
		return nil
	}
	left := subjects(ts[:k+1], w)
	if len(left) == 0 {
		return nil
	}
	switch p.shape {
	case shift:
		return shiftFacts(ts[:k+1], ts[j:], left, p, w)
	case replace, swap, passive:
		return replaceFacts(ts[j:], left, p, w)
	case handover:
		return handoverFacts(ts[j:], left)
	case rewrite:
		return rewriteFacts(ts[j:], left)
	case due:
		return dueFacts(ts[j:], left)
	case state:
		return stateFacts(ts[j:], left, p)
	}
	right, rest := object(ts[j:])
	if p.named {
		right = slices.DeleteFunc(right, func(r side) bool { return !nameOrTeam(r.name) })
	}
	if len(right) == 0 {
		return nil
	}
	if p.ends && !leftNamed(left, w) {
		return nil
	}
	if p.pred == Uses && slices.ContainsFunc(right, func(r side) bool { return isDate(r.name) }) {
		return nil // "the job runs on Mondays"
	}
	// A decision is what the deciders use when they are the project ("we
	// decided to use Postgres"); a person's decision is the project's when
	// it names what for ("Maya decided to use Redis for the cache"), and
	// only theirs otherwise ("I decided to use Neovim for everything").
	for_ := purpose(rest)
	var out []fact
	for _, l := range left {
		if p.thing && !l.thing {
			continue
		}
		for _, r := range right {
			s, o := l, r
			if p.shape == owns {
				s, o = r, l
			}
			person := l
			if p.shape == ownedBy {
				person = r
			}
			if (p.person || p.shape == ownedBy) && person.thing {
				continue
			}
			c := min(l.conf, r.conf)
			out = append(out, fact{s: s.name, p: p.pred, o: o.name, conf: c})
			if !p.decided || p.ends {
				continue
			}
			switch {
			case l.we:
				out = append(out, fact{s: s.name, p: Uses, o: o.name, conf: c})
			case for_ && key(s.name) == key(w.we):
				out = append(out, fact{s: s.name, p: Uses, o: o.name, conf: c}) // "Platform decided ..." in platform
			case for_ && w.we != "":
				out = append(out, fact{s: w.we, p: Uses, o: o.name, conf: c})
			}
		}
	}
	return out
}

// subjects reads the names just before a verb: "Kai", "Marco and Lena",
// "Dana and I", "we", "our team", "the billing service". Anything else
// (he, this fix, nobody, a lower-case phrase without "the") is no subject.
func subjects(ts []token, w who) []side {
	var out []side
	k := len(ts) - 1
	for k >= 0 {
		var s side
		switch t := ts[k]; {
		case t.low == "i":
			if w.speaker == "" {
				return nil
			}
			s, k = side{name: w.speaker, conf: 0.85}, k-1
		case t.low == "we" || (t.low == "team" && k > 0 && (ts[k-1].low == "our" || ts[k-1].low == "my" || ts[k-1].low == "the")):
			if w.we == "" {
				return nil
			}
			s, k = side{name: w.we, conf: 0.85, we: true}, k-1
			if t.low == "team" {
				k--
			}
		default:
			start := k
			for start >= 0 && !ts[start].punct && !function[ts[start].low] && !reporters[ts[start].low] {
				start--
			}
			run := ts[start+1 : k+1]
			the := start >= 0 && ts[start].low == "the"
			if !the {
				// "Last week Priya ported ...": the time comes first.
				for len(run) > 1 && timeWords[run[0].low] {
					run = run[1:]
				}
			}
			if len(run) == 0 || len(run) > 4 {
				return nil
			}
			switch {
			case the && len(out) == 0 && teamWords[run[len(run)-1].low]:
				s = side{name: join(run), conf: 0.85} // "the payments team": people
			case the && len(out) == 0:
				s = side{name: join(run), conf: 0.8, thing: true}
			case allNames(run):
				s = side{name: join(run), conf: 0.9}
			default:
				return nil
			}
			k = start
			if the {
				k--
			}
		}
		out = append(out, s)
		if k < 0 || ts[k].low != "and" || s.thing {
			break
		}
		k-- // "Marco and Lena": read the name before "and" too
	}
	if k >= 0 && !ts[k].punct && determinerLike(ts[k].low) && !(ts[k].low == "that" && k > 0 && reporters[ts[k-1].low]) {
		return nil // "this fix", "his team"; but "said that Carol ..." reports Carol
	}
	slices.Reverse(out)
	return out
}

// determinerLike words before a subject make it something else's.
func determinerLike(low string) bool {
	switch low {
	case "this", "that", "these", "those", "a", "an", "its", "his", "her", "their", "my", "your", "each", "every", "some", "any", "no":
		return true
	}
	return false
}

// object reads the noun phrases just after a verb, "React and Vite" as
// two, and returns what follows them. An object after "or" is a choice
// not yet made: it comes back halved.
func object(ts []token) ([]side, []token) {
	var out []side
	k := 0
	for {
		conf := 0.9
		for k < len(ts) && determiners[ts[k].low] {
			if ts[k].low == "a" || ts[k].low == "an" {
				conf -= 0.1
			}
			k++
		}
		if k >= len(ts) || ts[k].punct || badObject[ts[k].low] {
			return out, ts[k:]
		}
		start := k
		for k < len(ts) && !ts[k].punct && !objectStop[ts[k].low] && !function[ts[k].low] {
			k++
		}
		run := ts[start:k]
		if len(run) == 0 {
			return out, ts[k:]
		}
		if len(run) > 4 {
			conf -= 0.1
		}
		if !slices.ContainsFunc(run, named) {
			conf -= 0.05
		}
		out = append(out, side{name: join(run), conf: conf})
		if k >= len(ts) || (ts[k].low != "and" && ts[k].low != "or") {
			return out, ts[k:]
		}
		if ts[k].low == "or" {
			for i := range out {
				out[i].conf /= 2
			}
		}
		k++
	}
}

// named reports whether a word looks like a name: a capital or a digit
// somewhere (Orion, gRPC, port 3000).
func named(t token) bool {
	return strings.ContainsFunc(t.text, func(r rune) bool { return unicode.IsUpper(r) || unicode.IsDigit(r) })
}

func allNames(ts []token) bool {
	for _, t := range ts {
		if r := []rune(t.text); !unicode.IsUpper(r[0]) && !named(t) {
			return false
		}
	}
	return true
}

func join(ts []token) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.text
	}
	return strings.Join(parts, " ")
}
