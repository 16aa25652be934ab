package extract

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// The engineering-talk set (see talk_test.go for how it was written) is
// scored here rather than in the test alone, so that `palace bench loop`
// reports the same precision and recall the test holds to its targets.
// Only the held-back part is embedded: it is the part the targets are
// about, and about 12 KB.

//go:embed testdata/talk_heldback.jsonl
var heldBackTalk []byte

// TalkLine is one labelled sentence: who said it, who "we" is, and the
// facts a careful reader takes from it. A fact is [subject, predicate,
// object] or, for a move, [subject, predicate, object, replaced]; Ends are
// the facts it takes back; Below, when set, is a confidence every
// proposal of the line must stay under.
type TalkLine struct {
	Speaker string     `json:"speaker"`
	We      string     `json:"we"`
	Text    string     `json:"text"`
	Facts   [][]string `json:"facts"`
	Ends    [][]string `json:"ends"`
	Below   float64    `json:"below"`
}

// TalkScore counts the matches of proposals against the labels.
type TalkScore struct {
	Sentences int `json:"sentences"`
	TP        int `json:"tp"`
	FP        int `json:"fp"`
	FN        int `json:"fn"`
}

// Precision is TP / (TP + FP); 1 when nothing was proposed.
func (s TalkScore) Precision() float64 {
	if s.TP+s.FP == 0 {
		return 1
	}
	return float64(s.TP) / float64(s.TP+s.FP)
}

// Recall is TP / (TP + FN); 1 when nothing was to be found.
func (s TalkScore) Recall() float64 {
	if s.TP+s.FN == 0 {
		return 1
	}
	return float64(s.TP) / float64(s.TP+s.FN)
}

// HeldBackTalk is the held-back part of the set, the one no rule was
// tuned on.
func HeldBackTalk() ([]TalkLine, error) {
	return ReadTalk(bytes.NewReader(heldBackTalk))
}

// ReadTalk reads a labelled set, one JSON object per line; a fact of
// other than 3 or 4 fields is an error naming its line.
func ReadTalk(r io.Reader) ([]TalkLine, error) {
	var out []TalkLine
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l TalkLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("line %d: %w", len(out)+1, err)
		}
		for _, fs := range [][][]string{l.Facts, l.Ends} {
			for _, f := range fs {
				if len(f) != 3 && len(f) != 4 {
					return nil, fmt.Errorf("line %d: fact %q has %d fields, want 3 or 4", len(out)+1, f, len(f))
				}
			}
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the labelled set: %w", err)
	}
	return out, nil
}

// talkKey names a fact with what it ends or replaces, so a move proposed
// without the object it replaces counts as a mistake.
func talkKey(ends bool, s, p, o, replaces string) string {
	k := key(s) + " " + p + " " + key(o)
	if replaces != "" {
		k += " replacing " + key(replaces)
	}
	if ends {
		k = "end " + k
	}
	return k
}

// ScoreTalk extracts each line as a transcript line of its speaker, at
// DefaultMinConfidence, and counts the matches; mistakes lists, per line,
// what was proposed wrongly (+) and what was missed (-).
func ScoreTalk(e *Extractor, lines []TalkLine) (sc TalkScore, mistakes []string, err error) {
	for i, l := range lines {
		ps, err := e.Extract(Drawer{ID: "d", Text: l.Speaker + ": " + l.Text, We: l.We}, DefaultMinConfidence)
		if err != nil {
			return sc, mistakes, fmt.Errorf("line %d: %w", i+1, err)
		}
		want := map[string]bool{}
		for _, fs := range []struct {
			ends bool
			fs   [][]string
		}{{false, l.Facts}, {true, l.Ends}} {
			for _, f := range fs.fs {
				want[talkKey(fs.ends, f[0], f[1], f[2], strings.Join(f[3:], ""))] = true
			}
		}
		// got: the proposals, true for those too sure for the line (a
		// reported claim at the confidence of a plain one), which count
		// as wrong.
		got := map[string]bool{}
		for _, p := range ps {
			k := talkKey(p.Ends, p.Subject, p.Predicate, p.Object, p.Replaces)
			got[k] = got[k] || (l.Below > 0 && p.Confidence >= l.Below)
		}
		sc.Sentences++
		var wrong []string
		for k, tooSure := range got {
			switch {
			case tooSure:
				sc.FP++
				wrong = append(wrong, fmt.Sprintf("+%s (want below %.2f)", k, l.Below))
			case want[k]:
				sc.TP++
			default:
				sc.FP++
				wrong = append(wrong, "+"+k)
			}
		}
		for k := range want {
			if _, ok := got[k]; !ok {
				sc.FN++
				wrong = append(wrong, "-"+k)
			}
		}
		if len(wrong) > 0 {
			slices.Sort(wrong)
			mistakes = append(mistakes, fmt.Sprintf("line %d %q: %s", i+1, l.Text, strings.Join(wrong, ", ")))
		}
	}
	return sc, mistakes, nil
}
