package aaak

import (
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// EntityMap is a one-to-one map between entity names and their 3-letter
// codes. The caller owns it and passes it to [Encode] and [Decode]; storing
// it between runs (it marshals to a JSON object name → code) keeps codes
// stable. The zero value is an empty map ready to use.
//
// An EntityMap is not safe for concurrent use.
type EntityMap struct {
	byName map[string]string
	byCode map[string]string
}

// Entity is one name/code pair.
type Entity struct {
	Name string
	Code string
}

// ErrEntityMapFull is returned when all 26³−1 codes are taken.
var ErrEntityMapFull = errors.New("aaak: entity map full: every 3-letter code is taken")

// NewEntityMap returns an empty map.
func NewEntityMap() *EntityMap { return &EntityMap{} }

func (m *EntityMap) init() {
	if m.byName == nil {
		m.byName = map[string]string{}
		m.byCode = map[string]string{}
	}
}

// Len returns the number of entities.
func (m *EntityMap) Len() int {
	if m == nil {
		return 0
	}
	return len(m.byName)
}

// Code returns the code of name.
func (m *EntityMap) Code(name string) (string, bool) {
	if m == nil {
		return "", false
	}
	c, ok := m.byName[name]
	return c, ok
}

// Name returns the name behind code.
func (m *EntityMap) Name(code string) (string, bool) {
	if m == nil {
		return "", false
	}
	n, ok := m.byCode[code]
	return n, ok
}

// Add binds name to code. The code must be three uppercase letters A-Z and
// not the reserved [UnknownEntity]; neither name nor code may already be
// bound to something else. Adding an existing pair again is a no-op.
func (m *EntityMap) Add(name, code string) error {
	switch {
	case isBlank(name):
		return fmt.Errorf("aaak: entity name %q is blank", name)
	case !utf8.ValidString(name):
		return fmt.Errorf("aaak: entity name %q is not valid UTF-8", name)
	case !IsEntityCode(code):
		return fmt.Errorf("aaak: entity code %q for %q must be 3 uppercase letters A-Z", code, name)
	case code == UnknownEntity:
		return fmt.Errorf("aaak: entity code %s is reserved for \"no entity\" (name %q)", code, name)
	}
	m.init()
	if c, ok := m.byName[name]; ok {
		if c == code {
			return nil
		}
		return fmt.Errorf("aaak: entity %q already has code %s, not %s", name, c, code)
	}
	if n, ok := m.byCode[code]; ok {
		return fmt.Errorf("aaak: entity code %s already names %q, not %q", code, n, name)
	}
	m.byName[name] = code
	m.byCode[code] = name
	return nil
}

// Assign returns the code of name, choosing and recording a new one if the
// name is not in the map yet. New codes are chosen deterministically:
//
//  1. the first three ASCII letters of the name, upper-cased (mempal's rule);
//  2. on collision, the first letter with each later pair of letters in
//     order (ALICE: ALI, ALC, ALE, AIC, ...);
//  3. then, and for names with fewer than three ASCII letters, a hash of
//     the name (mempal's h = h·31 + byte, read 5 bits per letter), salted
//     with "#1", "#2", ... on collision;
//  4. then the first free code in alphabetical order.
func (m *EntityMap) Assign(name string) (string, error) {
	if c, ok := m.Code(name); ok {
		return c, nil
	}
	for c := range codeCandidates(name) {
		if c == UnknownEntity {
			continue
		}
		if _, taken := m.Name(c); !taken {
			return c, m.Add(name, c)
		}
	}
	return "", ErrEntityMapFull
}

func codeCandidates(name string) iter.Seq[string] {
	return func(yield func(string) bool) {
		var letters []byte
		for i := 0; i < len(name) && len(letters) < 12; i++ {
			if c := name[i] | 0x20; c >= 'a' && c <= 'z' {
				letters = append(letters, c-'a'+'A')
			}
		}
		if len(letters) >= 3 {
			if !yield(string(letters[:3])) {
				return
			}
			for i := 1; i < len(letters); i++ {
				for j := i + 1; j < len(letters); j++ {
					if !yield(string([]byte{letters[0], letters[i], letters[j]})) {
						return
					}
				}
			}
		}
		for k := range 64 {
			s := name
			if k > 0 {
				s += "#" + strconv.Itoa(k)
			}
			if !yield(hashCode(s)) {
				return
			}
		}
		for a := byte('A'); a <= 'Z'; a++ {
			for b := byte('A'); b <= 'Z'; b++ {
				for c := byte('A'); c <= 'Z'; c++ {
					if !yield(string([]byte{a, b, c})) {
						return
					}
				}
			}
		}
	}
}

// hashCode is mempal's stable code for names without three ASCII letters.
func hashCode(s string) string {
	var h uint64
	for i := 0; i < len(s); i++ {
		h = h*31 + uint64(s[i])
	}
	var code [3]byte
	for i := range 3 {
		code[i] = 'A' + byte((h>>(5*i))&31)%26
	}
	return string(code[:])
}

// Entries returns all pairs sorted by name.
func (m *EntityMap) Entries() []Entity {
	if m == nil {
		return nil
	}
	out := make([]Entity, 0, len(m.byName))
	for n, c := range m.byName {
		out = append(out, Entity{Name: n, Code: c})
	}
	slices.SortFunc(out, func(a, b Entity) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Clone returns an independent copy.
func (m *EntityMap) Clone() *EntityMap {
	c := &EntityMap{}
	for _, e := range m.Entries() {
		c.init()
		c.byName[e.Name] = e.Code
		c.byCode[e.Code] = e.Name
	}
	return c
}

// MarshalJSON writes the map as a JSON object from name to code, keys sorted.
func (m *EntityMap) MarshalJSON() ([]byte, error) {
	if m == nil || m.byName == nil {
		return []byte("{}"), nil
	}
	return json.Marshal(m.byName)
}

// UnmarshalJSON reads a JSON object from name to code, checking every pair
// as [EntityMap.Add] does. On error the map is left unchanged.
func (m *EntityMap) UnmarshalJSON(b []byte) error {
	var names map[string]string
	if err := json.Unmarshal(b, &names); err != nil {
		return fmt.Errorf("aaak: entity map: %w", err)
	}
	fresh := &EntityMap{}
	for _, n := range slices.Sorted(maps.Keys(names)) {
		if err := fresh.Add(n, names[n]); err != nil {
			return err
		}
	}
	fresh.init()
	*m = *fresh
	return nil
}
