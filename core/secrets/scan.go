package secrets

import "strings"

// trigger is a literal that starts something to look at, and what reads it
// there. Redact finds every trigger in one pass over the text, looking up
// each pair of bytes in a table of the triggers' first two: no regular
// expression runs over the text, and text without triggers costs one
// table lookup per byte.
type trigger struct {
	lit string
	at  func(s *scanState, i int) (span, bool)
}

// scanState is what the pass carries from one trigger to the next. Each
// trigger reads forward from where it is found; where many triggers share
// what they read (a long run of "sk-sk-sk-...", keys in a long value, BEGIN
// lines before one END), the state remembers what was read and decided,
// so that no byte is read again for every trigger before it and the pass
// stays linear in the text, whatever the text.
type scanState struct {
	text string
	// keyEnd is where the last key read for a secret word ends.
	keyEnd int
	// valueEnd is where the unquoted value of the last secret-named key
	// ends: a key inside it is part of that value, judged with it.
	valueEnd int
	// shapes holds, per shape, what its candidates read so far; made on the
	// first token trigger, so text without one allocates nothing.
	shapes []shapeRun
	// armorFrom and armorEnd: the first "-----END " at or after
	// armorFrom is at armorEnd (-1: none); armorFrom < 0 until searched.
	armorFrom, armorEnd int
	// keysDone: a BEGIN line whose body starts before it was judged with
	// the earlier one whose body ends there (privateKeyAt).
	keysDone int
	// eolFrom and eol: no newline is in text[eolFrom:eol], and eol is one
	// (or the end of text).
	eolFrom, eol int
	// commandEnd is where the arguments of the last MySQL or MariaDB
	// command read end (mysqlAt).
	commandEnd int
	// userEnd is where the arguments of the last curl or httpie command
	// read end (userCommandAt).
	userEnd int
}

// lineEnd is lineEnd(s.text, i), remembered for the triggers that ask
// about the same long line again.
func (s *scanState) lineEnd(i int) int {
	if i < s.eolFrom || i > s.eol {
		s.eolFrom, s.eol = i, lineEnd(s.text, i)
	}
	return s.eol
}

// triggerGroups holds the triggers by their first two bytes; byPair maps a
// pair to 1 + its group's index (0: no trigger starts with it). Both are
// built once and only read.
var triggerGroups, byPair = buildTriggers()

func buildTriggers() ([][]trigger, *[1 << 16]uint8) {
	var ts []trigger
	for k := range shapes {
		for _, p := range shapes[k].prefixes {
			ts = append(ts, trigger{p, func(s *scanState, i int) (span, bool) { return s.shapeAt(i, k, p) }})
		}
	}
	ts = append(ts,
		trigger{beginArmor, (*scanState).privateKeyAt},
		trigger{slackWebhook, func(s *scanState, i int) (span, bool) { return slackWebhookAt(s.text, i) }},
		trigger{"://", func(s *scanState, i int) (span, bool) { return urlPasswordAt(s.text, i) }},
	)
	for _, p := range bearerPrefixes {
		ts = append(ts, trigger{p, func(s *scanState, i int) (span, bool) {
			return credentialAt(s.text, i, p, KindBearer, bearerToken)
		}})
	}
	for _, p := range basicPrefixes {
		ts = append(ts, trigger{p, func(s *scanState, i int) (span, bool) {
			return credentialAt(s.text, i, p, KindBasicAuth, basicCredentials)
		}})
	}
	for _, w := range secretWords {
		ts = append(ts, trigger{w, (*scanState).secretValueAt})
	}
	for _, p := range pgpassTriggers {
		ts = append(ts, trigger{p, func(s *scanState, i int) (span, bool) { return pgpassAt(s.text, i) }})
	}
	for _, c := range mysqlCommands {
		ts = append(ts, trigger{c, (*scanState).mysqlAt})
	}
	for _, c := range userCommands {
		if c.name != "https" { // found by "http", its start
			ts = append(ts, trigger{c.name, (*scanState).userCommandAt})
		}
	}
	var groups [][]trigger
	pairs := new([1 << 16]uint8)
	for _, t := range ts {
		k := pair(t.lit, 0)
		if pairs[k] == 0 {
			groups = append(groups, nil)
			pairs[k] = uint8(len(groups))
		}
		groups[pairs[k]-1] = append(groups[pairs[k]-1], t)
	}
	return groups, pairs
}

func pair(s string, i int) int { return int(s[i])<<8 | int(s[i+1]) }

// scan runs every trigger found in text and returns what they marked, in
// the order found; overlaps are left to resolve.
func scan(text string) []span {
	s := scanState{text: text, keyEnd: -1, armorFrom: -1, eolFrom: len(text) + 1}
	var spans []span
	for i := 0; i+1 < len(text); i++ {
		g := byPair[pair(text, i)]
		if g == 0 {
			continue
		}
		for _, t := range triggerGroups[g-1] {
			if !strings.HasPrefix(text[i:], t.lit) {
				continue
			}
			if sp, ok := t.at(&s, i); ok {
				spans = append(spans, sp)
				if sp.kind == KindPrivateKey {
					i = sp.end - 1 // a key's body holds nothing else to find
				}
			}
		}
	}
	return spans
}
