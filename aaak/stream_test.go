package aaak

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// Defect: `palace compress` wrote one document per room, and Palace's own
// reader rejected the result ("duplicate zettel id 0", "unrecognised
// line"). A stream of documents is now part of the dialect.
func TestParseStream(t *testing.T) {
	const a = "V1|proj|decisions|2026-04-09|a.md\n0:ALI|sqlite|\"We chose SQLite.\"|★★★★|determ|DECISION\n1:UNK|note|\"Later.\"|★★|determ|CORE\nT:0<->1|follows"
	const b = "V1|proj|bugs|2026-04-10|b.md\n0:BOB|login|\"The login test fails.\"|★★|anx|CORE\nARC:anx->relief"
	docs, err := ParseStream(a + StreamSeparator + b)
	if err != nil {
		t.Fatal(err)
	}
	one, _ := Parse(a)
	two, _ := Parse(b)
	if len(docs) != 2 || !docs[0].Equal(one) || !docs[1].Equal(two) {
		t.Fatalf("ParseStream read %d documents: %v", len(docs), docs)
	}
	if got := PrintStream(docs); got != a+StreamSeparator+b {
		t.Errorf("PrintStream:\n%s", got)
	}
	// No blank line is needed between documents; CRLF reads the same.
	if docs, err := ParseStream(a + "\r\n" + b); err != nil || len(docs) != 2 {
		t.Errorf("documents without a blank line between them: %d, %v", len(docs), err)
	}
	// A stream of one document is that document.
	if docs, err := ParseStream(a); err != nil || len(docs) != 1 || !docs[0].Equal(one) {
		t.Errorf("one document: %v, %v", docs, err)
	}
	// Parse reads one document and says what a second header means.
	if _, err := Parse(a + StreamSeparator + b); !hasError(err, 6, 1, RuleHeader) {
		t.Errorf("Parse of a stream: %v, want a header error at 6:1", err)
	}
}

func TestParseStreamErrors(t *testing.T) {
	const h1, h2 = "V1|w|r1|d|s\n", "V1|w|r2|d|s\n"
	const z = "0:ALI|t|\"q\"|★|joy|CORE"
	for _, tc := range []struct {
		name, src string
		line, col int
		rule      string
	}{
		{"empty", "", 1, 1, RuleHeader},
		{"no header", z + "\n" + h2 + z, 1, 1, RuleHeader},
		{"second document without body", h1 + z + "\n" + h2, 4, 1, RuleBody},
		{"duplicate id within the second", h1 + z + "\n" + h2 + z + "\n" + z, 5, 1, RuleDuplicate},
		// Tunnels resolve within their own document.
		{"tunnel to the other document", h1 + z + "\n" + h2 + "1:ALI|t|\"q\"|★|joy|CORE\nT:1<->0|x", 5, 7, RuleEndpoint},
		{"bad version in the second", h1 + z + "\nV2|w|r|d|s\n" + z, 3, 2, RuleVersion},
	} {
		_, err := ParseStream(tc.src)
		if !hasError(err, tc.line, tc.col, tc.rule) {
			t.Errorf("%s: %v, want %s at %d:%d", tc.name, err, tc.rule, tc.line, tc.col)
		}
	}
	// Ids may repeat across documents.
	if _, err := ParseStream(h1 + z + "\n" + h2 + z); err != nil {
		t.Errorf("the same id in two documents: %v", err)
	}
}

func hasError(err error, line, col int, rule string) bool {
	var es Errors
	if !errors.As(err, &es) {
		return false
	}
	return slices.ContainsFunc(es, func(e *ParseError) bool { return e.Line == line && e.Col == col && e.Rule == rule })
}

// TestPrintParseStreamProperty: every stream of valid documents survives
// PrintStream then ParseStream.
func TestPrintParseStreamProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 500 {
		docs := make([]*Document, 1+r.IntN(4))
		for k := range docs {
			docs[k] = genDoc(r)
		}
		back, err := ParseStream(PrintStream(docs))
		if err != nil || !slices.EqualFunc(back, docs, (*Document).Equal) {
			t.Fatalf("case %d: stream round trip failed: %v\n%s", i, err, PrintStream(docs))
		}
	}
}
