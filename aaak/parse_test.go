package aaak

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestParseValid(t *testing.T) {
	// CRLF, blank lines, a leading-zero id, an empty topic item, a tunnel
	// that names a later zettel, and a label containing '|' are all V1.
	src := "\r\n" +
		"V1|palace|decisions|2026-04-09|notes.md\r\n" +
		"T:0<->7|follows up | details\r\n" +
		"\r\n" +
		"0:ALI+SQL|sqlite__fts5|\"We chose \"SQLite\".\"|★★★★|determ+anx|DECISION+TECHNICAL\r\n" +
		"   \r\n" +
		"007:UNK|note|\"\"|★|joy|CORE\r\n" +
		"ARC:anx->relief"
	doc, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	want := &Document{
		Header: Header{Version: 1, Wing: "palace", Room: "decisions", Date: "2026-04-09", Source: "notes.md"},
		Zettels: []Zettel{
			{ID: 0, Entities: []string{"ALI", "SQL"}, Topics: []string{"sqlite", "fts5"},
				Quote: `We chose "SQLite".`, Stars: 4, Emotions: []string{"determ", "anx"},
				Flags: []Flag{FlagDecision, FlagTechnical}},
			{ID: 7, Entities: []string{"UNK"}, Topics: []string{"note"}, Quote: "", Stars: 1,
				Emotions: []string{"joy"}, Flags: []Flag{FlagCore}},
		},
		Tunnels: []Tunnel{{From: 0, To: 7, Label: "follows up | details"}},
		Arcs:    []Arc{{Emotions: []string{"anx", "relief"}}},
	}
	if !doc.Equal(want) {
		t.Fatalf("got\n%#v\nwant\n%#v", doc, want)
	}
}

// TestParseMempalOutput reads a line as mempal's encoder writes it: the
// whole text as the quote, no final newline.
func TestParseMempalOutput(t *testing.T) {
	src := "V1|code|auth|2026-04-08|src/auth.rs\n" +
		"0:JWT+RED|decided_use_jwt|\"Decided to use JWT tokens because Redis sessions were too slow\"|★★★★|determ|DECISION+TECHNICAL"
	doc, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if got := Print(doc); got != src {
		t.Errorf("mempal output does not print back byte for byte:\n%s", got)
	}
}

func TestParseErrors(t *testing.T) {
	const h = "V1|w|r|d|s\n"
	const z = `0:ALI|t|"q"|★|joy|CORE`
	tests := []struct {
		name, src string
		line, col int
		rule      string
	}{
		{"empty document", "", 1, 1, RuleHeader},
		{"only blank lines", "\n  \n", 1, 1, RuleHeader},
		{"no header", z, 1, 1, RuleHeader},
		{"header after blank lines", "\n\n" + z, 3, 1, RuleHeader},
		{"four header fields", "V1|w|r|d\n" + z, 1, 9, RuleHeader},
		{"version letters", "Vx|w|r|d|s\n" + z, 1, 2, RuleVersion},
		{"version empty", "V|w|r|d|s\n" + z, 1, 2, RuleVersion},
		{"version 2", "V2|w|r|d|s\n" + z, 1, 2, RuleVersion},
		{"version overflow", "V99999999999|w|r|d|s\n" + z, 1, 2, RuleVersion},
		{"header only", "V1|w|r|d|s", 2, 1, RuleBody},
		{"unknown line", h + z + "\nhello", 3, 1, RuleBody},
		{"invalid utf-8 after multibyte", h + "0:ALI|★\xff", 2, 8, RuleEncoding},
		{"stray CR", h + "0:ALI|t|\"q\r\"|★|joy|CORE", 2, 11, RuleEncoding},
		{"id not a number", h + `-1:ALI|t|"q"|★|joy|CORE`, 2, 1, RuleZettel},
		{"id empty", h + `:ALI|t|"q"|★|joy|CORE`, 2, 1, RuleZettel},
		{"id overflow", h + `18446744073709551616:ALI|t|"q"|★|joy|CORE`, 2, 1, RuleZettel},
		{"five fields", h + `0:ALI|t|"q"|★|joy`, 2, 18, RuleZettel},
		{"seven fields", h + `0:ALI|t|"q"|★|joy|CORE|x`, 2, 23, RuleZettel},
		{"quote with pipe", h + `0:ALI|t|"a|b"|★|joy|CORE`, 2, 20, RuleZettel},
		{"entity two letters", h + `0:AL|t|"q"|★|joy|CORE`, 2, 3, RuleEntity},
		{"entity lower", h + `0:ALI+bob|t|"q"|★|joy|CORE`, 2, 7, RuleEntity},
		{"entity non-ascii", h + `0:ÄLI|t|"q"|★|joy|CORE`, 2, 3, RuleEntity},
		{"entities empty", h + `0:|t|"q"|★|joy|CORE`, 2, 3, RuleEntity},
		{"no topic", h + `0:ALI||"q"|★|joy|CORE`, 2, 7, RuleTopic},
		{"quote unquoted", h + `0:ALI|t|q|★|joy|CORE`, 2, 9, RuleQuote},
		{"quote single mark", h + `0:ALI|t|"|★|joy|CORE`, 2, 10, RuleQuote},
		{"quote empty field", h + `0:ALI|t||★|joy|CORE`, 2, 9, RuleQuote},
		{"stars ascii", h + `0:ALI|t|"q"|***|joy|CORE`, 2, 13, RuleStars},
		{"stars white", h + `0:ALI|t|"q"|★☆|joy|CORE`, 2, 14, RuleStars},
		{"stars six", h + `0:ALI|t|"q"|★★★★★★|joy|CORE`, 2, 18, RuleStars},
		{"emotion short", h + `0:ALI|t|"q"|★|jo|CORE`, 2, 15, RuleEmotion},
		{"emotion upper", h + `0:ALI|t|"q"|★|joy+Fear|CORE`, 2, 19, RuleEmotion},
		{"emotion eight", h + `0:ALI|t|"q"|★|surprise|CORE`, 2, 15, RuleEmotion},
		{"flag lower", h + `0:ALI|t|"q"|★|joy|core`, 2, 19, RuleFlag},
		{"flag genesis", h + `0:ALI|t|"q"|★|joy|CORE+GENESIS`, 2, 24, RuleFlag},
		{"flags empty", h + `0:ALI|t|"q"|★|joy|`, 2, 19, RuleFlag},
		{"tunnel no arrow", h + z + "\nT:0-0|x", 3, 3, RuleTunnel},
		{"tunnel no bar", h + z + "\nT:0<->0", 3, 8, RuleTunnel},
		{"tunnel bad start", h + z + "\nT:x<->0|l", 3, 3, RuleTunnel},
		{"tunnel bad end", h + z + "\nT:0<->y|l", 3, 7, RuleTunnel},
		{"tunnel blank label", h + z + "\nT:0<->0|\t ", 3, 9, RuleTunnel},
		{"tunnel empty label", h + z + "\nT:0<->0|", 3, 9, RuleTunnel},
		{"arc empty", h + z + "\nARC:", 3, 5, RuleArc},
		{"arc dangling arrow", h + z + "\nARC:joy->", 3, 10, RuleArc},
		{"arc bad code", h + z + "\nARC:joy->fear->Hope", 3, 16, RuleArc},
		{"duplicate id", h + z + "\n00:BOB|t|\"q\"|★|joy|CORE", 3, 1, RuleDuplicate},
		{"missing start", h + z + "\nT:5<->0|l", 3, 3, RuleEndpoint},
		{"missing end", h + z + "\nT:0<->12|l", 3, 7, RuleEndpoint},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Parse(tc.src)
			if doc != nil {
				t.Errorf("got a document with an error")
			}
			pe := onlyError(t, err)
			if pe.Line != tc.line || pe.Col != tc.col || pe.Rule != tc.rule {
				t.Errorf("got %d:%d %s (%s), want %d:%d %s", pe.Line, pe.Col, pe.Rule, pe.Reason, tc.line, tc.col, tc.rule)
			}
		})
	}
}

// onlyError asserts err is Errors with exactly one element.
func onlyError(t *testing.T, err error) *ParseError {
	t.Helper()
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("error %v (%T) is not Errors", err, err)
	}
	if len(es) != 1 {
		t.Fatalf("got %d errors, want 1:\n%v", len(es), err)
	}
	return es[0]
}

var badName = regexp.MustCompile(`^([a-z]+)_[a-z0-9]+\.L(\d+)C(\d+)\.aaak$`)

// TestParseBadFixtures reads testdata/bad/RULE_WHAT.L<line>C<col>.aaak:
// each holds exactly one error, of that rule, at that position.
func TestParseBadFixtures(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "bad", "*.aaak"))
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]bool{}
	for _, p := range paths {
		t.Run(filepath.Base(p), func(t *testing.T) {
			m := badName.FindStringSubmatch(filepath.Base(p))
			if m == nil {
				t.Fatalf("file name does not match %s", badName)
			}
			line, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			rules[m[1]] = true
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Parse(string(src))
			pe := onlyError(t, err)
			if pe.Rule != m[1] || pe.Line != line || pe.Col != col {
				t.Errorf("got %d:%d %s (%s), want %d:%d %s", pe.Line, pe.Col, pe.Rule, pe.Reason, line, col, m[1])
			}
		})
	}
	// Every rule a parser can break has a fixture.
	for _, r := range []string{RuleHeader, RuleVersion, RuleBody, RuleEncoding, RuleZettel, RuleEntity,
		RuleTopic, RuleQuote, RuleStars, RuleEmotion, RuleFlag, RuleTunnel, RuleArc, RuleDuplicate, RuleEndpoint} {
		if !rules[r] {
			t.Errorf("no bad fixture for rule %q", r)
		}
	}
}

// TestParseCollectsErrors: independent lines and fields are all reported,
// sorted by position.
func TestParseCollectsErrors(t *testing.T) {
	src := "V1|w|r|d|s\n" +
		"0:AL|t|\"q\"|★★★★★★|Joy|NOPE\n" +
		"T:0<->3|ok\n" +
		"1:ALI|t|\"q\"|★|joy|CORE\n" +
		"ARC:x\n" +
		"0:bob|t|\"q\"|★|joy|CORE"
	_, err := Parse(src)
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("got %v", err)
	}
	var got []string
	for _, e := range es {
		got = append(got, strconv.Itoa(e.Line)+":"+strconv.Itoa(e.Col)+":"+e.Rule)
	}
	// The last line's id still counts for the duplicate check though its
	// entity is bad.
	want := "2:3:entity 2:17:stars 2:19:emotion 2:23:flag 3:7:endpoint 5:5:arc 6:1:duplicate 6:3:entity"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Rule != RuleEntity {
		t.Errorf("errors.As(*ParseError) = %v", pe)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "aaak: 8 errors:\n\t2:3: entity code \"AL\"") {
		t.Errorf("message %q", msg)
	}
}

// TestParseBOMBeforeBody is the first FuzzParse crash (a byte order mark
// before a line that is not a header), kept as a readable regression test.
func TestParseBOMBeforeBody(t *testing.T) {
	_, err := Parse("\ufeff||||")
	var es Errors
	if !errors.As(err, &es) || es[0].Line != 1 || es[0].Col != 1 || es[0].Rule != RuleHeader {
		t.Fatalf("got %v", err)
	}
}

func TestParseReader(t *testing.T) {
	doc, err := ParseReader(strings.NewReader("V1|w|r|d|s\nARC:joy"))
	if err != nil || len(doc.Arcs) != 1 {
		t.Fatalf("got %v, %v", doc, err)
	}
	_, err = ParseReader(errReader{})
	if err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("read error not passed on: %v", err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("boom") }
