package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestProposals: proposals are kept once per fact while pending or
// rejected, drawers leave the unread list in the same write, and a purge
// takes what its drawer said.
func TestProposals(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	now := time.Now().UTC()
	var ids []string
	for i, kind := range []string{KindConversation, KindNote, KindFile} {
		text := []string{"Kai: Dana owns billing.", "Dana owns billing.", "// Dana owns billing."}[i]
		d := Drawer{ID: DrawerID("orion", "s", i, ContentHash(text)), Wing: "orion", Room: "r", Kind: kind, Source: "s",
			Content: text, ContentHash: ContentHash(text), CreatedAt: now}
		if _, err := s.InsertDrawers(ctx, []Drawer{d}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, d.ID)
	}
	if n, err := s.UnreadCount(ctx, "orion"); err != nil || n != 2 {
		t.Fatalf("unread %d (%v), want 2: the file drawer is never read", n, err)
	}
	p := Proposal{Subject: "billing", SubjectID: "billing", Predicate: "owner", Object: "Dana", ObjectID: "dana",
		Confidence: 0.85, Sentence: "Dana owns billing.", SourceDrawer: ids[0]}
	kept, err := s.KGPropose(ctx, []Proposal{p, p}, ids[:1], 1)
	if err != nil || len(kept) != 1 || kept[0].ID == "" || kept[0].Status != ProposalPending {
		t.Fatalf("propose twice in one write: %+v, %v; want one kept", kept, err)
	}
	if ds, err := s.UnreadDrawers(ctx, "", nil, 10); err != nil || len(ds) != 1 || ds[0].ID != ids[1] {
		t.Fatalf("unread after proposing: %v, %v; want only the note", ds, err)
	}
	// From another drawer: still pending, so not again; rejected, still not.
	p.SourceDrawer = ids[1]
	if kept, err := s.KGPropose(ctx, []Proposal{p}, ids[1:2], 1); err != nil || len(kept) != 0 {
		t.Fatalf("a pending fact proposed again: %+v, %v", kept, err)
	}
	if err := s.KGDecide(ctx, "p_nope", ProposalRejected, ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("deciding an unknown proposal: %v, want not found", err)
	}
	id := kept[0].ID
	if err := s.KGDecide(ctx, id, ProposalRejected, ""); err != nil {
		t.Fatal(err)
	}
	if err := s.KGDecide(ctx, id, ProposalAccepted, "t_x"); !errors.Is(err, ErrNotPending) {
		t.Errorf("accepting a rejected proposal: %v, want already decided", err)
	}
	if kept, err := s.KGPropose(ctx, []Proposal{p}, nil, 1); err != nil || len(kept) != 0 {
		t.Fatalf("a rejected fact proposed again: %+v, %v", kept, err)
	}
	// A purge takes every proposal of the drawer but an accepted one: a
	// pending one and the rejected one (whose subject and object are words
	// the purge erases) go.
	q := Proposal{Subject: "billing", SubjectID: "billing", Predicate: "uses", Object: "Go", ObjectID: "go",
		Confidence: 0.9, Sentence: "Billing uses Go.", SourceDrawer: ids[0]}
	if _, err := s.KGPropose(ctx, []Proposal{q}, nil, 1); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.PurgeDrawer(ctx, ids[0]); err != nil {
		t.Fatal(err)
	}
	all, n, err := s.KGProposals(ctx, ProposalFilter{})
	if err != nil || n != 0 {
		t.Errorf("after the purge: %+v, %v; want no proposal of the purged drawer", all, err)
	}
}
