package aaak

import (
	"testing"
)

// BenchmarkSize encodes each golden fixture and reports, besides time, the
// size of the source and of the AAAK document in CountTokens tokens, their
// ratio (aaak/raw; smaller is more compact) and the round-trip coverage.
//
//	go test ./aaak -run '^$' -bench BenchmarkSize -benchtime 20x
func BenchmarkSize(b *testing.B) {
	var totalRaw, totalAAAK, preserved, counted int
	fixtures := loadFixtures(b)
	for _, fx := range fixtures {
		r, err := VerifyItems(fx.items, EncodeOptions{Tagger: fx.tagger})
		if err != nil {
			b.Fatal(err)
		}
		totalRaw += r.RawTokens
		totalAAAK += r.AAAKTokens
		preserved += len(r.Preserved)
		counted += len(r.Preserved) + len(r.Lost)
		b.Run(fx.name, func(b *testing.B) {
			for b.Loop() {
				doc, err := Encode(fx.items, EncodeOptions{Tagger: fx.tagger})
				if err != nil {
					b.Fatal(err)
				}
				_ = Print(doc)
			}
			report(b, r.RawTokens, r.AAAKTokens, r.Coverage)
		})
	}
	b.Run("all", func(b *testing.B) {
		for b.Loop() {
			for _, fx := range fixtures {
				if _, err := Encode(fx.items, EncodeOptions{Tagger: fx.tagger}); err != nil {
					b.Fatal(err)
				}
			}
		}
		report(b, totalRaw, totalAAAK, float64(preserved)/float64(counted))
	})
}

func report(b *testing.B, raw, aaak int, coverage float64) {
	b.ReportMetric(float64(raw), "raw_tokens")
	b.ReportMetric(float64(aaak), "aaak_tokens")
	b.ReportMetric(float64(aaak)/float64(raw), "ratio")
	b.ReportMetric(coverage, "coverage")
}
