package transfer

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

// fillEnglish gives p a note, a mined file chunk, a conversation exchange,
// a room and a fact, with no Chinese (so the segmenter never loads).
func fillEnglish(t *testing.T, p *palace.Palace, wing string) {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	var ds []store.Drawer
	for i, d := range []store.Drawer{
		{Kind: store.KindNote, Source: "note", Content: "the release is on Friday", Importance: 3},
		{Kind: store.KindFile, Source: "main.go", Content: "func main() {}", LineStart: 4, LineEnd: 6},
		{Kind: store.KindConversation, Source: "chat.jsonl", Content: "user: ship it\n\nassistant: shipped",
			Metadata: `{"speakers":["user","assistant"]}`},
	} {
		d.ContentHash = store.ContentHash(d.Content)
		d.ID = store.DrawerID(wing, d.Source, i, d.ContentHash)
		d.Wing, d.Room, d.OccurredAt = wing, "general", at
		ds = append(ds, d)
	}
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	if err := p.Store.ReplaceTaxonomy(ctx, wing, []store.Room{{Room: "general", Keywords: []string{"release"}}}); err != nil {
		t.Fatal(err)
	}
	fact := kg.Fact{Subject: "Alice " + wing, Predicate: "works_at", Object: "Acme", ValidFrom: "2020-01-01", SourceDrawer: ds[0].ID}
	if _, err := kg.Add(ctx, p.Store, fact, kg.AddOptions{}); err != nil {
		t.Fatal(err)
	}
}

// edit sets one column of the first row of type kind in an export (the
// header when kind is "header") and returns the file and that row's line.
func edit(t *testing.T, file, kind, col string, v any) (string, int) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(file, "\n"), "\n")
	for i, l := range lines {
		var row map[string]any
		if err := json.Unmarshal([]byte(l), &row); err != nil {
			t.Fatal(err)
		}
		if kind == "header" && i == 0 {
			row[col] = v
		} else if i > 0 && row["type"] == kind {
			row["row"].(map[string]any)[col] = v
		} else {
			continue
		}
		b, err := json.Marshal(row)
		if err != nil {
			t.Fatal(err)
		}
		lines[i] = string(b)
		return strings.Join(lines, "\n") + "\n", i + 1
	}
	t.Fatalf("no %s row in the export", kind)
	return "", 0
}

// Every field of an import is checked as the operation that writes it
// checks it: a bad one refuses the whole file with its line and field,
// and the palace is left exactly as it was.
func TestImportChecksEveryField(t *testing.T) {
	ctx := context.Background()
	a := palacetest.OpenPalace(t)
	fillEnglish(t, a, "w")
	good := export(t, a, "")
	if _, err := importAll(ctx, palacetest.OpenPalace(t), "good.jsonl", strings.NewReader(good)); err != nil {
		t.Fatalf("a palace's own export is refused: %v", err)
	}
	c := palacetest.OpenPalace(t)
	fillEnglish(t, c, "mine")
	before := export(t, c, "")
	for _, tc := range []struct {
		name, kind, col string
		v               any
	}{
		{"path as wing", "drawer", "wing", "../../etc"},
		{"control character in room", "drawer", "room", "gen\x1b[2Jeral"},
		{"importance above the bound", "drawer", "importance", 99},
		{"negative importance", "drawer", "importance", -1},
		{"empty id", "drawer", "id", ""},
		{"SQL as id", "drawer", "id", "d_'; DROP TABLE drawers; --"},
		{"id not a string", "drawer", "id", 7},
		{"unknown kind", "drawer", "kind", "spaceship"},
		{"hash not the content's", "drawer", "content_hash", store.ContentHash("something else")},
		{"content without its hash", "drawer", "content", "edited after export"},
		{"created_at not a date", "drawer", "created_at", "yesterday"},
		{"occurred_at not a date", "drawer", "occurred_at", "2025-13-45"},
		{"deleted_at not a date", "drawer", "deleted_at", "soon"},
		{"negative line", "drawer", "line_start", -3},
		{"end before start", "drawer", "line_end", -1},
		{"fractional line", "drawer", "line_start", 1.5},
		{"metadata not JSON", "drawer", "metadata", `{"speakers":`},
		{"metadata not an object", "drawer", "metadata", `[1,2]`},
		{"metadata as null", "drawer", "metadata", nil},
		{"purged with content", "drawer", "purged_at", "2025-01-02T03:04:05Z"},
		{"schema from the future", "header", "schema", 999},
		{"format version 0", "header", "version", 0},
		{"room with a slash", "taxonomy", "room", "a/b"},
		{"keywords not a list", "taxonomy", "keywords", "release"},
		{"entity id not its name", "entity", "id", "x'); DROP TABLE entities; --"},
		{"properties not JSON", "entity", "properties", "{"},
		{"type not a type", "entity", "type", "Two Words"},
		{"aliases not an object", "entity", "properties", `{"aliases":["Kai Chen"]}`},
		{"alias id not its name", "entity", "properties", `{"aliases":{"kai":"Kai Chen"}}`},
		{"control character in entity name", "entity", "name", "Acme\x1b]52;c;aGk=\x07"},
		{"control character in subject", "triple", "subject", "alice\x1b[2j"},
		{"fact id empty", "triple", "id", ""},
		{"fact date not a date", "triple", "valid_from", "someday"},
		{"fact ends before it starts", "triple", "valid_to", "2019-01-01T00:00:00Z"},
		{"confidence above 1", "triple", "confidence", 7},
		{"predicate not normalized", "triple", "predicate", "Works At"},
		{"source drawer not an id", "triple", "source_drawer", "../x"},
	} {
		file, line := edit(t, good, tc.kind, tc.col, tc.v)
		field := tc.col
		if tc.name == "end before start" {
			field = "line_end"
		} else if tc.name == "content without its hash" {
			field = "content_hash"
		} else if tc.name == "purged with content" {
			field = "content"
		}
		want := fmt.Sprintf("bad.jsonl: line %d: %s %s ", line, tc.kind, field)
		if tc.kind == "header" {
			want = fmt.Sprintf("bad.jsonl: line 1: %s ", field)
		}
		_, err := importAll(ctx, c, "bad.jsonl", strings.NewReader(file))
		switch {
		case err == nil:
			t.Errorf("%s: accepted", tc.name)
		case !strings.Contains(err.Error(), want):
			t.Errorf("%s: %v, want an error naming %q", tc.name, err, want)
		}
	}
	if after := export(t, c, ""); after != before {
		t.Errorf("a refused import changed the palace:\n%s---\n%s", before, after)
	}
}

// The search index holds what a drawer's content holds, derived on import
// as mining and remember derive it; a file's index text is never taken,
// so a file cannot make a drawer match words it does not contain.
func TestImportDerivesIndexText(t *testing.T) {
	ctx := context.Background()
	a := palacetest.OpenPalace(t)
	fillEnglish(t, a, "w")
	lines := strings.Split(export(t, a, ""), "\n")
	noisy := "user: ship it <system-reminder>hushword</system-reminder>\n\nassistant: shipped"
	for i, l := range lines {
		var r map[string]any
		if json.Unmarshal([]byte(l), &r) != nil || r["type"] != "drawer" {
			continue
		}
		row := r["row"].(map[string]any)
		if row["kind"] == "conversation" {
			row["content"], row["content_hash"] = noisy, store.ContentHash(noisy)
		}
		// As an export from before index text was left out would carry
		// it, with a word the content lacks.
		row["index_text"] = row["content"].(string) + " zebra"
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		lines[i] = string(b)
	}
	file := strings.Join(lines, "\n")
	b := palacetest.OpenPalace(t)
	if _, err := importAll(ctx, b, "x.jsonl", strings.NewReader(file)); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]int{`"zebra"`: 0, `"friday"`: 1, `"hushword"`: 0, `"shipped"`: 1} {
		hits, err := b.Store.SearchFTS(ctx, q, store.Filter{}, 5, nil)
		if err != nil || len(hits) != want {
			t.Errorf("search %s: %d hits (%v), want %d", q, len(hits), err, want)
		}
	}
	if strings.Contains(export(t, b, ""), "index_text") {
		t.Error("an export carries index text, which is derived")
	}
}
