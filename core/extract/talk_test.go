package extract

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// The engineering-talk set is sentences of the kind a team says about its
// systems: moves ("Maya moved the billing service from MySQL to
// PostgreSQL"), replacements, decisions, ownership, deadlines, versions,
// and the negations, hedges and questions that state none of them. Each
// line lists the facts a careful reader takes from it, in the conventions
// of the package comment. It comes in two files written together before
// the rules for it were: testdata/talk_tuning.jsonl, whose mistakes the
// test shows and the rules were tuned on, and testdata/talk_heldback.jsonl,
// whose mistakes it does not show (looking at them would be tuning on
// them) and whose numbers must stay at or above heldPrecision and
// heldRecall. Both were written by whoever wrote the rules, who had both
// in mind; testdata/talk_fresh.jsonl was written after the rules were,
// in the same conventions, and is reported (not shown, not held to a
// target) as the least biased estimate of the three. Keep it untuned:
// new sentences to tune on go in the tuning part.
//
// A fact is [subject, predicate, object] or, for a move, [subject,
// predicate, object, replaced]: the replaced object must be proposed too.
// "ends" and "below" mean what they mean in labelled.jsonl.
//
// Print the table:
//
//	go test ./core/extract -run TestEngineeringTalk -v

const (
	heldPrecision = 0.9
	heldRecall    = 0.7
)

type talkLine struct {
	Speaker string     `json:"speaker"`
	We      string     `json:"we"`
	Text    string     `json:"text"`
	Facts   [][]string `json:"facts"`
	Ends    [][]string `json:"ends"`
	Below   float64    `json:"below"`
}

func readTalk(t *testing.T, path string) []talkLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []talkLine
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l talkLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s line %d: %v", path, len(out)+1, err)
		}
		for _, fs := range [][][]string{l.Facts, l.Ends} {
			for _, f := range fs {
				if len(f) != 3 && len(f) != 4 {
					t.Fatalf("%s line %d: fact %q has %d fields, want 3 or 4", path, len(out)+1, f, len(f))
				}
			}
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// talkKey names a fact with what it ends or replaces, so a move proposed
// without the object it replaces counts as a mistake.
func talkKey(ends bool, s, p, o, replaces string) string {
	k := factKey(s, p, o)
	if replaces != "" {
		k += " replacing " + key(replaces)
	}
	if ends {
		k = "end " + k
	}
	return k
}

// scoreTalk extracts each line as a transcript line of its speaker and
// counts the matches; mistakes lists, per line, what was proposed
// wrongly (+) and what was missed (-).
func scoreTalk(t *testing.T, e *Extractor, lines []talkLine) (sc score, mistakes []string) {
	t.Helper()
	for i, l := range lines {
		ps, err := e.Extract(Drawer{ID: "d", Text: l.Speaker + ": " + l.Text, We: l.We}, DefaultMinConfidence)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{}
		for _, fs := range []struct {
			ends bool
			fs   [][]string
		}{{false, l.Facts}, {true, l.Ends}} {
			for _, f := range fs.fs {
				want[talkKey(fs.ends, f[0], f[1], f[2], strings.Join(f[3:], ""))] = true
			}
		}
		// got: the proposals, true for those too sure for the line (a
		// reported claim at the confidence of a plain one), which count
		// as wrong.
		got := map[string]bool{}
		for _, p := range ps {
			k := talkKey(p.Ends, p.Subject, p.Predicate, p.Object, p.Replaces)
			got[k] = got[k] || (l.Below > 0 && p.Confidence >= l.Below)
		}
		sc.sentences++
		var wrong []string
		for k, tooSure := range got {
			switch {
			case tooSure:
				sc.fp++
				wrong = append(wrong, fmt.Sprintf("+%s (want below %.2f)", k, l.Below))
			case want[k]:
				sc.tp++
			default:
				sc.fp++
				wrong = append(wrong, "+"+k)
			}
		}
		for k := range want {
			if _, ok := got[k]; !ok {
				sc.fn++
				wrong = append(wrong, "-"+k)
			}
		}
		if len(wrong) > 0 {
			slices.Sort(wrong)
			mistakes = append(mistakes, fmt.Sprintf("line %d %q: %s", i+1, l.Text, strings.Join(wrong, ", ")))
		}
	}
	return sc, mistakes
}

// TestEngineeringTalk reports precision and recall on both parts of the
// engineering-talk set and holds the held-back part to the targets.
func TestEngineeringTalk(t *testing.T) {
	e := New(nil)
	tuned, mistakes := scoreTalk(t, e, readTalk(t, "testdata/talk_tuning.jsonl"))
	for _, m := range mistakes {
		t.Log(m)
	}
	held, _ := scoreTalk(t, e, readTalk(t, "testdata/talk_heldback.jsonl"))
	fresh, _ := scoreTalk(t, e, readTalk(t, "testdata/talk_fresh.jsonl"))
	var all score
	all.add(tuned)
	all.add(held)
	all.add(fresh)
	t.Log("\n" + strings.Join([]string{
		fmt.Sprintf("Engineering talk at the default confidence (%.2f):", DefaultMinConfidence),
		"",
		"| part               | sentences | TP | FP | FN | precision | recall |",
		"|---|--:|--:|--:|--:|--:|--:|",
		tuned.row("tuning"),
		held.row("held back"),
		fresh.row("written after"),
		all.row("all"),
	}, "\n"))
	if tuned.sentences+held.sentences < 150 {
		t.Errorf("the tuning and held-back parts have %d sentences, want at least 150", tuned.sentences+held.sentences)
	}
	if held.precision() < heldPrecision || held.recall() < heldRecall {
		t.Errorf("held-back precision %.2f, recall %.2f; want at least %.2f and %.2f",
			held.precision(), held.recall(), heldPrecision, heldRecall)
	}
}
