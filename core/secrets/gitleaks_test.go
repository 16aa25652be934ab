//go:build gitleaks

// The comparison of Redact with gitleaks (github.com/zricethezav/gitleaks/v8,
// its default rules) on the same corpus: recall by category on
// testdata/corpus.txt, findings and names redacted on a sample of Go's own
// source, and throughput. Palace does not depend on gitleaks: this file
// builds only with the tag, and scripts/secrets-vs-gitleaks.sh runs it
// with gitleaks added to a copy of go.mod. 'go mod tidy' reads every
// file whatever its tags and would add gitleaks to go.mod:
// TestGoModLeavesGitleaksOut says so.

package secrets

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
	"github.com/zricethezav/gitleaks/v8/report"
)

func gitleaksDetector(t testing.TB) *detect.Detector {
	t.Helper()
	logging.Logger = logging.Logger.Level(zerolog.Disabled)
	d, err := detect.NewDetectorDefaultConfig()
	if err != nil {
		t.Fatalf("gitleaks: %v", err)
	}
	return d
}

// leaked is what gitleaks reports as the secret of a finding.
func leaked(f report.Finding) string {
	if f.Secret != "" {
		return f.Secret
	}
	return f.Match
}

// gitleaksRedact replaces what gitleaks finds in text, as Redact would.
func gitleaksRedact(d *detect.Detector) func(string) string {
	return func(text string) string {
		for _, f := range d.DetectString(text) {
			text = strings.ReplaceAll(text, leaked(f), Marker(f.RuleID))
		}
		return text
	}
}

// gitleaksDetect gives gitleaks' findings as spans (at the first place
// each secret occurs: enough to read what was found).
func gitleaksDetect(d *detect.Detector) func(string) []detection {
	return func(text string) []detection {
		var ds []detection
		for _, f := range d.DetectString(text) {
			if i := strings.Index(text, leaked(f)); i >= 0 {
				ds = append(ds, detection{i, i + len(leaked(f)), f.RuleID})
			}
		}
		return ds
	}
}

// TestCompareGitleaks prints recall by category for both detectors, the
// code they redact in the corpus, and what they find in a sample of Go's
// source (one file in 4), with the names of the code they redact there.
func TestCompareGitleaks(t *testing.T) {
	cases := loadCorpus(t)
	d := gitleaksDetector(t)
	p, g := measureRecall(cases, redactText), measureRecall(cases, gitleaksRedact(d))
	var cats []string
	for c := range p.total {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	var b strings.Builder
	fmt.Fprintf(&b, "%-20s %8s %8s\n", "category", "palace", "gitleaks")
	var pc, gc, n int
	for _, c := range cats {
		fmt.Fprintf(&b, "%-20s %4d/%-3d %4d/%-3d\n", c, p.caught[c], p.total[c], g.caught[c], p.total[c])
		pc, gc, n = pc+p.caught[c], gc+g.caught[c], n+p.total[c]
	}
	fmt.Fprintf(&b, "%-20s %4d/%-3d %4d/%-3d\n", "all", pc, n, gc, n)
	fmt.Fprintf(&b, "code changed in the corpus: palace %d, gitleaks %d\n", len(p.falsePos), len(g.falsePos))
	for _, fp := range g.falsePos {
		fmt.Fprintf(&b, "  gitleaks: corpus.txt:%s\n", fp)
	}
	for _, r := range []struct {
		name   string
		detect func(string) []detection
	}{{"palace", palaceDetect}, {"gitleaks", gitleaksDetect(d)}} {
		byKind, names := goSourceReport(t, r.detect, 4)
		total := 0
		for _, k := range byKind {
			total += k
		}
		fmt.Fprintf(&b, "Go source, %s: %d findings %v; %d names of the code redacted\n", r.name, total, byKind, len(names))
		for i, n := range names {
			if i == 10 {
				fmt.Fprintf(&b, "  ...\n")
				break
			}
			fmt.Fprintf(&b, "  %s\n", n)
		}
	}
	t.Log("\n" + b.String())
}

// BenchmarkGitleaksGoSource is BenchmarkRedactGoSource for gitleaks.
func BenchmarkGitleaksGoSource(b *testing.B) {
	d := gitleaksDetector(b)
	_, texts := goSource(b, 4)
	var size int64
	for _, s := range texts {
		size += int64(len(s))
	}
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		for _, s := range texts {
			d.DetectString(s)
		}
	}
}
