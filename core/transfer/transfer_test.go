package transfer

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

func open(t *testing.T) *palace.Palace {
	t.Helper()
	p, err := palace.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func fill(t *testing.T, p *palace.Palace) {
	t.Helper()
	ctx := context.Background()
	var ds []store.Drawer
	for i, text := range []string{"we decided on SQLite", "知识图谱 notes", "a diary line"} {
		h := store.ContentHash(text)
		d := store.Drawer{ID: store.DrawerID("w", "s", i, h), Wing: "w", Room: "r", Kind: store.KindNote, Source: "s",
			Content: text, ContentHash: h, Importance: 3, OccurredAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC),
			SourceMtime: 1756800902123456789, Metadata: `{"speakers":["a","b"]}`}
		if i == 2 {
			d.Kind = store.KindDiary
		}
		var err error
		if d.IndexText, err = p.IndexText(text); err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	if err := p.Store.DeleteDrawer(ctx, ds[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := p.Store.ReplaceTaxonomy(ctx, "w", []store.Room{{Room: "r", Keywords: []string{"sqlite"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := kg.Add(ctx, p.Store, kg.Fact{Subject: "Alice", Predicate: "works_at", Object: "Acme", ValidFrom: "2020-01-01", SourceDrawer: ds[1].ID}, kg.AddOptions{}); err != nil {
		t.Fatal(err)
	}
}

func export(t *testing.T, p *palace.Palace, wing string) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := Export(context.Background(), p, wing, &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	a := open(t)
	fill(t, a)
	first := export(t, a, "")
	b := open(t)
	res, err := Import(ctx, b, "x", strings.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	if res.Added["drawer"] != 3 || res.Added["triple"] != 1 || res.Added["entity"] != 2 || res.Added["taxonomy"] != 1 {
		t.Errorf("added %v", res.Added)
	}
	if again := export(t, b, ""); again != first {
		t.Errorf("export after import differs:\n%s\n---\n%s", first, again)
	}
	// Idempotent.
	res, err = Import(ctx, b, "x", strings.NewReader(first))
	if err != nil || len(res.Added) != 0 || res.Unchanged["drawer"] != 3 {
		t.Errorf("second import: %+v %v", res, err)
	}
	// Imported drawers are searchable (the index is rebuilt), the deleted one is not.
	hits, err := b.Store.SearchFTS(ctx, `"知识"`, store.Filter{}, 5, nil)
	if err != nil || len(hits) != 1 {
		t.Errorf("imported Chinese drawer not searchable: %v %v", hits, err)
	}
	if err := b.Store.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}
	// One wing only.
	if w := export(t, a, "nope"); strings.Count(w, "\n") != 1 {
		t.Errorf("export of an unknown wing should hold only the header:\n%s", w)
	}
}

func TestConflictsAndBadFiles(t *testing.T) {
	ctx := context.Background()
	a := open(t)
	fill(t, a)
	data := export(t, a, "")
	b := open(t)
	changed := strings.Replace(data, `"importance":3`, `"importance":5`, 1)
	if _, err := Import(ctx, b, "x", strings.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	res, err := Import(ctx, b, "y", strings.NewReader(changed))
	if err != nil || len(res.Conflicts) != 1 || !strings.HasPrefix(res.Conflicts[0], "drawer ") {
		t.Errorf("conflict not reported: %+v %v", res, err)
	}
	c := open(t)
	lines := strings.Split(data, "\n")
	bad := map[string]string{
		"not an export":  `{"hello":1}` + "\n",
		"torn line":      lines[0] + "\n" + lines[1] + "\n" + lines[2][:10] + "\n",
		"unknown row":    lines[0] + "\n" + `{"type":"spaceship","row":{"id":"x"}}` + "\n",
		"row without id": lines[0] + "\n" + `{"type":"drawer","row":{"wing":"w"}}` + "\n",
		"newer version":  strings.Replace(lines[0], `"version":1`, `"version":99`, 1) + "\n",
		"empty":          "",
	}
	for name, in := range bad {
		if _, err := Import(ctx, c, "bad.jsonl", strings.NewReader(in)); err == nil {
			t.Errorf("%s: accepted", name)
		} else if name == "torn line" && !strings.Contains(err.Error(), "line 3") {
			t.Errorf("%s: error does not name the line: %v", name, err)
		}
	}
	if st, _ := c.Store.Status(ctx); st.Drawers+st.Deleted != 0 {
		t.Errorf("a refused import wrote %d drawers", st.Drawers+st.Deleted)
	}
}
