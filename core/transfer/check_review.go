package transfer

import (
	"regexp"
	"time"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/store"
)

// proposalIDRe is the form of a proposal id (store.newProposalID).
var proposalIDRe = regexp.MustCompile(`^p_[0-9a-f]{24}$`)

// checkProposal checks a review decision as kg.Extract and kg's review
// write one: an id of the store's form, names kg.Add accepts with their
// ids normalized, a move's old object as a name, a start to the second, a
// confidence from 0 to 1, a source drawer id of DrawerID's form, a status
// that is a decision (a pending proposal is not exported: the importing
// palace's extraction reads it again), the fact an acceptance wrote as a
// fact id, and times as the store writes them.
func checkProposal(f cols) error {
	id, err := f.text("id")
	if err != nil {
		return err
	}
	if !proposalIDRe.MatchString(id) {
		return input.Invalid("id", "%s is not a proposal id (p_ and 24 hex digits)", input.Quote(id))
	}
	for _, c := range [][2]string{{"subject", "subject_id"}, {"object", "object_id"}} {
		name, err := f.text(c[0])
		if err != nil {
			return err
		}
		if err := kg.CheckName(c[0], name); err != nil {
			return err
		}
		nid, err := f.text(c[1])
		if err != nil {
			return err
		}
		if nid != kg.NormalizeName(name) {
			return input.Invalid(c[1], "%s is not the normalized name %s", input.Quote(nid), input.Quote(kg.NormalizeName(name)))
		}
	}
	pred, err := f.text("predicate")
	if err != nil {
		return err
	}
	if err := kg.CheckName("predicate", pred); err != nil {
		return err
	}
	if pred != kg.NormalizePredicate(pred) {
		return input.Invalid("predicate", "%s is not a normalized name", input.Quote(pred))
	}
	if f["replaces"] != nil {
		r, err := f.text("replaces")
		if err != nil {
			return err
		}
		if err := kg.CheckName("replaces", r); err != nil {
			return err
		}
	}
	ends, err := f.integer("ends", false)
	if err != nil {
		return err
	}
	if ends != 0 && ends != 1 {
		return input.Invalid("ends", "%d: want 0 (adds the fact) or 1 (ends it)", ends)
	}
	if f["valid_from"] != nil {
		v, err := f.text("valid_from")
		if err != nil {
			return err
		}
		if _, err := store.ParseKGBound(v); err != nil {
			return input.Invalid("valid_from", "%s is not a time like 2025-01-02T03:04:05Z", input.Quote(v))
		}
	}
	conf, err := f.number("confidence")
	if err != nil {
		return err
	}
	if conf < 0 || conf > 1 {
		return input.Invalid("confidence", "%v is not between 0 and 1", conf)
	}
	if _, err := f.text("sentence"); err != nil {
		return err
	}
	src, err := f.text("source_drawer")
	if err != nil {
		return err
	}
	if !store.IsDrawerID(src) {
		return input.Invalid("source_drawer", "%s is not a drawer id (d_ and 24 hex digits)", input.Quote(src))
	}
	status, err := f.text("status")
	if err != nil {
		return err
	}
	if status != store.ProposalAccepted && status != store.ProposalRejected {
		return input.Invalid("status", "%s is not a decision (accepted or rejected)", input.Quote(status))
	}
	if f["triple"] != nil {
		t, err := f.text("triple")
		if err != nil {
			return err
		}
		if !store.IsTripleID(t) {
			return input.Invalid("triple", "%s is not a fact id (t_ and 24 hex digits)", input.Quote(t))
		}
	}
	for _, c := range []string{"created_at", "decided_at"} {
		v, err := f.text(c)
		if err != nil {
			return err
		}
		if _, err := time.Parse(store.KGCreatedLayout, v); err != nil {
			return input.Invalid(c, "%s is not a time like 2025-01-02T03:04:05.000000000Z", input.Quote(v))
		}
	}
	return nil
}
