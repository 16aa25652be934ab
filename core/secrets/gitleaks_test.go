// The comparison of Redact with gitleaks (github.com/zricethezav/gitleaks/v8,
// its default rules) on the same inputs: recall by category on
// testdata/corpus.txt, findings and names of code redacted on a sample of
// Go's own source, and throughput. Palace does not depend on gitleaks:
// gitleaks runs in a program of its own module, gitleakscmp (go.mod there),
// which this test builds, so 'go mod tidy' at the root never adds it.

package secrets

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// gitleaksFinding is one secret gitleaksFindings reports.
type gitleaksFinding struct {
	Rule   string `json:"rule"`
	Secret string `json:"secret"`
}

// gitleaksFindings builds gitleakscmp (in its own module) and runs it over
// texts: what gitleaks finds in each, and the time its detection took.
func gitleaksFindings(t testing.TB, texts []string) ([][]gitleaksFinding, time.Duration) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "gitleakscmp")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = "gitleakscmp"
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build in core/secrets/gitleakscmp: %v\n%s", err, out)
	}
	in, err := json.Marshal(texts)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gitleakscmp: %v\n%s", err, stderr.Bytes())
	}
	var res struct {
		Findings [][]gitleaksFinding `json:"findings"`
		Nanos    int64               `json:"nanos"`
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res.Findings) != len(texts) {
		t.Fatalf("gitleakscmp answered %d results for %d texts: %v", len(res.Findings), len(texts), err)
	}
	return res.Findings, time.Duration(res.Nanos)
}

// gitleaksRedact replaces what gitleaks found in text, as Redact would.
func gitleaksRedact(text string, fs []gitleaksFinding) string {
	for _, f := range fs {
		text = strings.ReplaceAll(text, f.Secret, Marker(f.Rule))
	}
	return text
}

// gitleaksOnly are the corpus lines where gitleaks finds something Palace
// leaves, each with the reason, by a piece of the line's text; every other
// secret gitleaks finds in the corpus, Palace must find too. None today
// (gitleaks v8.30.1): the differences all go the other way, secrets Palace
// finds and gitleaks does not (.netrc, .pgpass, prose, XML, URL passwords,
// mysql -p, Basic and bearer headers), which the test logs.
var gitleaksOnly = map[string]string{}

// requireGo skips the comparison in -short runs (it builds gitleaks and
// scans a quarter of Go's source) and where there is no go command.
func requireGo(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds gitleaks and runs it over the corpus and a part of Go's source")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("no go command: %v", err)
	}
}

// TestCompareGitleaks: every secret gitleaks finds in the corpus, Palace
// finds too (but for the differences gitleaksOnly explains); it logs recall
// by category for both and the code each redacts.
func TestCompareGitleaks(t *testing.T) {
	requireGo(t)
	cases := loadCorpus(t)
	texts := make([]string, len(cases))
	for i, c := range cases {
		texts[i] = c.text
	}
	found, _ := gitleaksFindings(t, texts)
	byText := map[string][]gitleaksFinding{}
	for i, c := range cases {
		byText[c.text] = found[i]
	}
	explained := map[string]bool{}
	differs := func(c corpusCase, format string, args ...any) {
		for piece, reason := range gitleaksOnly {
			if strings.Contains(c.text, piece) {
				explained[piece] = true
				t.Logf("corpus.txt:%d: known difference (%s): %s", c.line, reason, fmt.Sprintf(format, args...))
				return
			}
		}
		t.Errorf("corpus.txt:%d (%s): %s", c.line, c.category, fmt.Sprintf(format, args...))
	}
	gone := func(out string, c corpusCase) bool {
		for _, s := range c.secrets {
			if leaks(out, s) {
				return false
			}
		}
		return true
	}
	for i, c := range cases {
		out := redactText(c.text)
		if c.positive && gone(gitleaksRedact(c.text, found[i]), c) && !gone(out, c) {
			differs(c, "gitleaks finds the secret, Palace leaves it: %q", out)
		}
		for _, f := range found[i] {
			marked := false
			for _, s := range c.secrets {
				marked = marked || leaks(f.Secret, s) || leaks(s, f.Secret)
			}
			if !marked && leaks(out, f.Secret) {
				differs(c, "gitleaks' rule %s finds %q, which the corpus does not mark and Palace leaves", f.Rule, f.Secret)
			}
		}
	}
	for piece := range gitleaksOnly {
		if !explained[piece] {
			t.Errorf("gitleaksOnly explains %q, which no longer differs: take it out", piece)
		}
	}

	p := measureRecall(cases, redactText)
	g := measureRecall(cases, func(s string) string { return gitleaksRedact(s, byText[s]) })
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
	t.Log("\n" + b.String())
}

// TestCompareGitleaksGoSource logs what each finds in a sample of Go's
// source (one file in 4), the names of the code each redacts there, and
// each one's throughput. TestGoSourceNamesSurvive holds Palace to none.
func TestCompareGitleaksGoSource(t *testing.T) {
	requireGo(t)
	_, texts := goSource(t, 4)
	size := 0
	for _, s := range texts {
		size += len(s)
	}
	found, took := gitleaksFindings(t, texts)
	at := map[string]int{}
	for i, s := range texts {
		at[s] = i
	}
	gitleaksDetect := func(text string) []detection {
		var ds []detection
		for _, f := range found[at[text]] {
			if i := strings.Index(text, f.Secret); i >= 0 && f.Secret != "" {
				ds = append(ds, detection{i, i + len(f.Secret), f.Rule})
			}
		}
		return ds
	}
	start := time.Now()
	for _, s := range texts {
		Redact(s)
	}
	mbps := func(d time.Duration) float64 { return float64(size) / 1e6 / d.Seconds() }
	speed := map[string]float64{"palace": mbps(time.Since(start)), "gitleaks": mbps(took)}
	var b strings.Builder
	for _, r := range []struct {
		name   string
		detect func(string) []detection
	}{{"palace", palaceDetect}, {"gitleaks", gitleaksDetect}} {
		byKind, names := goSourceReport(t, r.detect, 4)
		total := 0
		for _, k := range byKind {
			total += k
		}
		fmt.Fprintf(&b, "Go source, %s: %d findings %v; %d names of the code redacted; %.1f MB/s\n", r.name, total, byKind, len(names), speed[r.name])
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
