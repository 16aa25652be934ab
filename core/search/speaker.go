package search

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/query"
	"github.com/palace-dev/palace/core/store"
)

// A question about a person ("what has Melanie painted?") is answered by
// what that person said, not by what was said to them: in a conversation
// between Melanie and Caroline, an exchange where only Caroline talks about
// painting is about Caroline's painting. On the LoCoMo dev split, 729 of
// the 761 evidence turns of questions naming one of the two speakers were
// spoken by that speaker. So a conversation drawer whose named speakers
// say none of the words it matched keeps speakerFactor of its score: still
// found, ranked below the exchanges where the person asked about says them.
//
// Asking is not telling: a word the person says only in a question ("Have
// you tried pottery?") is the other speaker's topic, so the person's
// questions do not count as saying it. On LoCoMo dev conversations 1-2 this
// raised turn R_all@10 from 0.710 to 0.719 (open-domain 0.091 to 0.182);
// on 3-4, held back, it stayed 0.695 with MRR 0.433 to 0.437 and session
// R_any@5 0.939 to 0.942; no category fell on either.

// speakerFactor is the share of its score a drawer keeps when the person
// the query names does not say what it matched. Milder than demoteFactor:
// the words may be the question that person answers. Chosen on LoCoMo dev
// conversations 1-2 (turn R_all@10: 1/3 0.697, 1/2 0.706, 0.7 0.706 with
// the higher MRR); conversations 3-4, held back, gave 0.674, 0.674, 0.679.
const speakerFactor = 0.7

// queryWords are the lower-cased words of a query, to tell which speakers
// it names. Stop words name nobody: "what will we do" is not about a
// speaker called Will.
func queryWords(q string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(q), notWordRune) {
		if !query.IsStopWord(w) {
			out[w] = true
		}
	}
	return out
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// nameWords are the words of a speaker's name ("Jon Smith": jon, smith);
// a query naming any of them names the speaker.
func nameWords(speaker string) []string {
	return strings.FieldsFunc(strings.ToLower(speaker), notWordRune)
}

// speakerNames are the words of all speakers' names, lower-cased.
func speakerNames(speakers []string) map[string]bool {
	names := map[string]bool{}
	for _, s := range speakers {
		for _, w := range nameWords(s) {
			names[w] = true
		}
	}
	return names
}

// namedSpeakers are the speakers a query of words names, in their order.
func namedSpeakers(speakers []string, words map[string]bool) []string {
	var out []string
	for _, s := range speakers {
		if slices.ContainsFunc(nameWords(s), func(w string) bool { return words[w] }) {
			out = append(out, s)
		}
	}
	return out
}

// speakersOf reads a conversation drawer's speakers from its metadata
// (set by mining); nil when it has none or is not JSON.
func speakersOf(metadata []byte) []string {
	var m struct {
		Speakers []string `json:"speakers"`
	}
	if json.Unmarshal(metadata, &m) != nil {
		return nil
	}
	return m.Speakers
}

// focus is how a conversation drawer's speakers stand to a query naming
// some of them.
type focus struct {
	named []string // the drawer's speakers the query names, in its order
	said  []string // the words it matched that they say, lower-cased
	asks  []string // the words it matched that they only ask about
	asked []string // the words it matched besides speakers' names
}

// speakerFocus returns the focus of a drawer of kind with metadata and
// content, which FTS5 matched on the words matched, for a query of words.
// ok is false where the rule has nothing to say: not a conversation
// drawer, fewer than two speakers, none or all of them named, or nothing
// matched but names.
func speakerFocus(kind, metadata, content string, matched []string, words map[string]bool) (f focus, ok bool) {
	if kind != store.KindConversation || len(matched) == 0 || len(words) == 0 {
		return f, false
	}
	speakers := speakersOf([]byte(metadata))
	if len(speakers) < 2 {
		return f, false
	}
	f.named = namedSpeakers(speakers, words)
	names := speakerNames(speakers)
	if len(f.named) == 0 || len(f.named) == len(speakers) {
		return f, false
	}
	for _, w := range matched {
		if w = strings.ToLower(w); !names[w] && !slices.Contains(f.asked, w) {
			f.asked = append(f.asked, w)
		}
	}
	if len(f.asked) == 0 {
		return f, false
	}
	said, asks, attributed := saidBy(content, speakers, f.named)
	if !attributed {
		return f, false
	}
	for _, w := range f.asked {
		switch {
		case said[w]:
			f.said = append(f.said, w)
		case asks[w]:
			f.asks = append(f.asks, w)
		}
	}
	return f, true
}

// unsaid reports whether h is a conversation drawer whose speakers named
// by the query say none of the words it matched (see speakerFocus).
func unsaid(h store.Hit, words map[string]bool) bool {
	f, ok := speakerFocus(h.Kind, h.Metadata, h.Content, h.Matched, words)
	return ok && len(f.said) == 0
}

// why says how the rule ranked the drawer, "" when it did not apply.
func (f focus) why() string {
	who, says := strings.Join(f.named, " and "), " says "
	if len(f.named) > 1 {
		says = " say "
	}
	if len(f.said) == 0 {
		asks := ""
		if len(f.asks) > 0 {
			asks = "; only asks about " + strings.Join(f.asks, ", ")
		}
		return who + says + "none of its matched words (" + strings.Join(f.asked, ", ") + asks + "): ranked lower"
	}
	return who + says + strings.Join(f.said, ", ")
}

// saidBy returns the lower-cased words of content's messages spoken by the
// speakers named: those they tell (said) and those of their questions
// (asks; see told). A message starts at a line "Speaker: ..." for one of
// speakers (how conversation drawers of JSON exports render messages) and
// runs to the next such line; lines before the first belong to nobody.
// attributed is false when no line starts a message: a drawer quoting a
// transcript verbatim (a Claude Code JSONL line) cannot be read by
// speaker, and the rule leaves it alone.
func saidBy(content string, speakers, named []string) (said, asks map[string]bool, attributed bool) {
	said, asks = map[string]bool{}, map[string]bool{}
	by := ""
	for _, line := range strings.Split(content, "\n") {
		for _, s := range speakers {
			if rest, ok := strings.CutPrefix(line, s); ok && strings.HasPrefix(rest, ":") {
				by, attributed = s, true
				break
			}
		}
		if !slices.Contains(named, by) {
			continue
		}
		tells, questions := told(line)
		for _, w := range strings.FieldsFunc(strings.ToLower(tells), notWordRune) {
			said[w] = true
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(questions), notWordRune) {
			asks[w] = true
		}
	}
	return said, asks, attributed
}

// told splits line into the sentences that tell and those that ask: a
// sentence runs to a ".", "!" or "?", and one ending in "?" asks. A "?"
// inside a link ("album?id=3") ends nothing (see endsSentence).
func told(line string) (tells, asks string) {
	var t, a strings.Builder
	start := 0
	for i, r := range line {
		switch r {
		case '?':
			if !endsSentence(line[i+1:]) {
				continue
			}
			a.WriteString(line[start:i+1] + " ")
			start = i + 1
		case '.', '!':
			t.WriteString(line[start:i+1] + " ")
			start = i + 1
		}
	}
	t.WriteString(line[start:])
	return t.String(), a.String()
}

// endsSentence reports whether a "?" followed by rest ends a sentence:
// rest is empty or starts with a space, a closing bracket or quote, or
// another mark ("?!").
func endsSentence(rest string) bool {
	r, _ := utf8.DecodeRuneInString(rest)
	return rest == "" || unicode.IsSpace(r) || unicode.In(r, unicode.Pe, unicode.Pf) ||
		strings.ContainsRune(`"'?!`, r)
}

// explainSpeakers puts what the speaker rule did first in the why of each
// hit it applies to.
func explainSpeakers(hs []Hit, words map[string]bool) {
	for i := range hs {
		h := &hs[i]
		if f, ok := speakerFocus(h.Kind, string(h.Metadata), h.Content, h.matched, words); ok {
			h.Why = strings.TrimSuffix(f.why()+"; "+h.Why, "; ")
		}
	}
}
