package extract

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Changes are what engineering talk mostly states: a thing moved from one
// system to another ("Maya moved the billing service from MySQL to
// PostgreSQL"), replaced one with another, upgraded to a version, handed
// over to someone, and a deadline set or pushed. These read them, for
// english, once a pattern of english.go has found the verb and its
// subject.
//
// What a change is made to decides the fact's subject: the thing moved
// when it is named ("the billing service uses PostgreSQL"), the place
// named after it ("bumped Postgres to 16 on the billing cluster"), else
// the project: a person replacing, upgrading or picking a tool for
// something does it for the drawer's We ("Lena replaced the hand-written
// SQL with sqlc": orion uses sqlc), while we and a thing stay themselves.

// kind is what one end of a move names.
type kind int

const (
	none    kind = iota
	name         // a system, a tool, a team: "PostgreSQL", "the new cluster"
	version      // a bare version: "1.26", "16"
	day          // a day: "Friday", "March 31", "next month"
	clock        // a time of day: "10am"; moves nothing the graph keeps
)

// target is one end of a move.
type target struct {
	side
	kind kind
}

var (
	weekdays = set("monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri")
	months   = set(`january february march april may june july august september october november december
		jan feb mar apr jun jul aug sep sept oct nov dec`)
	// periods follow next, this or "end of": "next month", "end of the sprint".
	periods = set("week month sprint quarter year release cycle")
	// timeWords say when, not who or where: "Last week Priya ported ...",
	// "in the spring".
	timeWords = set(`last this next week month year quarter sprint yesterday today tonight morning afternoon
		evening night spring summer autumn fall winter weekend`)
	// teamWords make "the payments team" people, who own and decide.
	teamWords = set("team squad group crew guild org department")
	// meetings are moved to a day without a deadline: "moved the standup
	// to Thursday".
	meetings = set(`standup stand-up standups retro retrospective meeting meetings sync call demo offsite lunch
		planning kickoff interview 1:1 one-on-one all-hands`)
	// owes are the words before "to ship X by D" that make it a deadline
	// rather than a wish.
	owes = set("has have need needs got")
	// notTools follow "dropped X for" without naming what replaced it.
	notTools = set("good real sure free fun reasons cost costs performance security simplicity speed")
)

var (
	versionRe = regexp.MustCompile(`^v?\d+(\.\d+)*(\.x)?$`)
	ordinalRe = regexp.MustCompile(`^\d{1,2}(st|nd|rd|th)$`)
	dayNumRe  = regexp.MustCompile(`^\d{1,2}(st|nd|rd|th)?$`)
	isoDateRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	clockRe   = regexp.MustCompile(`^\d{1,2}(:\d\d)?(am|pm)$`)
	quarterRe = regexp.MustCompile(`^q[1-4]$`)
	yearRe    = regexp.MustCompile(`^\d{4}$`)
)

// date reads the day a deadline names at the start of ts, as it was said
// without a leading "the": "Friday", "next Tuesday", "EOD Wednesday",
// "March 31", "the 15th", "2026-05-01", "Q3", "next month", "the end of
// the sprint", "tomorrow". A month is a month only capitalised: "may" is
// a hedge.
func date(ts []token) (string, []token, bool) {
	k := 0
	if k < len(ts) && ts[k].low == "the" {
		k++
	}
	start := k
	for k < len(ts) && (ts[k].low == "next" || ts[k].low == "this" || ts[k].low == "eod" || ts[k].low == "eow") {
		k++
	}
	if k+1 < len(ts) && ts[k].low == "end" && ts[k+1].low == "of" {
		k += 2
		if k < len(ts) && ts[k].low == "the" {
			k++
		}
	}
	if k >= len(ts) || ts[k].punct {
		return "", ts, false
	}
	t := ts[k]
	switch {
	case weekdays[t.low], ordinalRe.MatchString(t.low), isoDateRe.MatchString(t.low), t.low == "tomorrow" && k == start:
		k++
	case months[t.low] && unicode.IsUpper([]rune(t.text)[0]):
		k++
		if k < len(ts) && dayNumRe.MatchString(ts[k].low) {
			k++
		}
	case quarterRe.MatchString(t.low):
		k++
		if k < len(ts) && yearRe.MatchString(ts[k].low) {
			k++
		}
	case periods[t.low] && k > start:
		k++
	default:
		return "", ts, false
	}
	return join(ts[start:k]), ts[k:], true
}

// isDate reports whether a name read as an object is a day: "the job runs
// on Mondays" uses nothing.
func isDate(name string) bool {
	ts := tokenize(name)
	if len(ts) > 0 && strings.HasSuffix(ts[0].low, "s") && weekdays[strings.TrimSuffix(ts[0].low, "s")] {
		return true
	}
	_, rest, ok := date(ts)
	return ok && len(rest) == 0
}

// readTarget reads one end of a move: a day, a time, a bare version or a
// single name.
func readTarget(ts []token) (target, []token) {
	if d, rest, ok := date(ts); ok {
		return target{side{name: d, conf: 0.9}, day}, rest
	}
	if len(ts) > 0 && clockRe.MatchString(ts[0].low) {
		return target{kind: clock}, ts[1:]
	}
	if len(ts) > 1 && dayNumRe.MatchString(ts[0].low) && (ts[1].low == "am" || ts[1].low == "pm") {
		return target{kind: clock}, ts[2:]
	}
	if len(ts) > 0 && versionRe.MatchString(ts[0].low) {
		return target{side{name: ts[0].text, conf: 0.9}, version}, ts[1:]
	}
	os, rest := object(ts)
	if len(os) != 1 {
		return target{}, rest
	}
	return target{os[0], name}, rest
}

// isNamed reports whether a name looks like one: a capital or a digit.
func isNamed(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return unicode.IsUpper(r) || unicode.IsDigit(r) })
}

// nameOrTeam reports whether an object names a system, a person or a
// team: "Orion", "the billing team"; not "the office".
func nameOrTeam(s string) bool {
	f := strings.Fields(strings.ToLower(s))
	return isNamed(s) || (len(f) > 0 && teamWords[f[len(f)-1]])
}

func lastWord(s string) string {
	f := strings.Fields(strings.ToLower(s))
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

// place reads "in the web app", "on the billing cluster": where a change
// was made, when it is a thing and not a time ("in the spring").
func place(ts []token) (*side, []token) {
	if len(ts) < 2 || (ts[0].low != "in" && ts[0].low != "on") || (ts[1].low != "the" && ts[1].low != "our") {
		return nil, ts
	}
	os, rest := object(ts[1:])
	if len(os) != 1 || isDate(os[0].name) || timeWords[lastWord(os[0].name)] {
		return nil, ts
	}
	return &os[0], rest
}

// project is who a change l made is made for: we and a thing are
// themselves; a person or a team acts for the drawer's We, and without
// one names nobody.
func project(l side, w who) (side, bool) {
	if l.thing || l.we {
		return l, true
	}
	if w.we == "" {
		return side{}, false
	}
	return side{name: w.we, conf: l.conf, we: true}, true
}

// purpose reports whether what follows an object says what it is for
// ("Redis for the cache"), not "for everything" or "for now".
func purpose(rest []token) bool {
	if len(rest) < 2 || rest[0].low != "for" {
		return false
	}
	r := rest[1:]
	for len(r) > 0 && determiners[r[0].low] {
		r = r[1:]
	}
	return len(r) > 0 && !r[0].punct && !badObject[r[0].low] && !function[r[0].low]
}

// ownership reports whether the subject before a move is "ownership of
// X": "Ownership of the search service moved to the platform team".
func ownership(before []token) bool {
	for i := 0; i+1 < len(before); i++ {
		if before[i].low == "ownership" && before[i+1].low == "of" {
			return true
		}
	}
	return false
}

// shiftWords start what follows a move verb when it names no thing moved.
var shiftWords = set("from off to onto over back on in")

// shiftFacts reads a move: S moved [X] [from|off A] [to|onto B] [on|in
// the Y]. before is the clause up to the subject, ts what follows the verb.
//   - B a day: X (or the subject, a thing) is due B, replacing A when A
//     is one too; a meeting moved is no deadline.
//   - B a bare version: the project (or Y) uses "X B", replacing "X A".
//   - B a name: X (or the subject) uses B, replacing A; a lower-case B
//     needs a from ("moved the tests to testdata" is a directory).
//   - "off A" and no B: X (or the subject) stopped using A.
func shiftFacts(before, ts []token, left []side, p pattern, w who) []fact {
	var x *side
	if len(ts) > 0 && !shiftWords[ts[0].low] {
		r := ts
		if r[0].low == "all" {
			r = r[1:]
			if len(r) > 0 && r[0].low == "of" {
				r = r[1:]
			}
		}
		if len(r) == 0 || r[0].punct || badObject[r[0].low] {
			return nil // "we moved it off Nomad": what "it" is, is not said
		}
		xs, rest := object(r)
		if len(xs) != 1 {
			return nil
		}
		x, ts = &xs[0], rest
	}
	var from, to target
	var at *side
	off := false
ends:
	for len(ts) > 0 {
		switch ts[0].low {
		case "from", "off":
			off = ts[0].low == "off"
			ts = ts[1:]
			if len(ts) > 0 && ts[0].low == "of" {
				ts = ts[1:]
			}
			from, ts = readTarget(ts)
		case "to", "onto":
			if to.kind != none {
				break ends // "to R2 to cut egress costs": a purpose
			}
			to, ts = readTarget(ts[1:])
		case "over", "and", "back":
			ts = ts[1:]
		case "on", "in":
			l, rest := place(ts)
			if l == nil {
				break ends
			}
			at, ts = l, rest
		default:
			break ends
		}
	}
	conf := 1.0
	for _, l := range left {
		conf = min(conf, l.conf)
	}
	if x != nil {
		conf = min(conf, x.conf)
	}
	if ownership(before) && x == nil && to.kind == name && nameOrTeam(to.name) {
		return []fact{{s: left[len(left)-1].name, p: Owner, o: to.name, conf: min(conf, to.conf)}}
	}
	switch {
	case to.kind == day && p.sched:
		thing := x
		if thing == nil && len(left) == 1 && left[0].thing {
			thing = &left[0]
		}
		if thing == nil || meetings[lastWord(thing.name)] || strings.EqualFold(lastWord(thing.name), "deadline") {
			return nil
		}
		f := fact{s: thing.name, p: Due, o: to.name, conf: min(conf, to.conf)}
		if from.kind == day {
			f.replaces = from.name
		}
		return []fact{f}
	case !p.tech || from.kind == day || from.kind == clock:
		return nil
	case to.kind == version:
		// "upgraded Go to 1.26": the version names the tool it is of.
		if x == nil || !(isNamed(x.name) || strings.Contains(to.name, ".")) {
			return nil
		}
		repl := from.name
		if from.kind == version {
			repl = x.name + " " + from.name
		}
		subs := []side{}
		if at != nil {
			subs = append(subs, *at)
		} else {
			for _, l := range left {
				if s, ok := project(l, w); ok {
					subs = append(subs, s)
				}
			}
		}
		var out []fact
		for _, s := range subs {
			out = append(out, fact{s: s.name, p: Uses, o: x.name + " " + to.name, replaces: repl, conf: min(conf, to.conf)})
		}
		return out
	case to.kind == name:
		if from.kind == none && !isNamed(to.name) {
			return nil
		}
		repl := ""
		if from.kind == name || from.kind == version {
			repl = from.name
		}
		if x != nil {
			return []fact{{s: x.name, p: Uses, o: to.name, replaces: repl, conf: min(conf, to.conf)}}
		}
		var out []fact
		for _, l := range left {
			if from.kind == none && !l.we && !l.thing && p.words[0] == "moved" {
				continue // "Kai moved to Berlin": a person moves house
			}
			out = append(out, fact{s: l.name, p: Uses, o: to.name, replaces: repl, conf: min(l.conf, to.conf)})
		}
		return out
	case to.kind == none && off && from.kind == name && isNamed(from.name):
		if x != nil {
			return []fact{{s: x.name, p: Uses, o: from.name, ends: true, conf: min(conf, from.conf)}}
		}
		var out []fact
		for _, l := range left {
			out = append(out, fact{s: l.name, p: Uses, o: from.name, ends: true, conf: min(l.conf, from.conf)})
		}
		return out
	}
	return nil
}

// replaceFacts reads a replacement: "S replaced A with B [in the X]", "B
// replaced A in the X", "S swapped A for B", "S dropped A in favour of
// B", "A was replaced by B". Without a B, "S dropped|ditched|got rid of
// A" (a name) stopped using A.
func replaceFacts(ts []token, left []side, p pattern, w who) []fact {
	if p.shape == passive {
		if len(left) != 1 || len(ts) == 0 || (ts[0].low != "by" && ts[0].low != "with") {
			return nil
		}
		b, rest := object(ts[1:])
		if len(b) != 1 {
			return nil
		}
		return replacing(left[0], b[0], rest, nil, w)
	}
	a, rest := object(ts)
	if len(a) != 1 {
		return nil
	}
	if p.shape == replace {
		if len(rest) > 0 && (rest[0].low == "with" || rest[0].low == "by") {
			b, after := object(rest[1:])
			if len(b) != 1 {
				return nil
			}
			return replacing(a[0], b[0], after, left, w)
		}
		// "Postgres replaced MySQL in the billing service": the subject is
		// the new system, only with the place named (people replace each
		// other too).
		at, _ := place(rest)
		if len(left) != 1 || left[0].thing || left[0].we || at == nil {
			return nil
		}
		return []fact{{s: at.name, p: Uses, o: left[0].name, replaces: a[0].name, conf: min(left[0].conf, a[0].conf, at.conf)}}
	}
	if len(rest) > 0 && rest[0].low == "out" {
		rest = rest[1:]
	}
	var b []side
	var after []token
	switch {
	case len(rest) > 1 && rest[0].low == "for":
		b, after = object(rest[1:])
	case len(rest) > 3 && rest[0].low == "in" && (rest[1].low == "favour" || rest[1].low == "favor") && rest[2].low == "of":
		b, after = object(rest[3:])
	}
	if len(b) == 1 && (isNamed(b[0].name) || (len(strings.Fields(b[0].name)) == 1 && !notTools[strings.ToLower(b[0].name)])) {
		return replacing(a[0], b[0], after, left, w)
	}
	if len(b) > 0 || !isNamed(a[0].name) || (len(rest) > 0 && !rest[0].punct && !objectStop[rest[0].low] && !timeWords[rest[0].low]) {
		return nil // "dropped Kai a note", "dropped the table"
	}
	var out []fact
	for _, l := range left {
		if s, ok := project(l, w); ok {
			out = append(out, fact{s: s.name, p: Uses, o: a[0].name, ends: true, conf: min(s.conf, a[0].conf)})
		}
	}
	return out
}

// replacing proposes that B replaced A where rest names (in the X), or
// for each actor's project, or, with no actor (a passive), for the
// drawer's We.
func replacing(a, b side, rest []token, actors []side, w who) []fact {
	conf := min(a.conf, b.conf)
	var subs []side
	if at, _ := place(rest); at != nil {
		subs = []side{*at}
	} else if actors == nil {
		if w.we == "" {
			return nil
		}
		subs = []side{{name: w.we, conf: 0.85, we: true}}
	} else {
		for _, l := range actors {
			if s, ok := project(l, w); ok {
				subs = append(subs, s)
			}
		}
	}
	var out []fact
	for _, s := range subs {
		out = append(out, fact{s: s.name, p: Uses, o: b.name, replaces: a.name, conf: min(conf, s.conf)})
	}
	return out
}

// handoverFacts reads "S handed [over|off] X [over|off] to P": P owns X.
func handoverFacts(ts []token, left []side) []fact {
	skip := func(ts []token) []token {
		for len(ts) > 0 && (ts[0].low == "over" || ts[0].low == "off") {
			ts = ts[1:]
		}
		return ts
	}
	xs, rest := object(skip(ts))
	rest = skip(rest)
	if len(xs) != 1 || len(rest) < 2 || rest[0].low != "to" || slices.ContainsFunc(left, func(l side) bool { return l.thing }) {
		return nil
	}
	ps, _ := object(rest[1:])
	var out []fact
	for _, p := range ps {
		if nameOrTeam(p.name) {
			out = append(out, fact{s: xs[0].name, p: Owner, o: p.name, conf: min(xs[0].conf, p.conf)})
		}
	}
	return out
}

// rewriteFacts reads "S rewrote X in B": X uses B.
func rewriteFacts(ts []token, left []side) []fact {
	xs, rest := object(ts)
	if len(xs) != 1 || len(rest) < 2 || rest[0].low != "in" {
		return nil
	}
	bs, _ := object(rest[1:])
	if len(bs) != 1 || !isNamed(bs[0].name) || isDate(bs[0].name) {
		return nil
	}
	return []fact{{s: xs[0].name, p: Uses, o: bs[0].name, conf: min(xs[0].conf, bs[0].conf, left[0].conf)}}
}

// dueFacts reads "X is due [by|on|before] D"; "due for a rewrite" and
// "due to the outage" name no day.
func dueFacts(ts []token, left []side) []fact {
	if len(left) != 1 || left[0].we {
		return nil
	}
	if len(ts) > 0 && (ts[0].low == "by" || ts[0].low == "on" || ts[0].low == "before" || ts[0].low == "until") {
		ts = ts[1:]
	}
	d, _, ok := date(ts)
	if !ok {
		return nil
	}
	return []fact{{s: left[0].name, p: Due, o: d, conf: min(left[0].conf, 0.85)}}
}

// deadlineFacts reads "the deadline for X is D" and "X's deadline is D".
func deadlineFacts(ts []token, i, j int, p pattern, w who) []fact {
	var x side
	rest := ts[j:]
	if p.words[1] == "for" {
		xs, after := object(rest)
		if len(xs) != 1 || len(after) == 0 || after[0].low != "is" {
			return nil
		}
		x, rest = xs[0], after[1:]
	} else {
		if i == 0 {
			return nil
		}
		base, ok := strings.CutSuffix(ts[i-1].text, "'s")
		if !ok {
			return nil
		}
		left := subjects(append(slices.Clone(ts[:i-1]), word(base)), w)
		if len(left) != 1 || left[0].we {
			return nil
		}
		x = left[0]
	}
	d, _, ok := date(rest)
	if !ok {
		return nil
	}
	return []fact{{s: x.name, p: Due, o: d, conf: min(x.conf, 0.85)}}
}

// dueByFacts reads "S has to|needs to ship X by D": X is due D. Who ships
// it is not the fact; a wish ("want to ship") is a hedge.
func dueByFacts(ts []token, i, j int) []fact {
	if i < 2 || ts[i-1].low != "to" || !owes[ts[i-2].low] {
		return nil
	}
	xs, rest := object(ts[j:])
	if len(xs) != 1 || len(rest) < 2 || (rest[0].low != "by" && rest[0].low != "before") {
		return nil
	}
	d, _, ok := date(rest[1:])
	if !ok {
		return nil
	}
	return []fact{{s: xs[0].name, p: Due, o: d, conf: min(xs[0].conf, 0.85)}}
}

// stateFacts reads "S is on B" (uses B) and "S is off B" (stopped): for
// we and a thing, any name; for a person, a version ("Kai is on PTO" is
// no tool).
func stateFacts(ts []token, left []side, p pattern) []fact {
	if len(left) != 1 {
		return nil
	}
	l := left[0]
	os, _ := object(ts)
	if len(os) != 1 || !isNamed(os[0].name) || isDate(os[0].name) {
		return nil
	}
	if !l.we && !l.thing && !strings.ContainsFunc(os[0].name, unicode.IsDigit) {
		return nil
	}
	return []fact{{s: l.name, p: Uses, o: os[0].name, ends: p.ends, conf: min(l.conf, os[0].conf)}}
}

// notUntil reads "the doc isn't due until next month" as the deadline it
// states: the "not" is dropped.
func notUntil(ts []token) []token {
	for i := 0; i+1 < len(ts); i++ {
		if ts[i].low == "not" && ts[i+1].low == "due" && slices.ContainsFunc(ts[i+2:], func(t token) bool { return t.low == "until" }) {
			return slices.Delete(slices.Clone(ts), i, i+1)
		}
	}
	return ts
}
