package transfer

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

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
	if _, _, err := Export(context.Background(), p, wing, &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// importAll reads an export and adds it to p, as ops.Import does.
func importAll(ctx context.Context, p *palace.Palace, name string, r io.Reader) (store.ImportResult, error) {
	rows, err := Read(context.Background(), p, name, r)
	if err != nil {
		return store.ImportResult{}, err
	}
	return p.Store.ImportRows(ctx, name, rows, nil)
}

func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	a := palacetest.OpenPalace(t)
	fill(t, a)
	first := export(t, a, "")
	b := palacetest.OpenPalace(t)
	res, err := importAll(ctx, b, "x", strings.NewReader(first))
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
	res, err = importAll(ctx, b, "x", strings.NewReader(first))
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
	a := palacetest.OpenPalace(t)
	fill(t, a)
	data := export(t, a, "")
	b := palacetest.OpenPalace(t)
	changed := strings.Replace(data, `"importance":3`, `"importance":5`, 1)
	if _, err := importAll(ctx, b, "x", strings.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	res, err := importAll(ctx, b, "y", strings.NewReader(changed))
	if err != nil || len(res.Conflicts) != 1 || !strings.HasPrefix(res.Conflicts[0], "drawer ") {
		t.Errorf("conflict not reported: %+v %v", res, err)
	}
	c := palacetest.OpenPalace(t)
	lines := strings.Split(data, "\n")
	bad := map[string]string{
		"not an export":  `{"hello":1}` + "\n",
		"torn line":      lines[0] + "\n" + lines[1] + "\n" + lines[2][:10] + "\n",
		"unknown row":    lines[0] + "\n" + `{"type":"spaceship","row":{"id":"x"}}` + "\n",
		"row without id": lines[0] + "\n" + `{"type":"drawer","row":{"wing":"w"}}` + "\n",
		"newer version":  strings.Replace(lines[0], fmt.Sprintf(`"version":%d`, Version), `"version":99`, 1) + "\n",
		"empty":          "",
	}
	for name, in := range bad {
		if _, err := importAll(ctx, c, "bad.jsonl", strings.NewReader(in)); err == nil {
			t.Errorf("%s: accepted", name)
		} else if name == "torn line" && !strings.Contains(err.Error(), "line 3") {
			t.Errorf("%s: error does not name the line: %v", name, err)
		}
	}
	if st, _ := c.Store.Status(ctx); st.Drawers+st.Deleted != 0 {
		t.Errorf("a refused import wrote %d drawers", st.Drawers+st.Deleted)
	}
}

// Settings travel: a predicate made functional in A is functional in the
// palace that imports A's export, so B refuses the contradiction A refuses.
func TestSettingsRoundTrip(t *testing.T) {
	ctx := context.Background()
	a := palacetest.OpenPalace(t)
	fill(t, a)
	if _, err := kg.SetFunctional(ctx, a.Store, "leads", true); err != nil {
		t.Fatal(err)
	}
	if err := a.Store.SetMeta(ctx, store.SettingAAAKEntities, `{"Alice":"ALC"}`); err != nil {
		t.Fatal(err)
	}
	first := export(t, a, "")
	b := palacetest.OpenPalace(t)
	res, err := importAll(ctx, b, "x", strings.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	if res.Added["setting"] != 2 {
		t.Errorf("added %v, want 2 settings", res.Added)
	}
	if again := export(t, b, ""); again != first {
		t.Errorf("export after import differs:\n%s\n---\n%s", first, again)
	}
	fact := func(obj string) kg.Fact {
		return kg.Fact{Subject: "Bob", Predicate: "leads", Object: obj, ValidFrom: "2024-01-01"}
	}
	for _, p := range []*palace.Palace{a, b} {
		if _, err := kg.Add(ctx, p.Store, fact("Team A"), kg.AddOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := kg.Add(ctx, p.Store, fact("Team B"), kg.AddOptions{}); !errors.Is(err, kg.ErrConflict) {
			t.Errorf("%s accepted a contradiction of a functional predicate: %v", p.Store.Home(), err)
		}
	}
	if em, _, _ := b.Store.Meta(ctx, store.SettingAAAKEntities); em != `{"Alice":"ALC"}` {
		t.Errorf("entity map after import: %s", em)
	}
	// A one-wing export keeps the functional predicates but not the entity
	// map, which names entities of every wing.
	w := export(t, a, "w")
	if !strings.Contains(w, store.SettingKGFunctional) || strings.Contains(w, store.SettingAAAKEntities) {
		t.Errorf("wing export settings:\n%s", w)
	}
}

// A palace's own setting wins over the file's and is reported, except an
// entity map with no entity, which takes the file's.
func TestSettingConflicts(t *testing.T) {
	ctx := context.Background()
	a := palacetest.OpenPalace(t)
	if _, err := kg.SetFunctional(ctx, a.Store, "leads", true); err != nil {
		t.Fatal(err)
	}
	if err := a.Store.SetMeta(ctx, store.SettingAAAKEntities, `{"Alice":"ALC"}`); err != nil {
		t.Fatal(err)
	}
	data := export(t, a, "")
	b := palacetest.OpenPalace(t)
	if _, err := kg.SetFunctional(ctx, b.Store, "owns", true); err != nil {
		t.Fatal(err)
	}
	if err := b.Store.SetMeta(ctx, store.SettingAAAKEntities, `{}`); err != nil {
		t.Fatal(err)
	}
	res, err := importAll(ctx, b, "x", strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Conflicts) != 1 || res.Conflicts[0] != "setting "+store.SettingKGFunctional || res.Added["setting"] != 1 {
		t.Errorf("import into a palace with its own settings: %+v", res)
	}
	if fn, _ := kg.Functional(ctx, b.Store); !slices.Contains(fn, "owns") || slices.Contains(fn, "leads") {
		t.Errorf("functional predicates after a conflicting import: %v", fn)
	}
	if em, _, _ := b.Store.Meta(ctx, store.SettingAAAKEntities); em != `{"Alice":"ALC"}` {
		t.Errorf("an empty entity map was not filled: %s", em)
	}
}

// A version 1 export (before settings travelled) still imports, and a
// setting the palace does not carry, or cannot read, refuses the file.
func TestSettingRowsChecked(t *testing.T) {
	ctx := context.Background()
	a := palacetest.OpenPalace(t)
	fill(t, a)
	lines := strings.SplitAfter(export(t, a, ""), "\n")
	v1 := strings.Replace(lines[0], fmt.Sprintf(`"version":%d`, Version), `"version":1`, 1)
	for _, l := range lines[1:] {
		if !strings.Contains(l, `"type":"setting"`) {
			v1 += l
		}
	}
	if _, err := importAll(ctx, palacetest.OpenPalace(t), "v1.jsonl", strings.NewReader(v1)); err != nil {
		t.Errorf("version 1 export refused: %v", err)
	}
	c := palacetest.OpenPalace(t)
	for name, row := range map[string]string{
		"local key": `{"type":"setting","row":{"key":"audit.seq","value":"7"}}`,
		"bad list":  `{"type":"setting","row":{"key":"kg.functional","value":"leads"}}`,
		"bad map":   `{"type":"setting","row":{"key":"aaak.entities","value":"[1]"}}`,
		// The agent registry is checked as 'palace agent add' checks it.
		"agents not a list":   `{"type":"setting","row":{"key":"agents","value":"null"}}`,
		"agent unknown field": `{"type":"setting","row":{"key":"agents","value":"[{\"name\":\"a\",\"focus\":\"f\",\"diary\":\"d\",\"x\":1}]"}}`,
		"agent bad name":      `{"type":"setting","row":{"key":"agents","value":"[{\"name\":\"a/b\",\"focus\":\"f\",\"diary\":\"d\"}]"}}`,
		"agent no focus":      `{"type":"setting","row":{"key":"agents","value":"[{\"name\":\"a\",\"focus\":\"\",\"diary\":\"d\"}]"}}`,
		"agent no diary":      `{"type":"setting","row":{"key":"agents","value":"[{\"name\":\"a\",\"focus\":\"f\"}]"}}`,
		"agent twice":         `{"type":"setting","row":{"key":"agents","value":"[{\"name\":\"A\",\"focus\":\"f\",\"diary\":\"d\"},{\"name\":\"a\",\"focus\":\"f\",\"diary\":\"d\"}]"}}`,
		"not text":            `{"type":"setting","row":{"key":"kg.functional","value":["leads"]}}`,
		"without key":         `{"type":"setting","row":{"value":"[]"}}`,
	} {
		if _, err := importAll(ctx, c, "bad.jsonl", strings.NewReader(lines[0]+row+"\n")); err == nil || !strings.Contains(err.Error(), "bad.jsonl: line 2") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, set, _ := c.Store.KGFunctional(ctx); set {
		t.Error("a refused import set the functional predicates")
	}
}

// A damaged page can garble a drawer's id without any read error. The
// drawers table's copy of one id is overwritten here (its last three
// bytes, so the row still parses) while the id index keeps the true one:
// export must not write the garbage, which would make its file one an
// import refuses, and must name the drawer by the id its index gives. A
// drawer that fails an import's checks but that the id index holds (an
// older, laxer version wrote it) is the user's data and is written as it
// is. A CI run wrote the garbage and left the drawer unnamed.
func TestExportNamesAGarbledDrawer(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	p, err := palace.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	var ds []store.Drawer
	for i, text := range []string{"the drawer a damaged page garbles", "a drawer an older version wrote", "a sound drawer"} {
		h := store.ContentHash(text)
		d := store.Drawer{ID: store.DrawerID("w", "s", i, h), Wing: "w", Room: "r", Kind: store.KindNote, Source: "s",
			Content: text, ContentHash: h, Importance: 3, OccurredAt: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
		if i == 1 {
			d.Importance = 99 // beyond remember's bounds: an import refuses it
		}
		if d.IndexText, err = p.IndexText(text); err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	garbleTableCopy(t, filepath.Join(home, "palace.db"), ds[0].ID)

	p, err = palace.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// The wing's export reads the drawers through the wing's index, so
	// each id from the table. (A whole export orders by the id index and
	// SQLite takes the id from there: the true one, which it may write.)
	for _, wing := range []string{"w", ""} {
		var b bytes.Buffer
		n, lost, err := Export(ctx, p, wing, &b)
		if err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if !strings.Contains(out, ds[1].ID) || !strings.Contains(out, ds[2].ID) {
			t.Errorf("export of wing %q left out a drawer that reads:\n%s", wing, out)
		}
		if strings.Contains(out, "\ufffd") {
			t.Errorf("export of wing %q wrote the garbled id:\n%s", wing, out)
		}
		named := len(lost) == 1 && lost[0].Table == "drawers" && slices.Contains(lost[0].IDs, ds[0].ID)
		written := strings.Contains(out, ds[0].ID) && len(lost) == 0
		if n+len(lost) != 3 || !named && !(wing == "" && written) {
			t.Errorf("export of wing %q wrote %d rows and names %+v as skipped, want the garbled drawer named by its id %s",
				wing, n, lost, ds[0].ID)
		}
		// The file imports but for the laxer drawer, which the import
		// refuses by name, as it would the older version's own export.
		if _, err := Read(context.Background(), palacetest.OpenPalace(t), "x", strings.NewReader(out)); err == nil || !strings.Contains(err.Error(), "importance") {
			t.Errorf("import of the export of wing %q: %v, want the laxer drawer's importance refused", wing, err)
		}
	}
}

// garbleTableCopy overwrites the last three bytes of the drawers table's
// own copy of id in the database file at path, leaving the id index's copy
// whole: each place the id's bytes occur is tried until a scan of the
// table (not the index) no longer finds the id while the index still does.
func garbleTableCopy(t *testing.T, path, id string) {
	t.Helper()
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for at := 0; ; at++ {
		i := bytes.Index(orig[at:], []byte(id))
		if i < 0 {
			t.Fatalf("no copy of %s in %s is the table's alone", id, path)
		}
		at += i
		b := slices.Clone(orig)
		copy(b[at+len(id)-3:], "\xff\xfe\xfd")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		var inTable, inIndex int
		err = db.QueryRow(`SELECT (SELECT count(*) FROM drawers NOT INDEXED WHERE id = ?1),
			(SELECT count(*) FROM drawers INDEXED BY sqlite_autoindex_drawers_1 WHERE id = ?1)`, id).Scan(&inTable, &inIndex)
		db.Close()
		if err == nil && inTable == 0 && inIndex == 1 {
			return
		}
	}
}
