package aaak

import (
	"encoding/json"
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden encodes every fixture and compares the document, the entity
// map and the decoded text with the files next to it.
func TestGolden(t *testing.T) {
	for _, fx := range loadFixtures(t) {
		t.Run(fx.name, func(t *testing.T) {
			m := NewEntityMap()
			doc, err := Encode(fx.items, EncodeOptions{Entities: m, Tagger: fx.tagger})
			if err != nil {
				t.Fatal(err)
			}
			if err := Validate(doc); err != nil {
				t.Fatalf("encoded document is invalid: %v", err)
			}
			js, err := json.MarshalIndent(m, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, fx.path+".aaak", Print(doc))
			checkGolden(t, fx.path+".entities.json", string(js)+"\n")
			checkGolden(t, fx.path+".decoded.txt", Decode(doc, m)+"\n")

			// The golden document reads back as the encoded one.
			want, err := os.ReadFile(fx.path + ".aaak")
			if err != nil {
				t.Fatal(err)
			}
			parsed, err := Parse(string(want))
			if err != nil {
				t.Fatalf("golden document does not parse: %v", err)
			}
			if !parsed.Equal(doc) {
				t.Errorf("golden document parses to\n%s\nwant\n%s", Print(parsed), Print(doc))
			}

			// Codes are stable: a second run with the map from the first
			// keeps every code and adds no entity.
			before := m.Entries()
			doc2, err := Encode(fx.items, EncodeOptions{Entities: m, Tagger: fx.tagger})
			if err != nil {
				t.Fatal(err)
			}
			if after := m.Entries(); len(after) != len(before) {
				t.Errorf("second run changed the map: %d entities, want %d", len(after), len(before))
			}
			for _, e := range before {
				if c, _ := m.Code(e.Name); c != e.Code {
					t.Errorf("code of %q changed from %s to %s", e.Name, e.Code, c)
				}
			}
			for i := range min(len(doc.Zettels), len(doc2.Zettels)) {
				if !equalStrings(doc.Zettels[i].Entities, doc2.Zettels[i].Entities) {
					t.Errorf("zettel %d entities %v on the second run, want %v",
						i, doc2.Zettels[i].Entities, doc.Zettels[i].Entities)
				}
			}
		})
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func checkGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run with -update to accept):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
