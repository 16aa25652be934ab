// Command gitleakscmp runs gitleaks (github.com/zricethezav/gitleaks/v8,
// its default rules) over texts for core/secrets' TestCompareGitleaks. It
// is a module of its own so that Palace's go.mod never requires gitleaks
// and its dozens of modules: the test builds it with 'go build' here.
//
// It reads a JSON array of texts on standard input and writes, for each
// text, the list of what gitleaks found in it, and the time detection took.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/rs/zerolog"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
)

// Finding is one secret gitleaks reports: the rule and the secret (or,
// for a rule without a secret group, the whole match).
type Finding struct {
	Rule   string `json:"rule"`
	Secret string `json:"secret"`
}

// Output is what gitleakscmp writes.
type Output struct {
	Findings [][]Finding `json:"findings"`
	Nanos    int64       `json:"nanos"` // time spent in DetectString
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gitleakscmp:", err)
		os.Exit(1)
	}
}

func run() error {
	var texts []string
	if err := json.NewDecoder(os.Stdin).Decode(&texts); err != nil {
		return fmt.Errorf("reading texts: %w", err)
	}
	logging.Logger = logging.Logger.Level(zerolog.Disabled)
	d, err := detect.NewDetectorDefaultConfig()
	if err != nil {
		return err
	}
	out := Output{Findings: make([][]Finding, len(texts))}
	start := time.Now()
	for i, text := range texts {
		fs := []Finding{}
		for _, f := range d.DetectString(text) {
			s := f.Secret
			if s == "" {
				s = f.Match
			}
			fs = append(fs, Finding{Rule: f.RuleID, Secret: s})
		}
		out.Findings[i] = fs
	}
	out.Nanos = time.Since(start).Nanoseconds()
	return json.NewEncoder(os.Stdout).Encode(out)
}
