package extract

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/cjk"
)

var update = flag.Bool("update", false, "rewrite the .want files of testdata/drawers")

// readDrawer reads a drawer fixture: "# we: ", "# speaker: " and "# time: "
// header lines, then the drawer's text.
func readDrawer(t *testing.T, path string) Drawer {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := Drawer{ID: strings.TrimSuffix(filepath.Base(path), ".txt")}
	lines := strings.Split(string(b), "\n")
	for len(lines) > 0 {
		k, v, ok := strings.Cut(strings.TrimPrefix(lines[0], "# "), ": ")
		if !strings.HasPrefix(lines[0], "# ") || !ok {
			break
		}
		switch k {
		case "we":
			d.We = v
		case "speaker":
			d.Speaker = v
		case "time":
			if d.Time, err = time.Parse(time.RFC3339, v); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("%s: unknown header %q", path, k)
		}
		lines = lines[1:]
	}
	d.Text = strings.Join(lines, "\n")
	return d
}

// render writes proposals as the .want files hold them: one a line,
// subject, predicate, object, replaces, confidence, valid_from and the
// sentence, tab-separated.
func render(ps []Proposal) string {
	var b strings.Builder
	b.WriteString("# subject\tpredicate\tobject\treplaces\tconfidence\tvalid_from\tsentence\n")
	for _, p := range ps {
		from := ""
		if !p.ValidFrom.IsZero() {
			from = p.ValidFrom.Format(time.DateOnly)
		}
		fmt.Fprintf(&b, "%s\t%s\t%s\t%s\t%.2f\t%s\t%s\n", p.Subject, p.Predicate, p.Object, p.Replaces, p.Confidence, from, p.Sentence)
	}
	return b.String()
}

// TestDrawers extracts each testdata/drawers/*.txt and compares the
// proposals with its .want file.
func TestDrawers(t *testing.T) {
	seg := cjk.New(t.TempDir())
	defer seg.Close()
	e := New(seg)
	paths, err := filepath.Glob("testdata/drawers/*.txt")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			d := readDrawer(t, path)
			ps, err := e.Extract(d, DefaultMinConfidence)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps {
				if p.Drawer != d.ID {
					t.Errorf("proposal %+v names drawer %q, want %q", p, p.Drawer, d.ID)
				}
			}
			got := render(ps)
			want := strings.TrimSuffix(path, ".txt") + ".want"
			if *update {
				if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			b, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(b) {
				t.Errorf("proposals of %s:\n%s\nwant (%s):\n%s", path, got, want, b)
			}
		})
	}
}

// TestHedgesScoreBelowTheDefault: a doubt, a plan or a suggestion is kept
// at a low confidence (visible to a caller asking for everything), never
// at the default; a question or a negation proposes nothing at all.
func TestHedgesScoreBelowTheDefault(t *testing.T) {
	e := New(nil)
	for _, tc := range []struct {
		text string
		none bool // nothing at any confidence
	}{
		{text: "Maybe we should use SQLite for the local cache."},
		{text: "Kai suggested we use Postgres."},
		{text: "Tomás will work on the search ranking next quarter."},
		{text: "I think Dana owns the billing alerts."},
		{text: "Does Orion use Redis for caching?", none: true},
		{text: "We don't use Kafka for the audit trail.", none: true},
		{text: "Atlas never uses Elasticsearch.", none: true},
		{text: "We decided against MongoDB.", none: true},
	} {
		ps, err := e.Extract(Drawer{ID: "d", Text: "Kai: " + tc.text, We: "orion"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if tc.none && len(ps) > 0 {
			t.Errorf("%q proposed %+v, want nothing", tc.text, ps)
		}
		if !tc.none && len(ps) == 0 {
			t.Errorf("%q proposed nothing at confidence 0, want a low-confidence proposal", tc.text)
		}
		for _, p := range ps {
			if p.Confidence >= DefaultMinConfidence {
				t.Errorf("%q: %s %s %s at %.2f, want below %.2f", tc.text, p.Subject, p.Predicate, p.Object, p.Confidence, DefaultMinConfidence)
			}
		}
	}
}

// TestChineseWithoutTagger: an extractor without a tagger skips Chinese
// sentences and still reads the English ones.
func TestChineseWithoutTagger(t *testing.T) {
	ps, err := New(nil).Extract(Drawer{ID: "d", Text: "李娜负责计费服务。Kai works on Orion."}, DefaultMinConfidence)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || ps[0].Subject != "Kai" {
		t.Errorf("got %+v, want only Kai works_on Orion", ps)
	}
}

func TestUnits(t *testing.T) {
	text := "Kai: Hi. I use Vim! Fly.io works, e.g. for demos.\n" +
		"still Kai, wrapped\n\n" +
		"> quoted user line. Second one\n" +
		"Note: this is not a speaker\n" +
		"assistant: I'd rather not.\n" +
		"```\nDana: inside a fence\n```\n" +
		"- a bullet\n- another 中文句子。第二句？"
	got := units(text, "agent")
	want := []unit{
		{"Hi.", "Kai"}, {"I use Vim!", "Kai"}, {"Fly.io works, e.g. for demos.", "Kai"}, {"still Kai, wrapped", "Kai"},
		{"quoted user line.", ""}, {"Second one Note: this is not a speaker", ""},
		{"I'd rather not.", ""},
		{"a bullet", ""}, {"another 中文句子。", ""}, {"第二句？", ""},
	}
	if !slices.Equal(got, want) {
		t.Errorf("units:\n got %q\nwant %q", got, want)
	}
	if got := units("I own the checklist.", "claude-code"); len(got) != 1 || got[0].speaker != "claude-code" {
		t.Errorf("a diary's lines are its agent's: %q", got)
	}
}

// FuzzExtract: any text (English; Chinese needs the tagger) proposes
// without panicking, every proposal naming a subject and an object taken
// from the text or the drawer's context.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{"Kai works on Orion.", "We moved from MySQL to Postgres", "Dana and I own the runbooks",
		"The payments API is owned by", "I'd rather", "'s's", "a.b.c. d", "```\nx\n",
		"We moved it off", "Maya moved the billing service from MySQL to", "handed over to", "The deadline for is",
		"X's deadline is", "We have to ship by", "was replaced by", "swapped out for", "upgraded Go to 1.26 on the"} {
		f.Add(s)
	}
	e := New(nil)
	f.Fuzz(func(t *testing.T, text string) {
		ps, err := e.Extract(Drawer{ID: "d", Text: text, Speaker: "Kai", We: "orion"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			if p.Subject == "" || p.Object == "" || p.Predicate == "" || p.Sentence == "" {
				t.Fatalf("incomplete proposal %+v", p)
			}
		}
	})
}
