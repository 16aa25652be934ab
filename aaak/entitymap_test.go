package aaak

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestEntityMapAdd(t *testing.T) {
	var m EntityMap // the zero value works
	if err := m.Add("Alice", "ALI"); err != nil {
		t.Fatal(err)
	}
	if err := m.Add("Alice", "ALI"); err != nil {
		t.Errorf("re-adding the same pair: %v", err)
	}
	for _, tc := range []struct{ name, code, want string }{
		{"Alice", "ALC", "already has code"},
		{"Alicia", "ALI", "already names"},
		{"Bob", "bob", "3 uppercase letters"},
		{"Bob", "BO", "3 uppercase letters"},
		{"Bob", "BOBB", "3 uppercase letters"},
		{"Bob", "UNK", "reserved"},
		{"  ", "BOB", "blank"},
		{"B\xffb", "BOB", "UTF-8"},
	} {
		err := m.Add(tc.name, tc.code)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Add(%q, %q) = %v, want an error containing %q", tc.name, tc.code, err, tc.want)
		}
	}
	if m.Len() != 1 {
		t.Errorf("failed Adds changed the map: %v", m.Entries())
	}
	if n, ok := m.Name("ALI"); !ok || n != "Alice" {
		t.Errorf("Name(ALI) = %q, %v", n, ok)
	}
	var nilMap *EntityMap
	if _, ok := nilMap.Code("x"); ok || nilMap.Len() != 0 || nilMap.Entries() != nil {
		t.Error("nil map lookups should find nothing")
	}
}

func TestEntityMapAssign(t *testing.T) {
	m := NewEntityMap()
	for _, tc := range []struct{ name, want string }{
		{"Alice", "ALI"},
		{"Alina", "ALN"}, // ALI taken: first letter + later pairs, ALI again, then ALN
		{"Alice", "ALI"}, // known names keep their code
		{"alien", "ALE"},
		{"Unknown", "UNN"}, // UNK is reserved
		{"张伟", "ECM"},      // mempal's hash, checked independently
		{"BM25", "OEJ"},    // fewer than 3 letters: hash
		{"Go", "IIC"},
	} {
		got, err := m.Assign(tc.name)
		if err != nil || got != tc.want {
			t.Errorf("Assign(%q) = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
	// Two names with the same hash code: the second is salted.
	m2 := NewEntityMap()
	if err := m2.Add("Someone", "ECM"); err != nil {
		t.Fatal(err)
	}
	got, err := m2.Assign("张伟")
	if err != nil || got == "ECM" || !IsEntityCode(got) {
		t.Errorf("collision: Assign = %q, %v", got, err)
	}
}

func TestEntityMapFull(t *testing.T) {
	m := NewEntityMap()
	n := 0
	for a := 'A'; a <= 'Z'; a++ {
		for b := 'A'; b <= 'Z'; b++ {
			for c := 'A'; c <= 'Z'; c++ {
				code := string([]rune{a, b, c})
				if code == UnknownEntity {
					continue
				}
				if err := m.Add("e"+code, code); err != nil {
					t.Fatal(err)
				}
				n++
			}
		}
	}
	if n != 26*26*26-1 {
		t.Fatalf("added %d", n)
	}
	if _, err := m.Assign("one more"); !errors.Is(err, ErrEntityMapFull) {
		t.Errorf("Assign on a full map = %v", err)
	}
	// The encoder reports it instead of writing a bad code.
	_, err := Encode([]Item{{Text: "Zelda met Link."}}, EncodeOptions{Entities: m})
	if !errors.Is(err, ErrEntityMapFull) {
		t.Errorf("Encode on a full map = %v", err)
	}
}

func TestEntityMapJSON(t *testing.T) {
	m := NewEntityMap()
	for _, n := range []string{"Zoë <z>", "Alice", "张伟"} {
		if _, err := m.Assign(n); err != nil {
			t.Fatal(err)
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"Alice":"ALI","Zoë \u003cz\u003e":"ZOZ","张伟":"ECM"}`; string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
	var back EntityMap
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Entries()) != 3 || back.Entries()[2] != (Entity{"张伟", "ECM"}) {
		t.Errorf("round trip: %v", back.Entries())
	}
	if b, _ := json.Marshal(NewEntityMap()); string(b) != "{}" {
		t.Errorf("empty map marshals to %s", b)
	}

	for _, bad := range []string{`{"A":"abc"}`, `{"A":"ABC","B":"ABC"}`, `{"A":"UNK"}`, `["ABC"]`, `{`} {
		keep := m.Clone()
		if err := json.Unmarshal([]byte(bad), keep); err == nil {
			t.Errorf("accepted %s", bad)
		}
		if len(keep.Entries()) != 3 {
			t.Errorf("failed unmarshal of %s changed the map", bad)
		}
	}
}

func TestEntityMapClone(t *testing.T) {
	m := NewEntityMap()
	m.Add("Alice", "ALI")
	c := m.Clone()
	c.Add("Bob", "BOB")
	if m.Len() != 1 || c.Len() != 2 {
		t.Errorf("clone is not independent: %d, %d", m.Len(), c.Len())
	}
}
