package ops

import (
	"context"
	"math"
	"strings"

	"github.com/palace-dev/palace/core/extract"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/route"
)

// The knowledge-graph actions for facts read in what was said: extract
// reads notes, diaries and conversations and proposes facts; review lists
// the proposals and accepts or rejects them. A proposal never changes the
// graph until it is accepted.
const (
	KGActionExtract = "extract"
	KGActionReview  = "review"
)

// Review decisions: list the pending proposals, or accept or reject some.
const (
	ReviewList   = "list"
	ReviewAccept = "accept"
	ReviewReject = "reject"
)

// ReviewDecisions are the review decisions, in help order; "" is list.
var ReviewDecisions = []string{ReviewList, ReviewAccept, ReviewReject}

// Extraction and review limits.
const (
	// DefaultMinConfidence is the confidence below which the extractor
	// proposes nothing, hedged statements among them.
	DefaultMinConfidence = extract.DefaultMinConfidence
	// DefaultReviewLimit is how many proposals a list shows unless asked.
	DefaultReviewLimit = 50
	// MaxReviewLimit bounds a list's limit.
	MaxReviewLimit = 1000
	// MaxReviewIDs bounds the proposals one decision names.
	MaxReviewIDs = 1000
	// MaxProposalIDBytes bounds a proposal id (they are 26 bytes).
	MaxProposalIDBytes = 64
)

// KGExtractRequest reads the drawers no extraction has read yet.
type KGExtractRequest struct {
	// Wing limits reading to one wing, which must exist; "" is every wing.
	Wing string
	// MinConfidence is the confidence below which nothing is proposed;
	// nil is DefaultMinConfidence.
	MinConfidence *float64
}

// KGExtractResult counts the drawers read and the facts proposed.
type KGExtractResult = kg.ExtractResult

// Validate names the first bad field.
func (r KGExtractRequest) Validate() error {
	if r.Wing != "" {
		if err := route.CheckName("wing", r.Wing); err != nil {
			return input.Invalid("wing", "%s", strings.TrimPrefix(err.Error(), "wing name "))
		}
	}
	return checkConfidence(r.MinConfidence)
}

func checkConfidence(c *float64) error {
	if c != nil && (math.IsNaN(*c) || *c < 0 || *c > 1) {
		return input.Invalid("min_confidence", "%v: want 0 to 1", *c)
	}
	return nil
}

func minConfidence(c *float64, def float64) float64 {
	if c == nil {
		return def
	}
	return *c
}

// KGExtract reads every conversation, note and diary drawer (of Wing) not
// read yet and keeps the facts they state as proposals for review. It
// resumes where an earlier extraction (one after a write, stopped by its
// time budget) left off; cancelled, it keeps what it wrote.
func KGExtract(ctx context.Context, p *palace.Palace, r KGExtractRequest) (KGExtractResult, error) {
	if err := r.Validate(); err != nil {
		return KGExtractResult{}, err
	}
	if err := checkWing(ctx, p, "wing", r.Wing); err != nil {
		return KGExtractResult{}, err
	}
	o := kg.ExtractOptions{Wing: r.Wing, MinConfidence: minConfidence(r.MinConfidence, DefaultMinConfidence), Tagger: p.Seg}
	return retryBusy(ctx, "kg extract", func() (KGExtractResult, error) { return kg.Extract(ctx, p.Store, o) })
}

// KGReviewRequest lists the pending proposals, or accepts or rejects some.
type KGReviewRequest struct {
	// Decision is one of ReviewDecisions; "" is list.
	Decision string
	// IDs are the proposals to accept or reject, in order.
	IDs []string
	// MinConfidence, for list, shows only the proposals at or above it;
	// for accept, instead of IDs, accepts every pending proposal at or
	// above it.
	MinConfidence *float64
	// Limit, for list, is 1 to MaxReviewLimit; 0 is DefaultReviewLimit.
	Limit int
}

// KGReviewResult is the list (Pending) or what the decision did
// (Decided), with how many proposals are pending after it.
type KGReviewResult struct {
	Decision string          `json:"decision"`
	Pending  []kg.ReviewItem `json:"pending"`
	Decided  []kg.Decided    `json:"decided"`
	// Total is the number of pending proposals: for list, those at or
	// above MinConfidence, beyond the limit too; after a decision, all.
	Total int `json:"total"`
}

// Validate names the first bad field.
func (r KGReviewRequest) Validate() error {
	if err := checkEnum("decision", r.Decision, ReviewDecisions); err != nil {
		return err
	}
	if err := checkConfidence(r.MinConfidence); err != nil {
		return err
	}
	if len(r.IDs) > MaxReviewIDs {
		return input.Invalid("ids", "%d proposals: at most %d at a time", len(r.IDs), MaxReviewIDs)
	}
	for _, id := range r.IDs {
		if strings.TrimSpace(id) == "" || len(id) > MaxProposalIDBytes {
			return input.Invalid("ids", "%s is not a proposal id (p_ and 24 hex digits, as review lists them)", input.Quote(id))
		}
	}
	switch r.Decision {
	case ReviewAccept:
		if len(r.IDs) > 0 && r.MinConfidence != nil {
			return input.Invalid("min_confidence", "give ids or min_confidence to accept, not both")
		}
		if len(r.IDs) == 0 && r.MinConfidence == nil {
			return input.Invalid("ids", "name the proposals to accept, or give min_confidence to accept every one at or above it")
		}
	case ReviewReject:
		if r.MinConfidence != nil {
			return input.Invalid("min_confidence", "reject takes ids only: reject what you have read")
		}
		if len(r.IDs) == 0 {
			return input.Invalid("ids", "name the proposals to reject")
		}
	default:
		if len(r.IDs) > 0 {
			return input.Invalid("ids", "only accept and reject take ids")
		}
	}
	if r.Limit != 0 && r.Decision != "" && r.Decision != ReviewList {
		return input.Invalid("limit", "only list takes a limit")
	}
	return checkLimit("limit", r.Limit, MaxReviewLimit)
}

// KGReview lists the pending proposals, most confident first, each with
// what accepting it would do (a proposed supersession names the facts it
// would end), or accepts or rejects proposals. Accepting writes each fact
// through KGAdd's path with supersede, its confidence and source drawer;
// one that still conflicts stays pending and the error matches
// ErrConflict, the others being accepted. An unknown id is ErrNotFound,
// and nothing is decided.
func KGReview(ctx context.Context, p *palace.Palace, r KGReviewRequest) (KGReviewResult, error) {
	if err := r.Validate(); err != nil {
		return KGReviewResult{}, err
	}
	res := KGReviewResult{Decision: r.Decision, Pending: []kg.ReviewItem{}, Decided: []kg.Decided{}}
	if res.Decision == "" {
		res.Decision = ReviewList
	}
	var err error
	switch res.Decision {
	case ReviewList:
		limit := r.Limit
		if limit == 0 {
			limit = DefaultReviewLimit
		}
		l, err := kg.Pending(ctx, p.Store, minConfidence(r.MinConfidence, 0), limit)
		if err != nil {
			return res, err
		}
		res.Pending, res.Total = l.Pending, l.Total
		return res, nil
	case ReviewAccept:
		res.Decided, err = retryBusy(ctx, "kg review accept", func() ([]kg.Decided, error) {
			if r.MinConfidence != nil {
				return kg.AcceptAbove(ctx, p.Store, *r.MinConfidence, kg.AddOptions{})
			}
			return kg.Accept(ctx, p.Store, r.IDs, kg.AddOptions{})
		})
	case ReviewReject:
		res.Decided, err = retryBusy(ctx, "kg review reject", func() ([]kg.Decided, error) {
			return kg.Reject(ctx, p.Store, r.IDs)
		})
	}
	if len(res.Decided) == 0 && err != nil {
		res.Decided = []kg.Decided{}
		return res, err
	}
	n, cerr := kg.PendingCount(ctx, p.Store)
	if err == nil {
		err = cerr
	}
	res.Total = n
	return res, err
}
