package ops

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
)

func wantWriteOutcome(t *testing.T, what string, err error, class string) {
	t.Helper()
	if got := Classify(err); got != class {
		t.Errorf("%s: outcome %s (%v), want %s", what, got, err, class)
	}
}

func TestWritesValidate(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	note := RememberRequest{Text: "We deploy with pnpm.", Wing: "proj", Importance: DefaultImportance}
	blank, noImportance, loud := note, note, note
	blank.Text = " \n"
	noImportance.Importance = 0
	loud.Importance = MaxImportance + 1
	for _, c := range []struct {
		what, field string
		err         error
	}{
		{"forget blank id", "id", ForgetRequest{ID: " "}.Validate()},
		{"purge blank id", "id", PurgeRequest{}.Validate()},
		{"unpurge blank id", "id", UnpurgeRequest{}.Validate()},
		{"remember blank text", "text", blank.Validate()},
		{"remember without importance", "importance", noImportance.Validate()},
		{"remember importance 6", "importance", loud.Validate()},
		{"remember without wing", "wing", RememberRequest{Text: "x", Importance: 3}.Validate()},
		{"diary write blank agent", "agent", DiaryWriteRequest{Text: "x"}.Validate()},
		{"diary write blank text", "text", DiaryWriteRequest{Agent: "claude"}.Validate()},
		{"diary read last too high", "last", DiaryReadRequest{Agent: "claude", Last: MaxDiaryLast + 1}.Validate()},
		{"diary read negative last", "last", DiaryReadRequest{Agent: "claude", Last: -1}.Validate()},
		{"diary read bad since", "since", DiaryReadRequest{Agent: "claude", Since: "yesterday"}.Validate()},
	} {
		wantWriteOutcome(t, c.what, c.err, Invalid)
		if c.err != nil && !strings.HasPrefix(c.err.Error(), c.field+" ") {
			t.Errorf("%s: %q does not name the field %s", c.what, c.err, c.field)
		}
	}
	// The operations refuse the same input before touching the palace.
	_, err := Remember(ctx, p, blank)
	wantWriteOutcome(t, "Remember blank", err, Invalid)
	_, err = Purge(ctx, p, PurgeRequest{ID: ""})
	wantWriteOutcome(t, "Purge blank", err, Invalid)
	_, err = Purge(ctx, p, PurgeRequest{ID: "d_nosuch"})
	wantWriteOutcome(t, "Purge unknown", err, NotFound)
	_, err = Unpurge(ctx, p, UnpurgeRequest{ID: "d_nosuch"})
	wantWriteOutcome(t, "Unpurge unknown", err, NotFound)
	_, err = DiaryRead(ctx, p, DiaryReadRequest{Agent: "claude", Wing: "nosuch"})
	wantWriteOutcome(t, "DiaryRead unknown wing", err, Invalid)
}

func TestRememberOp(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	req := RememberRequest{Text: "We deploy with pnpm, never npm, since installs took eleven minutes.", Wing: "proj", Importance: 4}
	res, err := Remember(ctx, p, req)
	if err != nil || !res.Added || res.Room != DefaultRoom || res.Source != DefaultSource {
		t.Fatalf("remember: %+v %v", res, err)
	}
	// The op chooses the near-duplicate finders: without a model, lexical.
	if len(res.NearChecks) != 1 || res.NearChecks[0] != "lexical" {
		t.Errorf("near checks %q", res.NearChecks)
	}
	again, err := Remember(ctx, p, req)
	if err != nil || again.Added || len(again.Duplicates) != 1 || again.Duplicates[0].ID != res.ID {
		t.Errorf("same note again: %+v %v", again, err)
	}
	near := req
	near.Text = strings.Replace(req.Text, "installs", "install", 1)
	if r, err := Remember(ctx, p, near); err != nil || r.Added || len(r.Duplicates) != 1 || r.Duplicates[0].Kind != "near" {
		t.Errorf("near duplicate: %+v %v", r, err)
	}
	// A changed number is a correction: written, the older note named.
	fix := req
	fix.Text = strings.Replace(req.Text, "eleven", "twelve", 1)
	if r, err := Remember(ctx, p, fix); err != nil || !r.Added || len(r.Duplicates) != 0 || len(r.Updates) != 1 ||
		r.Updates[0].ID != res.ID || len(r.Updates[0].Differs) != 1 || r.Updates[0].Differs[0] != "number" {
		t.Errorf("correction: %+v %v", r, err)
	}
	near.Force = true
	if r, err := Remember(ctx, p, near); err != nil || !r.Added {
		t.Errorf("forced near duplicate: %+v %v", r, err)
	}
}

func TestDiaryOps(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	w, err := DiaryWrite(ctx, p, DiaryWriteRequest{Agent: "Claude Code", Text: "Fixed the flaky test."})
	if err != nil || !w.Added || w.Wing != DiaryWingPrefix+"claude-code" || w.Topic != DefaultTopic {
		t.Fatalf("diary write: %+v %v", w, err)
	}
	r, err := DiaryRead(ctx, p, DiaryReadRequest{Agent: "claude-code", Wing: w.Wing})
	if err != nil || len(r.Entries) != 1 || r.Entries[0].ID != w.ID {
		t.Errorf("diary read: %+v %v", r, err)
	}
	if r, err := DiaryRead(ctx, p, DiaryReadRequest{Agent: "someone-else"}); err != nil || len(r.Entries) != 0 || r.Entries == nil {
		t.Errorf("an agent without entries: %+v %v", r, err)
	}
}

func TestForgetTwice(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	n, err := Remember(ctx, p, RememberRequest{Text: "A note to forget.", Wing: "proj", Importance: 3})
	if err != nil {
		t.Fatal(err)
	}
	first, err := Forget(ctx, p, ForgetRequest{ID: n.ID})
	if err != nil || !first.Deleted || first.AlreadyDeleted {
		t.Fatalf("forget: %+v %v", first, err)
	}
	second, err := Forget(ctx, p, ForgetRequest{ID: n.ID})
	if err != nil || second.Deleted || !second.AlreadyDeleted || second.DeletedAt == nil {
		t.Errorf("forget again: %+v %v", second, err)
	}
}

// mineForWrites mines dir into wing.
func mineForWrites(t *testing.T, p *palace.Palace, dir, wing string) {
	t.Helper()
	if _, err := mine.Run(context.Background(), p, dir, mine.Options{Wing: wing}); err != nil {
		t.Fatal(err)
	}
}

func hitsForWrites(t *testing.T, p *palace.Palace, q string) int {
	t.Helper()
	res, err := Search(context.Background(), p, SearchRequest{Query: q})
	if err != nil {
		t.Fatal(err)
	}
	return len(res.Hits)
}

// Defect 5 of issue 15: forget left a secret readable, and mining the file
// again brought it back. Purge erases it, and mining the file again (in
// the other secrets mode, or grown below the secret) does not bring it
// back until the user unpurges it.
func TestPurgeSurvivesRemine(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "ops.md")
	// A secret the redactor does not know, as a user would find one.
	const secret = "the vault unlock phrase is marmalade-kumquat-zeppelin"
	write := func(tail string) {
		t.Helper()
		text := "# Operations\n\n" + strings.Repeat("Deploys go through the staging cluster first.\n", 60) +
			"\n" + secret + "\n\n" + strings.Repeat("Rollbacks use the previous image tag.\n", 60) + tail
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("")
	mineForWrites(t, p, dir, "proj")
	res, err := Search(ctx, p, SearchRequest{Query: "marmalade kumquat"})
	// Chunks overlap, so a line near a boundary is in two drawers; the
	// user purges each one search finds.
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("before the purge: %d hits, %v", len(res.Hits), err)
	}
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, h.ID)
		pr, err := Purge(ctx, p, PurgeRequest{ID: h.ID})
		if err != nil || !pr.Purged || pr.PurgedAt == nil || pr.Kind != "file" || !strings.Contains(pr.Notice, path) {
			t.Fatalf("purge: %+v %v", pr, err)
		}
		d, err := p.Store.GetDrawer(ctx, h.ID)
		if err != nil || strings.Contains(d.Content, "marmalade") {
			t.Errorf("the drawer is still readable by id: %q %v", d.Content, err)
		}
		again, err := Purge(ctx, p, PurgeRequest{ID: h.ID})
		if err != nil || again.Purged || !again.AlreadyPurged || !again.PurgedAt.Equal(*pr.PurgedAt) {
			t.Errorf("purge again: %+v %v", again, err)
		}
		if f, err := Forget(ctx, p, ForgetRequest{ID: h.ID}); err != nil || !f.AlreadyDeleted {
			t.Errorf("forget after purge: %+v %v", f, err)
		}
	}
	if n := hitsForWrites(t, p, "marmalade kumquat"); n != 0 {
		t.Fatalf("after the purge: %d hits", n)
	}

	// The same file mined in the other secrets mode: every chunk is
	// written anew.
	if _, err := mine.Run(ctx, p, dir, mine.Options{Wing: "proj", KeepSecrets: true}); err != nil {
		t.Fatal(err)
	}
	if n := hitsForWrites(t, p, "marmalade kumquat"); n != 0 {
		t.Fatalf("mining the unchanged file again brought the purged chunk back: %d hits", n)
	}
	write("\nA line appended at the end.\n")
	mineForWrites(t, p, dir, "proj")
	if n := hitsForWrites(t, p, "marmalade kumquat"); n != 0 {
		t.Fatalf("the grown file brought the purged chunk back: %d hits", n)
	}
	if n := hitsForWrites(t, p, "appended"); n != 1 {
		t.Errorf("the new line was not mined: %d hits", n)
	}

	for _, id := range ids {
		if _, err := Unpurge(ctx, p, UnpurgeRequest{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	mineForWrites(t, p, dir, "proj") // the file is unchanged since the last mine
	if n := hitsForWrites(t, p, "marmalade kumquat"); n != len(ids) {
		t.Errorf("after unpurge the next mine did not bring the chunk back: %d hits", n)
	}
	if err := p.Store.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

func TestUnpurgeRefusals(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	n, err := Remember(ctx, p, RememberRequest{Text: "the staging vault phrase is hunter2-zebra", Wing: "proj", Importance: 3})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Unpurge(ctx, p, UnpurgeRequest{ID: n.ID})
	wantWriteOutcome(t, "unpurge of a live note", err, Invalid)
	if pr, err := Purge(ctx, p, PurgeRequest{ID: n.ID}); err != nil || !pr.Purged || pr.Notice != "" {
		t.Fatalf("purge a note: %+v %v", pr, err)
	}
	_, err = Unpurge(ctx, p, UnpurgeRequest{ID: n.ID})
	wantWriteOutcome(t, "unpurge of a purged note", err, Invalid)
	if err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("unpurge of a note: %v", err)
	}
}
