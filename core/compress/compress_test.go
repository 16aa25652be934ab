package compress

import (
	"context"
	"strings"
	"testing"

	"github.com/palace-dev/palace/aaak"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

func addNote(t *testing.T, p *palace.Palace, room, text string) {
	t.Helper()
	h := store.ContentHash(text)
	d := store.Drawer{ID: store.DrawerID("proj", room, 0, h), Wing: "proj", Room: room, Kind: store.KindNote,
		Source: room + ".md", Content: text, ContentHash: h, Importance: 3}
	if _, err := p.Store.InsertDrawers(context.Background(), []store.Drawer{d}); err != nil {
		t.Fatal(err)
	}
}

// codesOf returns the entity codes of a document's zettels.
func codesOf(t *testing.T, src string) []string {
	t.Helper()
	doc, err := aaak.Parse(src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	var out []string
	for _, z := range doc.Zettels {
		out = append(out, z.Entities...)
	}
	return out
}

// Defect: Run encoded with a copy of the entity map and saved the
// original, so the stored map stayed {}, decode could not expand a code,
// and the same code named Kaiser in one room and Kai in another. The names
// here appear only as entities, never inside the quoted sentence, so only
// the saved map can bring them back.
func TestEntityMapIsSavedAndShared(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	addNote(t, p, "billing", "We decided to move the billing cron job to the new scheduler because the old one dropped jobs during every deploy. It was approved by Kaiser.")
	addNote(t, p, "login", "We rewrote the flaky login integration test so that it waits for the token refresh before asserting. It was reviewed by Kai.")
	docs, err := Run(ctx, p, Request{})
	if err != nil {
		t.Fatal(err)
	}
	if len(docs) != 2 {
		t.Fatalf("want one document per room: %+v", docs)
	}
	em, err := Entities(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	kaiser, ok1 := em.Code("Kaiser")
	kai, ok2 := em.Code("Kai")
	if !ok1 || !ok2 || kaiser == kai {
		t.Fatalf("stored map %v: want Kaiser and Kai with distinct codes", em.Entries())
	}
	for i, want := range []struct{ name, code, other string }{{"Kaiser", kaiser, "Kai"}, {"Kai", kai, "Kaiser"}} {
		d := docs[i]
		if strings.Contains(d.AAAK, want.name) {
			t.Fatalf("the name %s is in the document itself; the test needs it only as a code:\n%s", want.name, d.AAAK)
		}
		if codes := codesOf(t, d.AAAK); !strings.Contains(strings.Join(codes, " "), want.code) {
			t.Errorf("%s/%s: codes %v lack %s's %s", d.Wing, d.Room, codes, want.name, want.code)
		}
		doc, _ := aaak.Parse(d.AAAK)
		if dec := aaak.Decode(doc, em); !strings.Contains(dec, "who: "+want.name+"\n") {
			t.Errorf("%s/%s decodes without %s:\n%s", d.Wing, d.Room, want.name, dec)
		}
	}
	// Another run, and a run over one room, keep every code.
	again, err := Run(ctx, p, Request{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range docs {
		if again[i].AAAK != docs[i].AAAK {
			t.Errorf("second run differs:\n%s\n%s", docs[i].AAAK, again[i].AAAK)
		}
	}
	one, err := Run(ctx, p, Request{Filter: store.Filter{Room: "login"}})
	if err != nil || len(one) != 1 || one[0].AAAK != docs[1].AAAK {
		t.Errorf("the login room alone: %+v %v", one, err)
	}
}

// A run that codes no new name writes nothing, so compress works on a
// palace it may only read once the names are known.
func TestRunWithoutNewNamesDoesNotWrite(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	addNote(t, p, "notes", "the cache is warmed before the first request arrives.")
	if _, err := Run(ctx, p, Request{}); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := p.Store.Meta(ctx, entitiesKey); err != nil || ok {
		t.Errorf("entity map written for a document without names: %v %v", ok, err)
	}
}

// Names already in the palace's map keep their codes; new ones get others.
func TestRunExtendsTheStoredMap(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	addNote(t, p, "billing", "We decided to move the billing cron job to the new scheduler. It was approved by Kaiser.")
	// An earlier run gave KAI to Kai.
	if err := p.Store.SetMeta(ctx, entitiesKey, `{"Kai":"KAI"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(ctx, p, Request{}); err != nil {
		t.Fatal(err)
	}
	em, _ := Entities(ctx, p)
	if c, _ := em.Code("Kai"); c != "KAI" {
		t.Errorf("Kai lost its code: %v", em.Entries())
	}
	if c, ok := em.Code("Kaiser"); !ok || c == "KAI" {
		t.Errorf("Kaiser: %q %v", c, ok)
	}
}
