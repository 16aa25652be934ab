package compress

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/palace-dev/palace/aaak"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

func day(s string) *time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return &t
}

// TestKGTimelineArc writes Orion's timeline: the palace's own code for
// Orion, a zettel per fact with its dates quoted, and an ARC: line that
// follows the feelings of the drawers the facts were read from (worried
// about Postgres, relieved on CockroachDB; the fact with no drawer is
// neutral). testdata/kgtimeline.want holds the document and its decoding.
func TestKGTimelineArc(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	addNote(t, p, "db", "We chose Postgres 14 for Orion, but I am worried about write scaling.")
	addNote(t, p, "db2", "Orion finally moved to CockroachDB and we are relieved.")
	ds, err := p.Store.ListDrawers(ctx, store.Filter{}, 10)
	if err != nil || len(ds) != 2 {
		t.Fatalf("drawers: %v", err)
	}
	src := map[string]string{}
	for _, d := range ds {
		src[d.Room] = d.ID
	}
	const stored = `{"Orion":"ORN"}`
	if ok, err := p.Store.SwapMeta(ctx, entitiesKey, "", stored); err != nil || !ok {
		t.Fatal(err)
	}
	fact := func(s, pred, o string, from, to *time.Time, conf float64, drawer, text string) KGFact {
		return KGFact{Triple: store.Triple{Subject: s, Predicate: pred, Object: o, ValidFrom: from, ValidTo: to,
			Confidence: conf, SourceDrawer: drawer}, Text: text}
	}
	facts := []KGFact{
		fact("Orion", "uses", "Postgres 14", day("2024-06-01"), day("2026-04-01"), 1, src["db"],
			"Orion uses Postgres 14 (2024-06-01 until 2026-03-31)"),
		fact("Kai", "works_on", "Orion", day("2025-01-01"), nil, 0.5, "", "Kai works_on Orion (since 2025-01-01)"),
		fact("Orion", "uses", "CockroachDB", day("2026-04-01"), nil, 1, src["db2"], "Orion uses CockroachDB (since 2026-04-01)"),
	}
	doc, err := KGTimeline(ctx, p, "Orion", facts)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := aaak.Parse(doc.AAAK)
	if err != nil {
		t.Fatalf("the document does not parse: %v\n%s", err, doc.AAAK)
	}
	if aaak.Print(parsed) != doc.AAAK || aaak.Validate(parsed) != nil {
		t.Errorf("no round trip:\n%s\n%s", doc.AAAK, aaak.Print(parsed))
	}
	em, err := Entities(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	got := doc.AAAK + "\n\n" + aaak.Decode(parsed, em) + "\n"
	if *update {
		if err := os.WriteFile("testdata/kgtimeline.want", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/kgtimeline.want")
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("timeline:\n%s\nwant:\n%s", got, want)
	}
	if doc.Facts != 3 || doc.Coverage != 1 || len(doc.Lost) != 0 || doc.Tokens == 0 {
		t.Errorf("measure: %+v", doc)
	}
	// A read: the palace's map is as it was, though Kai got a code.
	if v, _, err := p.Store.Meta(ctx, entitiesKey); err != nil || v != stored {
		t.Errorf("the entity map was written: %s, %v", v, err)
	}

	empty, err := KGTimeline(ctx, p, "Nobody", nil)
	if err != nil || empty.AAAK != "" || len(empty.Arc) != 0 {
		t.Errorf("no facts: %+v, %v", empty, err)
	}
}
