package extract

import (
	"fmt"
	"os"
	"reflect"
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

func readTalk(t *testing.T, path string) []TalkLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, err := ReadTalk(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out
}

// scoreTalk is ScoreTalk as the tables count it.
func scoreTalk(t *testing.T, e *Extractor, lines []TalkLine) (score, []string) {
	t.Helper()
	sc, mistakes, err := ScoreTalk(e, lines)
	if err != nil {
		t.Fatal(err)
	}
	return score{sentences: sc.Sentences, tp: sc.TP, fp: sc.FP, fn: sc.FN}, mistakes
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

// The held-back part `palace bench loop` scores is the file in testdata,
// line for line.
func TestHeldBackTalkEmbedded(t *testing.T) {
	got, err := HeldBackTalk()
	if err != nil {
		t.Fatal(err)
	}
	if want := readTalk(t, "testdata/talk_heldback.jsonl"); len(want) < 50 || !reflect.DeepEqual(got, want) {
		t.Errorf("HeldBackTalk has %d lines, the file %d, or they differ", len(got), len(want))
	}
}
