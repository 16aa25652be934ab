package aaak

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// genText returns random free text from a mix of scripts, punctuation and
// the characters AAAK treats specially, minus those in forbid.
func genText(r *rand.Rand, maxLen int, forbid string) string {
	const pool = "abcXYZ 09_-+:\"'★¦|\t\r\n中文分词。！かなカナ한글éß→😀<->"
	runes := []rune(pool)
	var b strings.Builder
	for n := r.IntN(maxLen + 1); n > 0; n-- {
		c := runes[r.IntN(len(runes))]
		if !strings.ContainsRune(forbid, c) {
			b.WriteRune(c)
		}
	}
	return b.String()
}

func genCode(r *rand.Rand, lo, hi byte, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = lo + byte(r.IntN(int(hi-lo)+1))
	}
	return string(b)
}

// genDoc builds a random valid document.
func genDoc(r *rand.Rand) *Document {
	field := func() string { return genText(r, 8, "|\r\n") }
	d := &Document{Header: Header{Version: 1, Wing: field(), Room: field(), Date: field(), Source: field()}}
	ids := r.Perm(40)[:1+r.IntN(5)]
	for _, id := range ids {
		z := Zettel{ID: uint64(id), Quote: genText(r, 20, "|\r\n"), Stars: 1 + r.IntN(5)}
		for range 1 + r.IntN(3) {
			z.Entities = append(z.Entities, genCode(r, 'A', 'Z', 3))
		}
		for range 1 + r.IntN(3) {
			tp := genText(r, 6, "_|\r\n")
			if tp == "" {
				tp = "t"
			}
			z.Topics = append(z.Topics, tp)
		}
		for range 1 + r.IntN(3) {
			z.Emotions = append(z.Emotions, genCode(r, 'a', 'z', 3+r.IntN(5)))
			z.Flags = append(z.Flags, flagOrder[r.IntN(len(flagOrder))])
		}
		d.Zettels = append(d.Zettels, z)
	}
	for range r.IntN(3) {
		label := genText(r, 10, "\r\n")
		if isBlank(label) {
			label = "x" + label
		}
		d.Tunnels = append(d.Tunnels, Tunnel{From: uint64(ids[r.IntN(len(ids))]), To: uint64(ids[r.IntN(len(ids))]), Label: label})
	}
	for range r.IntN(2) {
		var a Arc
		for range 1 + r.IntN(3) {
			a.Emotions = append(a.Emotions, genCode(r, 'a', 'z', 3+r.IntN(5)))
		}
		d.Arcs = append(d.Arcs, a)
	}
	return d
}

// corrupt changes one value at random, possibly into something invalid.
func corrupt(r *rand.Rand, d *Document) {
	z := &d.Zettels[r.IntN(len(d.Zettels))]
	switch r.IntN(8) {
	case 0:
		z.Quote = genText(r, 12, "")
	case 1:
		z.Topics[0] = genText(r, 6, "")
	case 2:
		z.Entities[0] = genText(r, 4, "")
	case 3:
		z.Stars = r.IntN(8) - 1
	case 4:
		z.Emotions[0] = genText(r, 8, "")
	case 5:
		d.Wing = genText(r, 8, "")
	case 6:
		z.ID = uint64(r.IntN(40))
	case 7:
		z.Flags[0] = Flag(genText(r, 6, ""))
	}
}

// TestPrintParseProperty: every valid document survives Print then Parse,
// and Validate accepts a document exactly when it does.
func TestPrintParseProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	rejected := 0
	for i := range 3000 {
		d := genDoc(r)
		if err := Validate(d); err != nil {
			t.Fatalf("case %d: generated document invalid: %v\n%s", i, err, Print(d))
		}
		back, err := Parse(Print(d))
		if err != nil || !back.Equal(d) {
			t.Fatalf("case %d: round trip failed: %v\n%s", i, err, Print(d))
		}
		corrupt(r, d)
		back, err = Parse(Print(d))
		survives := err == nil && back.Equal(d)
		if valid := Validate(d) == nil; valid != survives {
			t.Fatalf("case %d: Validate says %v, round trip says %v\n%s", i, valid, survives, Print(d))
		}
		if !survives {
			rejected++
		}
	}
	if rejected < 500 {
		t.Errorf("only %d corrupted documents were invalid; the generator is too tame", rejected)
	}
}
