package kg

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/audit"
	"github.com/palace-dev/palace/core/cjk"
	"github.com/palace-dev/palace/core/extract"
	"github.com/palace-dev/palace/core/store"
)

// said stores a drawer of kind saying text in wing, said at when.
func said(t *testing.T, st *store.Store, wing, kind, text string, when time.Time) string {
	t.Helper()
	hash := store.ContentHash(text)
	d := store.Drawer{ID: store.DrawerID(wing, "chat.txt", int(when.Unix()), hash), Wing: wing, Room: "general", Kind: kind,
		Source: "chat.txt", Content: text, ContentHash: hash, CreatedAt: when, OccurredAt: when, Metadata: `{"agent":"claude-code"}`}
	if _, err := st.InsertDrawers(context.Background(), []store.Drawer{d}); err != nil {
		t.Fatal(err)
	}
	return d.ID
}

func mustAdd(t *testing.T, st *store.Store, f Fact) {
	t.Helper()
	if _, err := Add(context.Background(), st, f, AddOptions{}); err != nil {
		t.Fatal(err)
	}
}

// line is a proposal as the expectations below spell it.
func line(p Proposal) string {
	s := fmt.Sprintf("%s %s %s from %s at %.2f", p.Subject, p.Predicate, p.Object, FormatTime(p.ValidFrom), p.Confidence)
	if p.Replaces != "" {
		s += " replacing " + p.Replaces
	}
	return s
}

func lines[T any](xs []T, f func(T) string) []string {
	out := []string{}
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func byID(l ReviewList, subject string) ReviewItem {
	for _, it := range l.Pending {
		if it.Subject == subject {
			return it
		}
	}
	return ReviewItem{}
}

// TestReview runs a conversation through extraction and review: what is
// proposed, what a proposal would supersede or end, what accepting and
// rejecting write, and that nothing is proposed twice.
func TestReview(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	mustAdd(t, st, Fact{Subject: "billing service", Predicate: "owner", Object: "Dana", ValidFrom: "2025-01-01"})
	mustAdd(t, st, Fact{Subject: "orion", Predicate: "uses", Object: "MySQL", ValidFrom: "2024-01-01"})
	mustAdd(t, st, Fact{Subject: "Kai", Predicate: "works_on", Object: "ingestion pipeline", ValidFrom: "2025-06-01"})
	march := time.Date(2026, 3, 4, 15, 20, 0, 0, time.UTC)
	chat := said(t, st, "orion", store.KindConversation, "Kai: I work on the ingestion pipeline.\n\n"+
		"Dana: Priya owns the billing service now. We moved from MySQL to Postgres.\n\n"+
		"Kai: Maybe we should use Loki. Lena prefers tabs.", march)
	said(t, st, "orion", store.KindFile, "// Kai works on Orion.\npackage main", march) // code is never read

	res, err := Extract(ctx, st, ExtractOptions{MinConfidence: extract.DefaultMinConfidence})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"billing service owner Priya from 2026-03-04 at 0.85",
		"orion uses Postgres from 2026-03-04 at 0.85 replacing MySQL",
		"Lena prefers tabs from 2026-03-04 at 0.85",
	}
	if got := lines(res.Proposals, line); !slices.Equal(got, want) || res.Read != 1 || res.Proposed != 3 || res.Known != 1 || res.Stopped {
		t.Fatalf("extract: %+v\nproposals %q\nwant %q, 1 drawer read, 1 known (Kai works_on ingestion pipeline)", res, got, want)
	}
	for _, p := range res.Proposals {
		if p.SourceDrawer != chat || p.Status != store.ProposalPending || p.Sentence == "" {
			t.Errorf("proposal %+v: want pending, from %s, with its sentence", p, chat)
		}
	}
	if again, err := Extract(ctx, st, ExtractOptions{MinConfidence: extract.DefaultMinConfidence}); err != nil || again.Read != 0 || again.Proposed != 0 {
		t.Errorf("a second extraction read %d drawers and proposed %d (%v), want nothing: the drawer was read", again.Read, again.Proposed, err)
	}

	l, err := Pending(ctx, st, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if l.Total != 3 || len(l.Pending) != 3 {
		t.Fatalf("pending %+v, want 3", l)
	}
	owner := byID(l, "billing service")
	if got := shorts(owner.Supersedes); !slices.Equal(got, []string{"Dana (2025-01-01 until 2026-03-03)"}) || owner.Blocked != "" || owner.Known {
		t.Errorf("the owner proposal supersedes %q (blocked %q), want Dana's ownership closed at 2026-03-04", got, owner.Blocked)
	}
	move := byID(l, "orion")
	if got := shorts(move.Ends); !slices.Equal(got, []string{"MySQL (since 2024-01-01)"}) || len(move.Supersedes) != 0 {
		t.Errorf("the move ends %q and supersedes %v, want orion uses MySQL ended, nothing superseded (uses is not functional)", got, move.Supersedes)
	}

	// Accepting writes the facts with their provenance and confidence.
	dec, err := Accept(ctx, st, []string{owner.ID, move.ID}, AddOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(dec) != 2 || dec[0].Status != store.ProposalAccepted || !dec[0].Fact.Added || shorts(dec[0].Fact.Superseded)[0] != "Dana (2025-01-01 until 2026-03-03)" ||
		shorts(dec[1].Ended)[0] != "MySQL (2024-01-01 until 2026-03-03)" {
		t.Fatalf("accept: %+v", dec)
	}
	q, err := Query(ctx, st, QueryRequest{Entity: "billing service", Direction: DirOut})
	if err != nil {
		t.Fatal(err)
	}
	got := lines(q.Facts, func(f QueryFact) string {
		return fmt.Sprintf("%s %.2f %s", short(f.Triple), f.Confidence, f.SourceDrawer)
	})
	if wantQ := []string{"Dana (2025-01-01 until 2026-03-03) 1.00 ", "Priya (since 2026-03-04) 0.85 " + chat}; !slices.Equal(got, wantQ) {
		t.Errorf("billing service's facts %q, want %q", got, wantQ)
	}
	decided, _, err := st.KGProposals(ctx, store.ProposalFilter{IDs: []string{owner.ID}})
	if err != nil || decided[0].Status != store.ProposalAccepted || decided[0].Triple != dec[0].Fact.Triple.ID || decided[0].DecidedAt == nil {
		t.Errorf("accepted proposal %+v (%v): want accepted, naming the fact %s", decided, err, dec[0].Fact.Triple.ID)
	}
	if again, err := Accept(ctx, st, []string{owner.ID}, AddOptions{}); err != nil || again[0].Error != "already accepted" {
		t.Errorf("accepting twice: %+v, %v; want it left as it is", again, err)
	}

	// Rejecting remembers: the same fact said again is not proposed.
	if dec, err := Reject(ctx, st, []string{byID(l, "Lena").ID}); err != nil || dec[0].Status != store.ProposalRejected {
		t.Fatalf("reject: %+v, %v", dec, err)
	}
	said(t, st, "orion", store.KindNote, "Lena prefers tabs, and Priya owns the billing service.", march.Add(time.Hour))
	if res, err := Extract(ctx, st, ExtractOptions{Wing: "orion", MinConfidence: extract.DefaultMinConfidence}); err != nil || res.Proposed != 0 || res.Known != 2 {
		t.Errorf("saying a rejected and an accepted fact again proposed %+v (%v), want nothing new, 2 known", res, err)
	}
	if l, err := Pending(ctx, st, 0, 0); err != nil || l.Total != 0 {
		t.Errorf("pending after review: %+v, %v; want none", l, err)
	}

	// Every write is in the audit log.
	es, err := st.AuditLog().Read(audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	ops := lines(es, func(e audit.Entry) string { return e.Op })
	for _, op := range []string{"kg.propose", "kg.review", "kg.add", "kg.invalidate"} {
		if !slices.Contains(ops, op) {
			t.Errorf("audit log %q lacks %s", ops, op)
		}
	}
	if n := strings.Count(strings.Join(ops, " "), "kg.propose"); n != 1 {
		t.Errorf("%d kg.propose lines, want 1: reading drawers that propose nothing writes no line", n)
	}
}

// TestAcceptAboveAndConflicts: accepting above a confidence takes the
// proposals at or over it; one whose supersession cannot be applied stays
// pending and the call says conflict.
func TestAcceptAboveAndConflicts(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	// A later owner than the sentence: closing it at the sentence's date
	// would be closing it before it started.
	mustAdd(t, st, Fact{Subject: "deploy scripts", Predicate: "owner", Object: "Rafael", ValidFrom: "2026-06-01"})
	said(t, st, "orion", store.KindConversation, "Kai: Priya owns the deploy scripts. I think Dana owns the runbooks. Orion uses Redis.",
		time.Date(2026, 3, 4, 0, 0, 0, 0, time.UTC))
	if _, err := Extract(ctx, st, ExtractOptions{MinConfidence: 0.3}); err != nil {
		t.Fatal(err)
	}
	l, err := Pending(ctx, st, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := lines(l.Pending, func(it ReviewItem) string { return line(it.Proposal) }); !slices.Equal(got, []string{
		"Orion uses Redis from 2026-03-04 at 0.90",
		"deploy scripts owner Priya from 2026-03-04 at 0.85",
		"runbooks owner Dana from 2026-03-04 at 0.43",
	}) {
		t.Fatalf("pending, most confident first: %q", got)
	}
	if b := byID(l, "deploy scripts").Blocked; !strings.Contains(b, "cannot supersede") {
		t.Errorf("blocked %q, want the conflict with Rafael's later ownership", b)
	}
	dec, err := AcceptAbove(ctx, st, 0.8, AddOptions{})
	if !errors.Is(err, ErrConflict) || !strings.HasPrefix(err.Error(), "conflict: 1 of 2 proposals left pending") {
		t.Fatalf("accept above 0.8: %v, want a conflict for one of two", err)
	}
	// In the order said: the deploy scripts' sentence came first.
	if len(dec) != 2 || dec[1].Status != store.ProposalAccepted || dec[0].Status != store.ProposalPending || dec[0].Error == "" {
		t.Errorf("decisions %+v: want the deploy scripts left pending with the reason, Redis accepted", dec)
	}
	if l, err := Pending(ctx, st, 0, 0); err != nil || l.Total != 2 {
		t.Errorf("pending %+v (%v): want the blocked proposal and the hedged one (0.43, below 0.8)", l, err)
	}
	if _, err := Accept(ctx, st, []string{"p_000000000000000000000000"}, AddOptions{}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("accepting an unknown proposal: %v, want not found", err)
	}
}

// TestExtractStopsWithItsBudget: an extraction whose time is up reads
// nothing more, says what it left, and the next one picks it up.
func TestExtractStopsWithItsBudget(t *testing.T) {
	st := openStore(t)
	for i := range 3 {
		said(t, st, "orion", store.KindNote, fmt.Sprintf("Kai%d works on Orion.", i), time.Date(2026, 3, 4, i, 0, 0, 0, time.UTC))
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Extract(done, st, ExtractOptions{})
	if err != nil || !res.Stopped || res.Left != 3 || res.Read != 0 {
		t.Fatalf("extract with no time: %+v, %v; want stopped, 3 left", res, err)
	}
	res, err = Extract(context.Background(), st, ExtractOptions{MinConfidence: extract.DefaultMinConfidence})
	if err != nil || res.Read != 3 || res.Proposed != 3 || res.Stopped {
		t.Fatalf("extract: %+v, %v; want the 3 drawers read", res, err)
	}
}

// cancellingTagger ends the extraction's time while it reads a drawer.
type cancellingTagger struct{ cancel context.CancelFunc }

func (c cancellingTagger) Tag(string) ([]cjk.Tagged, error) {
	c.cancel()
	return nil, nil
}

// The time budget bounds reading, not writing: a drawer read when the
// time runs out is marked read, in a write that commits, and the audit
// log holds no failed write (under concurrent writers the write used to
// be attempted with the expired context).
func TestExtractWritesWhatItReadWhenTimeRunsOut(t *testing.T) {
	st := openStore(t)
	when := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	said(t, st, "orion", "note", "张伟负责部署脚本。", when)
	said(t, st, "orion", "note", "Kai works on Orion.", when.Add(time.Minute))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := Extract(ctx, st, ExtractOptions{Wing: "orion", MinConfidence: extract.DefaultMinConfidence, Tagger: cancellingTagger{cancel}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Stopped || res.Read != 1 || res.Left != 1 {
		t.Fatalf("extraction cut short after one drawer: %+v", res)
	}
	es, err := st.AuditLog().Read(audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.Status != audit.Applied {
			t.Errorf("audit line %s: %s %s", e.Op, e.Status, e.Error)
		}
	}
}
