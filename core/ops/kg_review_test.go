package ops

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

func TestKGReviewValidateNamesTheField(t *testing.T) {
	low, high := 0.5, 1.5
	for _, c := range []struct {
		name  string
		err   error
		field string
	}{
		{"unknown decision", KGReviewRequest{Decision: "maybe"}.Validate(), "decision"},
		{"list with ids", KGReviewRequest{IDs: []string{"p_1"}}.Validate(), "ids"},
		{"accept nothing", KGReviewRequest{Decision: ReviewAccept}.Validate(), "ids"},
		{"accept both", KGReviewRequest{Decision: ReviewAccept, IDs: []string{"p_1"}, MinConfidence: &low}.Validate(), "min_confidence"},
		{"reject by confidence", KGReviewRequest{Decision: ReviewReject, MinConfidence: &low}.Validate(), "min_confidence"},
		{"reject nothing", KGReviewRequest{Decision: ReviewReject}.Validate(), "ids"},
		{"blank id", KGReviewRequest{Decision: ReviewReject, IDs: []string{" "}}.Validate(), "ids"},
		{"long id", KGReviewRequest{Decision: ReviewReject, IDs: []string{strings.Repeat("p", MaxProposalIDBytes+1)}}.Validate(), "ids"},
		{"confidence above 1", KGReviewRequest{MinConfidence: &high}.Validate(), "min_confidence"},
		{"limit too high", KGReviewRequest{Limit: MaxReviewLimit + 1}.Validate(), "limit"},
		{"limit on accept", KGReviewRequest{Decision: ReviewAccept, IDs: []string{"p_1"}, Limit: 3}.Validate(), "limit"},
		{"extract bad wing", KGExtractRequest{Wing: "a/b"}.Validate(), "wing"},
		{"extract confidence", KGExtractRequest{MinConfidence: &high}.Validate(), "min_confidence"},
	} {
		wantField(t, c.name, c.err, c.field)
	}
	for _, r := range []KGReviewRequest{{}, {Decision: ReviewList, Limit: 5, MinConfidence: &low},
		{Decision: ReviewAccept, MinConfidence: &low}, {Decision: ReviewReject, IDs: []string{"p_1", "p_2"}}} {
		if err := r.Validate(); err != nil {
			t.Errorf("%+v: %v", r, err)
		}
	}
}

func shortProposals(ps []kg.Proposal) []string {
	out := []string{}
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%s %s %s", p.Subject, p.Predicate, p.Object))
	}
	return out
}

// TestFactsOnWrite: a note, a diary entry and a mined conversation are
// read for facts as they are written, and say what they proposed.
func TestFactsOnWrite(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	note, err := Remember(ctx, p, RememberRequest{Text: "Kai works on Orion. Dana owns the billing service. Maybe we should use Loki.",
		Wing: "orion", Importance: DefaultImportance})
	if err != nil {
		t.Fatal(err)
	}
	if got := shortProposals(note.Proposed); !slices.Equal(got, []string{"Kai works_on Orion", "billing service owner Dana"}) {
		t.Fatalf("remember proposed %q (notice %q)", got, note.Notice)
	}
	if note.Proposed[0].SourceDrawer != note.ID || note.Proposed[0].Sentence != "Kai works on Orion." {
		t.Errorf("proposal %+v: want the note %s and its sentence", note.Proposed[0], note.ID)
	}
	entry, err := DiaryWrite(ctx, p, DiaryWriteRequest{Agent: "claude-code", Text: "I'm working on the Orion release notes."})
	if err != nil {
		t.Fatal(err)
	}
	if got := shortProposals(entry.Proposed); !slices.Equal(got, []string{"claude-code works_on Orion release notes"}) || entry.Notice != "" {
		t.Errorf("diary proposed %q (notice %q)", got, entry.Notice)
	}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "standup.txt"), []byte("Kai: We moved from MySQL to Postgres.\n\nDana: Lena prefers tabs.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mined, err := Mine(ctx, p, MineRequest{Path: dir, Wing: "orion", Mode: mine.ModeConvos, NoVectors: true})
	if err != nil {
		t.Fatal(err)
	}
	if mined.Facts == nil || mined.Facts.Read != 1 || !slices.Equal(shortProposals(mined.Facts.Proposals), []string{"orion uses Postgres", "Lena prefers tabs"}) {
		t.Errorf("mine's facts %+v", mined.Facts)
	}
	if again, err := Mine(ctx, p, MineRequest{Path: dir, Wing: "orion", Mode: mine.ModeConvos, NoVectors: true}); err != nil || again.Facts != nil {
		t.Errorf("a mine that wrote nothing read facts: %+v, %v", again.Facts, err)
	}

	l, err := KGReview(ctx, p, KGReviewRequest{})
	if err != nil || l.Total != 5 || len(l.Pending) != 5 || l.Decision != ReviewList {
		t.Fatalf("review list: %+v, %v; want the 5 proposals", l, err)
	}
	min := 0.86
	acc, err := KGReview(ctx, p, KGReviewRequest{Decision: ReviewAccept, MinConfidence: &min})
	if err != nil || len(acc.Decided) != 1 || acc.Total != 4 {
		t.Errorf("accept above %.2f: %+v, %v; want Kai's (0.90) accepted, 4 left", min, acc, err)
	}
	q, err := KGQuery(ctx, p, KGQueryRequest{Entity: "Kai"})
	if err != nil || len(q.Facts) != 1 || q.Facts[0].SourceDrawer != note.ID || q.Facts[0].Confidence != 0.9 {
		t.Errorf("Kai's facts %+v, %v; want works_on Orion from the note at 0.90", q.Facts, err)
	}
	if _, err := KGReview(ctx, p, KGReviewRequest{Decision: ReviewReject, IDs: []string{"p_000000000000000000000000"}}); Classify(err) != NotFound {
		t.Errorf("rejecting an unknown proposal: %v, want not found", err)
	}
	if _, err := KGExtract(ctx, p, KGExtractRequest{Wing: "nosuchwing"}); Classify(err) != Invalid {
		t.Errorf("extracting an unknown wing: %v, want invalid", err)
	}
}

// TestFactsOnWriteBudget: reading after a write stops at its budget, says
// how much it left, and 'kg extract' reads the rest. The result's own
// account (Stopped, Read, Left) says whether the budget was kept, not the
// test's clock.
func TestFactsOnWriteBudget(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	var ids []string
	now := time.Now().UTC()
	for i := range 200 {
		text := fmt.Sprintf("Dev%d works on Service%d.", i, i)
		d := store.Drawer{ID: store.DrawerID("orion", "notes", i, store.ContentHash(text)), Wing: "orion", Room: "r", Kind: store.KindNote,
			Source: "notes", Content: text, ContentHash: store.ContentHash(text), CreatedAt: now}
		if _, err := p.Store.InsertDrawers(ctx, []store.Drawer{d}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, d.ID)
	}
	res, notice := proposeAfterWrite(ctx, p, "orion", nil, time.Nanosecond)
	if !res.Stopped || res.Left != 200 || res.Read != 0 || !strings.Contains(notice, "palace kg extract") {
		t.Errorf("with no time: %+v, %q; want stopped with 200 left, none read", res, notice)
	}
	res, notice = proposeAfterWrite(ctx, p, "", ids[:1], WriteExtractBudget)
	if res.Stopped || res.Read != 1 || res.Proposed != 1 || notice != "" {
		t.Errorf("one drawer: %+v, %q; want it read within %s", res, notice, WriteExtractBudget)
	}
	all, err := KGExtract(ctx, p, KGExtractRequest{Wing: "orion"})
	if err != nil || all.Stopped || all.Read != 199 || all.Proposed != 199 || len(all.Proposals) != kg.MaxListedProposals {
		t.Fatalf("kg extract: read %d, proposed %d, listed %d, stopped %v (%v); want the 199 unread drawers read, %d listed",
			all.Read, all.Proposed, len(all.Proposals), all.Stopped, err, kg.MaxListedProposals)
	}
	l, err := KGReview(ctx, p, KGReviewRequest{Limit: 1})
	if err != nil || l.Total != 200 || len(l.Pending) != 1 {
		t.Errorf("review: total %d, %d listed (%v); want 200 proposals, 1 listed", l.Total, len(l.Pending), err)
	}
}
