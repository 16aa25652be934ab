package bench

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/convo"
	"github.com/palace-dev/palace/core/ops"
)

// testdata/locomo_tiny.json is a hand-written conversation in LoCoMo's
// shape (not LoCoMo data), with every evidence-id defect the real file has.
func TestLocomoTiny(t *testing.T) {
	r, err := Locomo(context.Background(), "testdata/locomo_tiny.json", t.TempDir(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"questions_total": 7, "excluded_adversarial": 1, "excluded_no_evidence": 1, "questions_scored": 5}
	if !reflect.DeepEqual(r.Counts, want) {
		t.Errorf("counts %v, want %v", r.Counts, want)
	}
	for _, k := range locomoKeys {
		if _, ok := r.Overall[k]; !ok {
			t.Errorf("overall lacks %s", k)
		}
	}
	// Every question names its evidence in distinctive words, so a working
	// index finds all of it within 10 turns and 5 sessions, and each
	// reaches its evidence by a word.
	for _, k := range []string{"turn_R_all@10", "sess_R_any@5", "sess_R_all@10", "reach", "reach_near", "retrieved"} {
		if r.Overall[k] != 1 {
			t.Errorf("%s = %.3f, want 1 on the tiny set", k, r.Overall[k])
		}
	}
	if got := len(r.ByCategory); got != 4 {
		t.Errorf("%d categories, want 4 (1-4; 5 is excluded)", got)
	}
}

// Answers measured at a detail and budget: compact answers cost fewer
// tokens than full ones and find the same turns without a budget; a budget
// below every hit shows none and finds nothing; the scores of the search
// itself stay the same.
func TestLocomoTinyAnswers(t *testing.T) {
	run := func(size ops.SearchSize) *LocomoReport {
		t.Helper()
		r, err := Locomo(context.Background(), "testdata/locomo_tiny.json", t.TempDir(), nil, &size)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	full, compact := run(ops.SearchSize{Detail: ops.DetailFull}), run(ops.SearchSize{Detail: ops.DetailCompact})
	tight := run(ops.SearchSize{Detail: ops.DetailCompact, Budget: 1})
	for _, r := range []*LocomoReport{full, compact, tight} {
		if r.Answers == nil || r.Overall["turn_R_all@10"] != 1 {
			t.Fatalf("answers %+v, overall %v", r.Answers, r.Overall)
		}
	}
	f, c, n := full.Answers, compact.Answers, tight.Answers
	if f.Detail != ops.DetailFull || c.Detail != ops.DetailCompact || f.Limit != ops.DefaultSearchLimit {
		t.Errorf("full %+v, compact %+v", f, c)
	}
	if c.Tokens.Mean <= 0 || c.Tokens.Mean >= f.Tokens.Mean || c.Tokens.P50 > c.Tokens.P95 || f.Hits != c.Hits || f.Omitted != 0 {
		t.Errorf("tokens: full %+v, compact %+v", f, c)
	}
	if f.Recall["turn_R_any@10"] != 1 || c.Recall["turn_R_any@10"] != 1 {
		t.Errorf("recall: full %v, compact %v", f.Recall, c.Recall)
	}
	if n.Hits != 0 || n.Omitted != c.Hits || n.Tokens.Mean != 0 || n.Recall["turn_R_any@10"] != 0 {
		t.Errorf("within 1 token: %+v", n)
	}
	_, err := Locomo(context.Background(), "testdata/locomo_tiny.json", t.TempDir(), nil, &ops.SearchSize{Detail: "brief"})
	if err == nil || !strings.HasPrefix(err.Error(), `--detail "brief"`) {
		t.Errorf("detail brief: %v", err)
	}
}

func TestNormaliseEvidence(t *testing.T) {
	turnOf := map[string]string{"session_1#0": "D1:1", "session_1#1": "D1:2", "session_11#25": "D11:26", "session_30#4": "D30:5"}
	got := normaliseEvidence([]string{"D1:1; D1:2", "D:11:26", "D30:05", "D", "D9:9", "D1:1"}, turnOf)
	want := []string{"D1:1", "D1:2", "D11:26", "D30:5"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("normaliseEvidence = %v, want %v", got, want)
	}
}

func TestRecall(t *testing.T) {
	all, any, frac := recall([]string{"a", "b", "c", "c"}, []string{"x", "a", "c"})
	if all != 0 || any != 1 || frac != 2.0/3 {
		t.Errorf("recall = %v %v %v", all, any, frac)
	}
	all, _, _ = recall([]string{"a"}, []string{"a"})
	if all != 1 {
		t.Errorf("all = %v", all)
	}
}

// TestLocomoDev runs the real benchmark when the dev split sits where CI
// and the README put it (../shared beside the repository) and holds what
// was reached: turn R_all@10 >= 0.68 (0.663 before the speaker rule) and
// session R_any@5 >= 0.93; every scored question is listed with the ranks
// of its evidence.
func TestLocomoDev(t *testing.T) {
	path := "../../../../../shared/datasets/locomo/locomo_dev.json"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("LoCoMo dev split not found at %s", path)
	}
	r, err := Locomo(context.Background(), path, t.TempDir(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range locomoKeys {
		t.Logf("%-15s %.3f", k, r.Overall[k])
	}
	if r.Counts["questions_scored"] != 608 || r.Counts["excluded_adversarial"] != 196 {
		t.Errorf("counts %v", r.Counts)
	}
	if v := r.Overall["turn_R_all@10"]; v < 0.68 {
		t.Errorf("turn_R_all@10 = %.3f, below 0.68", v)
	}
	if len(r.ByQuestion) != 608 {
		t.Errorf("%d questions listed, want 608", len(r.ByQuestion))
	}
	for _, q := range r.ByQuestion {
		if len(q.EvidenceRanks) != len(q.Evidence) || len(q.Turns) > 10 {
			t.Fatalf("question %+v", q)
		}
	}
	if v := r.Overall["sess_R_any@5"]; v < 0.93 {
		t.Errorf("sess_R_any@5 = %.3f, below 0.93", v)
	}
}

func TestPickSamples(t *testing.T) {
	samples := []locomoSample{{SampleID: "conv-a"}, {SampleID: "conv-b"}, {SampleID: "conv-c"}}
	for _, c := range []struct {
		pick []string
		want map[int]bool
	}{
		{nil, map[int]bool{0: true, 1: true, 2: true}},
		{[]string{"1", "3"}, map[int]bool{0: true, 2: true}},
		{[]string{"conv-b", " 1"}, map[int]bool{0: true, 1: true}},
	} {
		got, err := pickSamples(samples, c.pick)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("pickSamples(%q) = %v, %v; want %v", c.pick, got, err, c.want)
		}
	}
	for _, bad := range [][]string{{"0"}, {"4"}, {"conv-z"}} {
		if _, err := pickSamples(samples, bad); err == nil {
			t.Errorf("pickSamples(%q) accepted", bad)
		}
	}
}

// TestReach: a question reaches an evidence turn that shares a word with
// it as the index stems it (adopt, adopted), not through a speaker's name;
// near, through a turn beside it.
func TestReach(t *testing.T) {
	ctx := context.Background()
	c := convo.Conversation{ID: "session_1", Messages: []convo.Message{
		{Index: 0, Speaker: "Ana", Text: "Ben, I adopted a greyhound named Comet."},
		{Index: 1, Speaker: "Ben", Text: "Congratulations! Greyhounds are gentle dogs."},
		{Index: 2, Speaker: "Ana", Text: "My sister lives in Lisbon."},
		{Index: 3, Speaker: "Ben", Text: "Lisbon has wonderful custard tarts."},
	}}
	turnOf := map[string]string{"session_1#0": "D1:1", "session_1#1": "D1:2", "session_1#2": "D1:3", "session_1#3": "D1:4"}
	r, err := newReach(ctx, []convo.Conversation{c}, turnOf)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cases := []struct {
		question  string
		evidence  []string
		own, near bool
	}{
		{"What dog did Ana adopt?", []string{"D1:1"}, true, true},
		{"What pet does Ana have?", []string{"D1:1"}, false, false},
		{"Which gentle animal does Ana have?", []string{"D1:1"}, false, true},
		{"Who did Ana tell, Ben?", []string{"D1:1"}, false, false},
		{"Where do Ana's sister and her greyhound live?", []string{"D1:1", "D1:3"}, true, true},
		{"Which tarts does Ben like, and what did Ana adopt?", []string{"D1:1", "D1:4"}, true, true},
		{"Which tarts does Ben like, and what pet does Ana have?", []string{"D1:1", "D1:4"}, false, false},
		{"What did Ana do?", []string{"D1:1"}, false, false},
	}
	for _, c := range cases {
		own, near, err := r.of(ctx, c.question, c.evidence)
		if err != nil {
			t.Fatal(err)
		}
		if own != c.own || near != c.near {
			t.Errorf("%q: reached %v, near %v; want %v, %v", c.question, own, near, c.own, c.near)
		}
	}
}

// TestRetrievedCeiling: retrieved counts a question whose evidence turns
// are all among the turns returned, however deep, and none with one
// missing; the 10-turn recall counts neither of these.
func TestRetrievedCeiling(t *testing.T) {
	turns := make([]string, 30)
	for i := range turns {
		turns[i] = fmt.Sprintf("D1:%d", i+1)
	}
	s := newScorer()
	s.add(1, []string{"D1:12", "D1:25"}, turns, []string{"D1"}, true, true)
	s.add(1, []string{"D1:12", "D2:3"}, turns, []string{"D1"}, true, true)
	r := s.report()
	if got := r.Overall["retrieved"]; got != 0.5 {
		t.Errorf("retrieved = %.2f, want 0.5 (the first question's turns are all returned, the second's D2:3 is not)", got)
	}
	if got := r.Overall["turn_R_all@10"]; got != 0 {
		t.Errorf("turn_R_all@10 = %.2f, want 0", got)
	}
}
