package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/search"
)

// LocomoAnswers measures what an agent is handed: each scored question
// asked once more through ops.Search, the operation every front calls, at
// the default limit and the detail and budget asked for, and scored on
// the turns of the hits the answer shows.
type LocomoAnswers struct {
	Detail string `json:"detail"`
	Budget int    `json:"budget"` // 0: none
	Limit  int    `json:"limit"`
	// Tokens are the tokens of each answer's hits (ops.SearchResult.Tokens:
	// each hit's JSON counted with the wake-up's estimator).
	Tokens Spread `json:"tokens"`
	// Hits and Omitted are the hits shown and left out by the budget, per
	// answer.
	Hits    float64 `json:"hits_mean"`
	Omitted float64 `json:"omitted_mean"`
	// Recall is turn_R_any@10 and turn_R_all@10 on the turns the shown
	// hits hold.
	Recall map[string]float64 `json:"recall"`
}

// Spread is a distribution's mean, median and 95th percentile.
type Spread struct {
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P95  float64 `json:"p95"`
}

// answerKeys are the recall metrics LocomoAnswers reports.
var answerKeys = []string{"turn_R_any@10", "turn_R_all@10"}

// answers accumulates LocomoAnswers over the questions.
type answers struct {
	size          ops.SearchSize
	tokens        []float64
	hits, omitted int
	recall        map[string]float64
}

func newAnswers(size ops.SearchSize) *answers {
	return &answers{size: size, recall: map[string]float64{}}
}

// ask asks question q of p as sized and scores the turns its answer
// shows against evidence. A compact hit has no metadata, so each hit's
// turns are read from its drawer.
func (a *answers) ask(ctx context.Context, p *palace.Palace, q string, evidence []string, turnOf map[string]string) error {
	budget := a.size.Budget
	res, err := ops.Search(ctx, p, ops.SearchRequest{Query: q, Detail: a.size.Detail, Budget: &budget})
	if err != nil {
		return fmt.Errorf("answer %q: %w", q, err)
	}
	hits := make([]search.Hit, len(res.Hits))
	for i, h := range res.Hits {
		d, err := ops.Get(ctx, p, ops.GetRequest{ID: h.ID})
		if err != nil {
			return fmt.Errorf("answer %q: %w", q, err)
		}
		hits[i] = search.Hit{ID: h.ID, Metadata: json.RawMessage(d.Metadata)}
	}
	turns, _ := unroll(hits, turnOf)
	all, any, _ := recall(evidence, top(turns, 10))
	a.recall["turn_R_any@10"] += any
	a.recall["turn_R_all@10"] += all
	a.tokens = append(a.tokens, float64(res.Tokens))
	a.hits += len(res.Hits)
	a.omitted += res.Omitted
	return nil
}

func (a *answers) report() *LocomoAnswers {
	n := float64(len(a.tokens))
	r := &LocomoAnswers{Detail: a.size.Detail, Budget: a.size.Budget, Limit: ops.DefaultSearchLimit, Recall: map[string]float64{}}
	if n == 0 {
		return r
	}
	s := slices.Clone(a.tokens)
	slices.Sort(s)
	sum := 0.0
	for _, v := range s {
		sum += v
	}
	r.Tokens = Spread{Mean: sum / n, P50: s[len(s)/2], P95: s[(len(s)*95+99)/100-1]}
	r.Hits, r.Omitted = float64(a.hits)/n, float64(a.omitted)/n
	for _, k := range answerKeys {
		r.Recall[k] = a.recall[k] / n
	}
	return r
}
