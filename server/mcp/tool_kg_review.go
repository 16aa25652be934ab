package mcp

import (
	"context"
	"fmt"

	"github.com/palace-dev/palace/core/ops"
)

// palace_kg_review: the facts read in what was said (full profile):
// extract proposes, review lists, accepts and rejects. The descriptions
// ask the agent to judge each proposal: the extractor is rule-based, and a
// fact accepted blindly is a wrong memory with a confidence attached.

func toolKGReview() *tool {
	return &tool{
		name:  "palace_kg_review",
		title: "Review proposed facts",
		desc: "Facts Palace read in what was said: remember, diary write and mine propose the facts their text states " +
			"(who works on, owns, decided, uses, moved to, prefers what), each with its sentence, drawer id and confidence; action extract reads what is stored. " +
			"Proposals change nothing until reviewed: action review lists them (one that would end a current fact names it under supersedes; one with ends true takes a fact back, naming it under ends), " +
			"then decision accept with the ids you checked against the sentence, or reject for the wrong ones. Do not accept blindly.",
		idempotent: true, full: true, // deciding a proposal again changes nothing
		params: []param{
			{name: "action", kind: kString, required: true, enum: []string{ops.KGActionExtract, ops.KGActionReview},
				desc: "extract: read stored conversations, notes and diaries for facts and propose them; review: list the proposals, accept or reject them."},
			{name: "wing", kind: kString, maxLen: ops.MaxNameBytes, actions: []string{ops.KGActionExtract},
				desc: "Read only this wing's drawers; omit to read every wing."},
			{name: "decision", kind: kString, enum: ops.ReviewDecisions, actions: []string{ops.KGActionReview},
				desc: "list (default): the pending proposals, most confident first; accept: write the facts of ids (or of every proposal at or above min_confidence); reject: drop ids, never proposed again."},
			{name: "ids", kind: kStrings, actions: []string{ops.KGActionReview},
				desc: fmt.Sprintf("Proposal ids (p_...) as review lists them, for accept or reject; at most %d.", ops.MaxReviewIDs)},
			{name: "min_confidence", kind: kNumber, min: num(0), max: num(1),
				desc: fmt.Sprintf("extract: propose only facts at least this sure (default %.2f); review list: show only those; review accept: accept every pending proposal at or above it, so only after reading them.", ops.DefaultMinConfidence)},
		},
		run: runKGReview,
	}
}

type kgReviewArgs struct {
	Action        string   `json:"action"`
	Wing          string   `json:"wing"`
	Decision      string   `json:"decision"`
	IDs           []string `json:"ids"`
	MinConfidence *float64 `json:"min_confidence"`
}

func runKGReview(ctx context.Context, s *Server, a args) (any, error) {
	var in kgReviewArgs
	if err := a.decode(&in); err != nil {
		return nil, err
	}
	if in.Action == ops.KGActionExtract {
		return ops.KGExtract(ctx, s.p, ops.KGExtractRequest{Wing: in.Wing, MinConfidence: in.MinConfidence})
	}
	return ops.KGReview(ctx, s.p, ops.KGReviewRequest{Decision: in.Decision, IDs: in.IDs, MinConfidence: in.MinConfidence})
}
