package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/chunk"
	"github.com/palace-dev/palace/core/convo"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/search"
)

// The LoCoMo benchmark (snap-research, CC BY-NC 4.0): long two-person
// conversations with questions whose evidence is a set of dialog turns.
// Only the conversation is indexed; qa answers, observations and summaries
// are never read.

type locomoTurn struct {
	Speaker     string `json:"speaker"`
	DiaID       string `json:"dia_id"`
	Text        string `json:"text"`
	BlipCaption string `json:"blip_caption"`
}

type locomoQA struct {
	Question string   `json:"question"`
	Evidence []string `json:"evidence"`
	Category int      `json:"category"`
}

type locomoSample struct {
	SampleID     string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []locomoQA                 `json:"qa"`
}

// LocomoDepth is how many drawers each question retrieves before they are
// unrolled into turns; comfortably more than the 10 turns scored.
const LocomoDepth = 50

// Metric names, exactly as the JSON report spells them.
var locomoKeys = []string{
	"turn_R_all@5", "turn_R_any@5", "turn_R_frac@5", "turn_R_all@10", "turn_R_any@10", "turn_R_frac@10",
	"turn_MRR", "sess_R_any@5", "sess_R_all@5", "sess_R_any@10", "sess_R_all@10",
	"reach", "reach_near", "retrieved",
}

// LocomoReport is what `palace bench locomo` prints.
type LocomoReport struct {
	Overall    map[string]float64            `json:"overall"`
	ByCategory map[string]map[string]float64 `json:"by_category"`
	Counts     map[string]int                `json:"counts"`
	// Conversations are the sample ids scored, in file order.
	Conversations []string `json:"conversations"`
	Seconds       float64  `json:"seconds"`
	// ByQuestion says, for each scored question, what was found, so a
	// miss can be read rather than guessed.
	ByQuestion []LocomoQuestion `json:"by_question"`
	// Answers measures the answers an agent would be handed, when asked
	// for (see LocomoAnswers).
	Answers *LocomoAnswers `json:"answers,omitempty"`
}

// LocomoQuestion is one scored question's outcome.
type LocomoQuestion struct {
	Conversation string   `json:"conversation"`
	Question     string   `json:"question"`
	Category     int      `json:"category"`
	Evidence     []string `json:"evidence"`
	// Turns are the first 10 turns ranked.
	Turns []string `json:"turns"`
	// EvidenceRanks are each evidence turn's 1-based rank among all the
	// turns retrieved (LocomoDepth drawers), 0 when not retrieved.
	EvidenceRanks []int `json:"evidence_ranks"`
	// Reached and ReachedNear say whether each evidence turn, or it or a
	// turn beside it, shares a word with the question (see reach).
	Reached     bool `json:"reached"`
	ReachedNear bool `json:"reached_near"`
}

// Locomo indexes each conversation of the data file into a fresh palace
// under tmpDir through mine.Conversations (the path chat exports take), asks
// every scorable question as a plain query, and scores the ranking.
//
// Turns from drawers: hits are unrolled in rank order; a drawer holding
// several turns contributes them in their conversation order, skipping turns
// already listed. A session is ranked by its best drawer.
//
// pick selects conversations by 1-based position in the file or by
// sample_id ("1,3" or "conv-26"), so part of a split can be held back from
// tuning and scored on its own; empty means all of them.
//
// answer, when not nil, also measures the answers of that detail and
// budget (Answers); the scores above are the same either way.
func Locomo(ctx context.Context, dataPath, tmpDir string, pick []string, answer *ops.SearchSize) (*LocomoReport, error) {
	start := time.Now()
	if answer != nil {
		req := ops.SearchRequest{Query: "locomo", Detail: answer.Detail, Budget: &answer.Budget}
		if err := req.Validate(); err != nil {
			return nil, input.Rename(err, map[string]string{"detail": "--detail", "budget": "--budget"})
		}
	}
	b, err := os.ReadFile(dataPath)
	if err != nil {
		return nil, fmt.Errorf("locomo: %w", err)
	}
	var samples []locomoSample
	if err := json.Unmarshal(b, &samples); err != nil {
		return nil, fmt.Errorf("locomo %s: not LoCoMo JSON: %w", dataPath, err)
	}
	chosen, err := pickSamples(samples, pick)
	if err != nil {
		return nil, err
	}
	acc := newScorer()
	var ans *answers
	if answer != nil {
		ans = newAnswers(*answer)
	}
	var ids []string
	for i, s := range samples {
		if !chosen[i] {
			continue
		}
		ids = append(ids, s.SampleID)
		home, err := os.MkdirTemp(tmpDir, "locomo-")
		if err != nil {
			return nil, err
		}
		err = locomoSampleRun(ctx, home, s, acc, ans)
		os.RemoveAll(home)
		if err != nil {
			return nil, fmt.Errorf("locomo %s (conversation %d): %w", s.SampleID, i+1, err)
		}
	}
	r := acc.report()
	if ans != nil {
		r.Answers = ans.report()
	}
	r.Conversations = ids
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// pickSamples marks the samples pick names (all when pick is empty). A
// name that is neither a position in the file nor a sample_id is an input
// error naming the flag.
func pickSamples(samples []locomoSample, pick []string) (map[int]bool, error) {
	chosen := map[int]bool{}
	if len(pick) == 0 {
		for i := range samples {
			chosen[i] = true
		}
		return chosen, nil
	}
	for _, p := range pick {
		p = strings.TrimSpace(p)
		found := false
		if n, err := strconv.Atoi(p); err == nil {
			if n < 1 || n > len(samples) {
				return nil, input.Invalid("--conversations", "%d: the file has conversations 1 to %d", n, len(samples))
			}
			chosen[n-1], found = true, true
		}
		for i, s := range samples {
			if !found && s.SampleID == p {
				chosen[i], found = true, true
			}
		}
		if !found {
			return nil, input.Invalid("--conversations", "%q is neither a position (1 to %d) nor a sample_id of the file", p, len(samples))
		}
	}
	return chosen, nil
}

func locomoSampleRun(ctx context.Context, home string, s locomoSample, acc *scorer, ans *answers) error {
	convs, turnOf, err := locomoConversations(s)
	if err != nil {
		return err
	}
	p, err := palace.Open(home)
	if err != nil {
		return err
	}
	defer p.Close()
	wing := s.SampleID
	if _, err := mine.Conversations(ctx, p, wing, "locomo/"+s.SampleID, convs, chunk.Default); err != nil {
		return err
	}
	rc, err := newReach(ctx, convs, turnOf)
	if err != nil {
		return err
	}
	defer rc.Close()
	for _, q := range s.QA {
		acc.counts["questions_total"]++
		if q.Category == 5 {
			acc.counts["excluded_adversarial"]++
			continue
		}
		evidence := normaliseEvidence(q.Evidence, turnOf)
		if len(evidence) == 0 {
			acc.counts["excluded_no_evidence"]++
			continue
		}
		res, err := search.Run(ctx, p, search.Request{Query: q.Question, Limit: LocomoDepth})
		if err != nil {
			return err
		}
		own, near, err := rc.of(ctx, q.Question, evidence)
		if err != nil {
			return err
		}
		turns, sessions := unroll(res.Hits, turnOf)
		acc.add(q.Category, evidence, turns, sessions, own, near)
		acc.questions = append(acc.questions, LocomoQuestion{Conversation: s.SampleID, Question: q.Question,
			Category: q.Category, Evidence: evidence, Turns: top(turns, 10), EvidenceRanks: ranks(evidence, turns),
			Reached: own, ReachedNear: near})
		if ans != nil {
			if err := ans.ask(ctx, p, q.Question, evidence, turnOf); err != nil {
				return err
			}
		}
	}
	return nil
}

// locomoConversations turns each session into a conversation. In LoCoMo
// two people talk; speaker_a takes the user role and speaker_b the
// assistant role, so an exchange is a turn with the reply that follows, as
// for any chat. An image shared in a turn is kept as its caption.
// turnOf maps "session_N#index" to the turn's dia_id.
func locomoConversations(s locomoSample) ([]convo.Conversation, map[string]string, error) {
	var speakerA string
	if raw, ok := s.Conversation["speaker_a"]; ok {
		json.Unmarshal(raw, &speakerA)
	}
	var nums []int
	for k := range s.Conversation {
		if n, ok := strings.CutPrefix(k, "session_"); ok && !strings.Contains(n, "_") {
			if v, err := strconv.Atoi(n); err == nil {
				nums = append(nums, v)
			}
		}
	}
	sort.Ints(nums)
	turnOf := map[string]string{}
	var convs []convo.Conversation
	for _, n := range nums {
		key := fmt.Sprintf("session_%d", n)
		var turns []locomoTurn
		if err := json.Unmarshal(s.Conversation[key], &turns); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", key, err)
		}
		var date string
		json.Unmarshal(s.Conversation[key+"_date_time"], &date)
		when, _ := time.Parse("3:04 pm on 2 January, 2006", date)
		c := convo.Conversation{ID: key, Title: date, Format: "locomo", Meta: map[string]string{"date": date}}
		for i, t := range turns {
			role := convo.RoleAssistant
			if t.Speaker == speakerA {
				role = convo.RoleUser
			}
			text := t.Text
			if t.BlipCaption != "" {
				text += " [image: " + t.BlipCaption + "]"
			}
			c.Messages = append(c.Messages, convo.Message{Index: i, Speaker: t.Speaker, Role: role, Time: when, Text: text})
			turnOf[key+"#"+strconv.Itoa(i)] = normaliseID(t.DiaID)
		}
		convs = append(convs, c)
	}
	return convs, turnOf, nil
}

var diaID = regexp.MustCompile(`D:?(\d+):0*(\d+)`)

// normaliseID fixes the id defects the data has ("D:11:26", "D30:05").
func normaliseID(s string) string {
	m := diaID.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	n, _ := strconv.Atoi(m[1])
	i, _ := strconv.Atoi(m[2])
	return fmt.Sprintf("D%d:%d", n, i)
}

// normaliseEvidence splits multi-id strings, fixes ids and drops ids that
// name no turn of the conversation.
func normaliseEvidence(ev []string, turnOf map[string]string) []string {
	exists := map[string]bool{}
	for _, id := range turnOf {
		exists[id] = true
	}
	seen := map[string]bool{}
	var out []string
	for _, e := range ev {
		for _, m := range diaID.FindAllString(e, -1) {
			id := normaliseID(m)
			if exists[id] && !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
	}
	return out
}

// unroll lists the turns and sessions of ranked hits, best first.
func unroll(hits []search.Hit, turnOf map[string]string) (turns, sessions []string) {
	seenT, seenS := map[string]bool{}, map[string]bool{}
	for _, h := range hits {
		var m struct {
			Conversation string `json:"conversation"`
			FirstMsg     int    `json:"first_msg"`
			LastMsg      int    `json:"last_msg"`
		}
		if json.Unmarshal(h.Metadata, &m) != nil {
			continue
		}
		n := strings.TrimPrefix(m.Conversation, "session_")
		if !seenS[n] {
			seenS[n] = true
			sessions = append(sessions, "D"+n)
		}
		for i := m.FirstMsg; i <= m.LastMsg; i++ {
			id := turnOf[m.Conversation+"#"+strconv.Itoa(i)]
			if id != "" && !seenT[id] {
				seenT[id] = true
				turns = append(turns, id)
			}
		}
	}
	return turns, sessions
}

// scorer accumulates metrics overall and per category.
type scorer struct {
	sums      map[string]map[string]float64 // "all" or category -> metric -> sum
	n         map[string]int
	counts    map[string]int
	questions []LocomoQuestion
}

func newScorer() *scorer {
	return &scorer{sums: map[string]map[string]float64{}, n: map[string]int{},
		counts: map[string]int{"questions_total": 0, "excluded_adversarial": 0, "excluded_no_evidence": 0, "questions_scored": 0}}
}

func (s *scorer) add(category int, evidence, turns, sessions []string, reached, reachedNear bool) {
	s.counts["questions_scored"]++
	m := map[string]float64{}
	if reached {
		m["reach"] = 1
	}
	if reachedNear {
		m["reach_near"] = 1
	}
	// Every evidence turn among the LocomoDepth drawers' turns: the best
	// any reordering of what search returned could do, so a gap below it is
	// ranking and one above it is retrieval.
	m["retrieved"], _, _ = recall(evidence, turns)
	for _, k := range []int{5, 10} {
		all, any, frac := recall(evidence, top(turns, k))
		m[fmt.Sprintf("turn_R_all@%d", k)] = all
		m[fmt.Sprintf("turn_R_any@%d", k)] = any
		m[fmt.Sprintf("turn_R_frac@%d", k)] = frac
		var evSess []string
		for _, e := range evidence {
			evSess = append(evSess, e[:strings.IndexByte(e, ':')])
		}
		all, any, _ = recall(evSess, top(sessions, k))
		m[fmt.Sprintf("sess_R_any@%d", k)] = any
		m[fmt.Sprintf("sess_R_all@%d", k)] = all
	}
	ev := map[string]bool{}
	for _, e := range evidence {
		ev[e] = true
	}
	for i, t := range turns {
		if ev[t] {
			m["turn_MRR"] = 1 / float64(i+1)
			break
		}
	}
	for _, group := range []string{"all", strconv.Itoa(category)} {
		if s.sums[group] == nil {
			s.sums[group] = map[string]float64{}
		}
		for _, k := range locomoKeys {
			s.sums[group][k] += m[k]
		}
		s.n[group]++
	}
}

// ranks gives each of want's 1-based position in got, 0 when absent.
func ranks(want, got []string) []int {
	out := make([]int, len(want))
	for i, w := range want {
		out[i] = slices.Index(got, w) + 1
	}
	return out
}

func top(xs []string, k int) []string {
	if len(xs) > k {
		return xs[:k]
	}
	return xs
}

// recall reports whether all and any of want are in got, and the fraction.
func recall(want, got []string) (all, any, frac float64) {
	in := map[string]bool{}
	for _, g := range got {
		in[g] = true
	}
	hit, uniq := 0, map[string]bool{}
	for _, w := range want {
		if uniq[w] {
			continue
		}
		uniq[w] = true
		if in[w] {
			hit++
		}
	}
	if hit > 0 {
		any = 1
	}
	if hit == len(uniq) {
		all = 1
	}
	return all, any, float64(hit) / float64(len(uniq))
}

func (s *scorer) report() *LocomoReport {
	r := &LocomoReport{ByCategory: map[string]map[string]float64{}, Counts: s.counts, ByQuestion: s.questions}
	mean := func(g string) map[string]float64 {
		out := map[string]float64{}
		for _, k := range locomoKeys {
			if s.n[g] > 0 {
				out[k] = s.sums[g][k] / float64(s.n[g])
			}
		}
		return out
	}
	r.Overall = mean("all")
	for g := range s.sums {
		if g != "all" {
			r.ByCategory[g] = mean(g)
		}
	}
	return r
}

// LocomoKeys lists the metric names in report order.
func LocomoKeys() []string { return append([]string(nil), locomoKeys...) }
