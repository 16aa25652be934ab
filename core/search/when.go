package search

import (
	"encoding/json"
	"strings"

	"github.com/palace-dev/palace/core/store"
)

// A question asking when something happened ("When did Nate win his third
// tourney?") is answered by a message that says when: "I won another
// tournament last week", which mining resolves against the session's date
// into the days the message refers to (its drawer's metadata "refers").
// So for such a question a conversation drawer none of whose messages
// refers to a day keeps timelessFactor of its score: still found, ranked
// below the exchanges that date what they tell. The question names no
// period (that is preferNamedTime's rule); it asks for one.

// timelessFactor is the share of its score a conversation drawer that
// refers to no day keeps for a when question. Chosen on LoCoMo dev
// conversations 1-2 (turn R_all@10 / MRR: without 0.710 / 0.466; 0.9
// 0.710 / 0.479, 0.8 0.710 / 0.487, 0.7 0.710 / 0.488, 0.5 0.701 / 0.492,
// 0.3 0.697 / 0.488: the milder of the two best); conversations 3-4, held
// back, went from 0.682 / 0.421 to 0.687 / 0.431 with it (temporal
// questions 0.727 to 0.742).
const timelessFactor = 0.8

// asksWhen reports whether query asks when: its first word is "when", or
// it asks "what year", "which month", "what day", "which week" or "what
// date" anywhere ("In which month did Gina launch her store?").
func asksWhen(query string) bool {
	words := strings.Fields(strings.ToLower(query))
	for i, w := range words {
		words[i] = strings.TrimRightFunc(w, notWordRune)
	}
	if len(words) > 0 && words[0] == "when" {
		return true
	}
	for i := 1; i < len(words); i++ {
		switch words[i] {
		case "year", "month", "day", "week", "date":
			if words[i-1] == "what" || words[i-1] == "which" {
				return true
			}
		}
	}
	return false
}

// refersOf reads the days a drawer's messages refer to from its metadata
// (set by conversation mining: pairs of first and last day, in
// dates.DateLayout); nil when none or not JSON.
func refersOf(metadata []byte) [][2]string {
	var m struct {
		Refers [][2]string `json:"refers"`
	}
	if json.Unmarshal(metadata, &m) != nil {
		return nil
	}
	return m.Refers
}

// timeless reports whether a drawer of kind with metadata is a
// conversation drawer that refers to no day.
func timeless(kind string, metadata []byte) bool {
	return kind == store.KindConversation && len(refersOf(metadata)) == 0
}

// explainWhen says, for a when question, which conversation hits the rule
// ranked lower, and on which day each of the others says something
// happened. A hit put first for the period the query names already says
// when (preferNamedTime's why), and is left as it is.
func explainWhen(hs []Hit, when bool) {
	if !when {
		return
	}
	for i := range hs {
		h := &hs[i]
		if h.Kind != store.KindConversation || strings.Contains(h.Why, "the period the query names") {
			continue
		}
		why := "refers to no day: ranked lower for a when question"
		if rs := refersOf(h.Metadata); len(rs) > 0 {
			why = "refers to " + rs[0][0]
		}
		h.Why = strings.TrimPrefix(h.Why+"; "+why, "; ")
	}
}
