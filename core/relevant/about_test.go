package relevant

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

// TestFindSaysWhatItIsAbout: about names the identifier, else the
// enclosing function, else the place; empty explains a panel with no hits.
func TestFindSaysWhatItIsAbout(t *testing.T) {
	p := palacetest.OpenPalace(t)
	doc := "package upload\n\nfunc verifyUpload(data []byte) error {\n\tgot := computeChecksum(data)\n\n\treturn nil\n}\n\n\n"
	put(t, p, "proj", store.KindFile, "/proj/upload/upload.go", 1, doc)
	ctx := context.Background()
	find := func(line, col int) Result {
		t.Helper()
		pos := Position{Line: line, Col: col}
		res, err := Find(ctx, p, Request{Path: "/proj/upload/upload.go", Root: "/proj", Text: doc, Start: pos, End: pos, Wing: "proj"})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	// The cursor on computeChecksum, whose only drawer is the one on
	// screen: nothing else mentions it.
	res := find(3, 10)
	if res.About != "computeChecksum" || len(res.Hits) != 0 {
		t.Fatalf("about = %q, hits %d", res.About, len(res.Hits))
	}
	if want := "Nothing in the palace mentions computeChecksum outside the lines on screen."; res.Empty != want {
		t.Errorf("empty = %q, want %q", res.Empty, want)
	}
	// On a blank line inside the function: the function.
	if res := find(4, 0); res.About != "verifyUpload" {
		t.Errorf("blank line in a function: about = %q (clues %+v)", res.About, res.Clues)
	}
	// Below the function: the place itself.
	if res := find(8, 0); res.About != "upload/upload.go:9" {
		t.Errorf("below the function: about = %q", res.About)
	}
	// Nothing at all to search for: the place, in the sentence too.
	blank, err := Find(ctx, p, Request{Path: "/proj/a.txt", Root: "/proj", Text: "\n\n\n", Start: Position{2, 0}, End: Position{2, 0}})
	if err != nil || blank.About != "a.txt:3" || !strings.HasPrefix(blank.Empty, "Nothing to search for at a.txt:3") {
		t.Errorf("blank text: about = %q, empty = %q, %v", blank.About, blank.Empty, err)
	}
	// A hit found: empty is "".
	put(t, p, "proj", store.KindNote, "note", 0, "computeChecksum is CRC-32C")
	if res := find(3, 10); len(res.Hits) != 1 || res.Empty != "" {
		t.Errorf("with a hit: %d hits, empty %q", len(res.Hits), res.Empty)
	}
}

func TestFindInAnEmptyPalaceSaysSo(t *testing.T) {
	p := palacetest.OpenPalace(t)
	doc := "func verifyUpload() {}\n"
	res, err := Find(context.Background(), p, Request{Path: "/proj/a.go", Root: "/proj", Text: doc, Start: Position{0, 8}, End: Position{0, 8}})
	if err != nil || !strings.Contains(res.Empty, "no drawers yet") {
		t.Errorf("empty palace: empty = %q, %v", res.Empty, err)
	}
}

// TestRelevantSnippetsAreLonger: a hit's snippet is about SnippetRunes of
// its drawer around the strongest clue, on word boundaries, the clues
// marked; FTS5's 24 tokens of code were about a line.
func TestRelevantSnippetsAreLonger(t *testing.T) {
	p := palacetest.OpenPalace(t)
	var b strings.Builder
	for i := 0; i < 30; i++ {
		b.WriteString("// filler words before the interesting part of this drawer\n")
	}
	b.WriteString("func refund(order Order) error {\n\tif err := ledger.reverse(order.ID); err != nil {\n\t\treturn fmt.Errorf(\"refund %s: %w\", order.ID, err)\n\t}\n\treturn notifyCustomer(order)\n}\n")
	for i := 0; i < 30; i++ {
		b.WriteString("// filler words after the interesting part of this drawer\n")
	}
	put(t, p, "proj", store.KindFile, "/proj/billing/refund.go", 1, b.String())
	doc := "func settle() {\n\tnotifyCustomer(o)\n}\n"
	res, err := Find(context.Background(), p, Request{Path: "/proj/billing/settle.go", Root: "/proj", Text: doc,
		Start: Position{1, 3}, End: Position{1, 3}, Wing: "proj"})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("hits %d, %v", len(res.Hits), err)
	}
	snip := res.Hits[0].Snippet
	n := utf8.RuneCountInString(snip)
	if n < SnippetRunes-30 || n > SnippetRunes+10 {
		t.Errorf("snippet of %d runes, want about %d: %q", n, SnippetRunes, snip)
	}
	if !strings.Contains(snip, store.MarkStart+"notifyCustomer"+store.MarkEnd) {
		t.Errorf("the clue is not marked: %q", snip)
	}
	if !strings.Contains(snip, "fmt.Errorf") {
		t.Errorf("the snippet does not reach the lines before the clue: %q", snip)
	}
	if !strings.HasPrefix(snip, "…") || !strings.HasSuffix(snip, "…") || strings.Contains(snip, "\n") {
		t.Errorf("want one line cut at both ends: %q", snip)
	}
	words := strings.Fields(strings.Trim(snip, "…"))
	for _, w := range []string{words[0], words[len(words)-1]} {
		if !strings.Contains(b.String(), " "+w) && !strings.Contains(b.String(), "\t"+w) && !strings.Contains(b.String(), "\n"+w) {
			t.Errorf("%q is no whole word of the drawer: %q", w, snip)
		}
	}
}
