package mine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/chunk"
)

// TestMineCodeFiles: a source file is cut at its definitions, each drawer
// saying in its metadata what it defines and references; a broken one is
// cut by lines and counted; a re-mine of a changed tree gives the same
// drawers for the files that did not change.
func TestMineCodeFiles(t *testing.T) {
	ctx := context.Background()
	p := openPalace(t)
	long := "\t_ = strings.Repeat(\"x\", 1) // filler to pass the size limit\n"
	good := "package x\n\nimport \"strings\"\n\n// Alpha is the first.\nfunc Alpha() {\n" + strings.Repeat(long, 4) + "}\n\n// Beta calls Alpha.\nfunc Beta() {\n" + strings.Repeat(long, 4) + "\tAlpha()\n}\n"
	root := tree(t, map[string]string{
		"good.go":   good,
		"broken.go": "package x\n\nfunc f() {\n}\n}}} ))) func {{\n",
		"notes.txt": "func Gamma() {}\n",
	})
	o := Options{Wing: "w", Chunk: chunk.Options{Size: 400}}
	sum, err := Run(ctx, p, root, o)
	if err != nil {
		t.Fatal(err)
	}
	if sum.ParseFallbacks != 1 {
		t.Errorf("parse fallbacks %d, want 1 (broken.go)", sum.ParseFallbacks)
	}
	var got []string
	ids := map[string]bool{}
	for _, d := range drawers(t, p.Store, "w") {
		ids[d.ID] = true
		if !strings.HasSuffix(d.Source, "good.go") {
			if d.Metadata != "{}" && d.Metadata != "" {
				t.Errorf("%s: metadata %s, want none", d.Source, d.Metadata)
			}
			continue
		}
		var m fileMeta
		if err := json.Unmarshal([]byte(d.Metadata), &m); err != nil {
			t.Fatalf("metadata %q: %v", d.Metadata, err)
		}
		line := m.Lang
		for _, s := range m.Defines {
			line += " " + s.Name + ":" + s.Kind
		}
		got = append(got, line+" refs "+strings.Join(m.Refs, ","))
		if d.LineStart == 0 || !strings.HasPrefix(good[strings.Index(good, d.Content):], d.Content) {
			t.Errorf("drawer %d-%d is not verbatim", d.LineStart, d.LineEnd)
		}
	}
	want := []string{"go Alpha:func refs strings,Repeat", "go Beta:func refs strings,Repeat,Alpha"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("good.go drawers:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Same files, new mtimes: the same drawers.
	write(t, root, "good.go", good+"\n")
	write(t, root, "good.go", good)
	if _, err := Run(ctx, p, root, o); err != nil {
		t.Fatal(err)
	}
	for _, d := range drawers(t, p.Store, "w") {
		if !ids[d.ID] {
			t.Errorf("re-mine made a new drawer %s (%s %d-%d)", d.ID, d.Source, d.LineStart, d.LineEnd)
		}
	}
}
