package aaak

import (
	"strings"
	"testing"
)

// TestRoundtripFixtures requires coverage >= 0.8 on every golden fixture
// and logs what was lost, so the loss stays visible in -v output.
func TestRoundtripFixtures(t *testing.T) {
	for _, fx := range loadFixtures(t) {
		t.Run(fx.name, func(t *testing.T) {
			r, err := VerifyItems(fx.items, EncodeOptions{Tagger: fx.tagger})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("coverage %.3f (%d preserved, %d lost, %d skipped), tokens %d -> %d (ratio %.3f)",
				r.Coverage, len(r.Preserved), len(r.Lost), r.Skipped, r.RawTokens, r.AAAKTokens, r.Ratio())
			for _, a := range r.Lost {
				t.Logf("lost: %q (missing %s of %d units)", a.Text, strings.Join(a.Missing, ", "), len(a.Units))
			}
			if r.Coverage < 0.8 {
				t.Errorf("coverage %.3f < 0.8", r.Coverage)
			}
		})
	}
}

// TestRoundtripReportsLoss makes sure the measure can fail: with one topic
// per zettel and one zettel per drawer, most sentences of a long drawer
// cannot survive, and the report must say which.
func TestRoundtripReportsLoss(t *testing.T) {
	text := "We chose SQLite for storage. Maria benchmarked hybrid retrieval against plain keyword ranking. " +
		"Embeddings stay optional because downloading weights offline is impossible. " +
		"Neovim users asked for hover previews of related memories."
	r, err := VerifyRoundtrip(text, EncodeOptions{SentencesPerZettel: 10, MaxTopics: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Coverage > 0.5 || len(r.Lost) < 2 {
		t.Fatalf("coverage %.2f with %d lost; want at least half of 4 sentences lost\n%s", r.Coverage, len(r.Lost), r.AAAK)
	}
	if got := len(r.Preserved) + len(r.Lost); got != 4 {
		t.Errorf("%d assertions, want 4", got)
	}
	for _, a := range r.Lost {
		if len(a.Missing) == 0 || !strings.Contains(text, a.Text) {
			t.Errorf("lost assertion %+v should be a source sentence with missing units", a)
		}
	}
	full, err := VerifyRoundtrip(text, EncodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if full.Coverage <= r.Coverage {
		t.Errorf("default coverage %.2f should beat the starved encoder's %.2f", full.Coverage, r.Coverage)
	}
}

// TestRoundtripNegation: dropping "not" flips a fact, so negations are
// content units the measure checks.
func TestRoundtripNegation(t *testing.T) {
	a := analyze("We will not ship ONNX by default.", nil)
	var keys []string
	for _, u := range a.units {
		keys = append(keys, u.key)
	}
	if got := strings.Join(keys, " "); got != "not ship onnx default" {
		t.Errorf("units %q, want %q", got, "not ship onnx default")
	}
}

func TestRoundtripEdgeCases(t *testing.T) {
	r, err := VerifyRoundtrip("", EncodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Coverage != 1 || r.RawTokens != 0 || r.Ratio() != 0 {
		t.Errorf("empty text: coverage %v, raw %d, ratio %v; want 1, 0, 0", r.Coverage, r.RawTokens, r.Ratio())
	}
	r, err = VerifyRoundtrip("OK. Yes!", EncodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Skipped != 2 || r.Coverage != 1 {
		t.Errorf("content-free sentences: skipped %d, coverage %v; want 2, 1", r.Skipped, r.Coverage)
	}
	// The measure codes names in the caller's map, which then decodes the
	// document it reports.
	m := NewEntityMap()
	r, err = VerifyRoundtrip("Maria and Jonas met in Berlin.", EncodeOptions{Entities: m})
	if err != nil {
		t.Fatal(err)
	}
	if m.Len() == 0 {
		t.Errorf("VerifyRoundtrip coded %q without adding a name to the caller's map", r.AAAK)
	}
	doc, err := Parse(r.AAAK)
	if err != nil {
		t.Fatal(err)
	}
	if got := Decode(doc, m); got != r.Decoded || !strings.Contains(got, "Maria") {
		t.Errorf("decoding with the caller's map: %q, want %q", got, r.Decoded)
	}
}
