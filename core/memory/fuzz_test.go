package memory

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/palace"
)

// FuzzRemember feeds arbitrary notes to Remember: bad input must be an
// input error that writes nothing, and any other note must be written or
// reported as a duplicate; the near-duplicate query built from the text
// must never break FTS5.
func FuzzRemember(f *testing.F) {
	for _, s := range []string{pnpm, `"`, `-x`, `a*`, `NEAR(a b)`, `col:x`, "知识图谱 清华大学", "tab\there", "\xff", "a\x00b",
		"AND OR NOT", `" OR 1=1 --`, "C++ x86-64 map[string]int", "🙂", ""} {
		f.Add(s, "proj")
	}
	f.Add("note", `a/b`)
	f.Add("note", "wing\n")
	p, err := palace.Open(f.TempDir(), palace.Options{Embed: &embed.Config{LibDirs: []string{}}})
	if err != nil {
		f.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	// The first Chinese note loads the segmenter's dictionaries (seconds,
	// far more under coverage instrumentation on a loaded machine). Done in
	// one fuzz call, that exceeds the time Go's coordinator gives a worker
	// and it is killed as hung; loaded here, once per worker, each call
	// costs what the input does.
	if _, err := rememberDefault(ctx, p, Note{Text: "知识图谱 预热", Wing: "warmup", Importance: DefaultImportance}, false); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text, wing string) {
		st, err := p.Store.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		res, err := rememberDefault(ctx, p, Note{Text: text, Wing: wing, Importance: DefaultImportance}, false)
		after, serr := p.Store.Status(ctx)
		if serr != nil {
			t.Fatal(serr)
		}
		written := after.Drawers - st.Drawers
		switch {
		case err != nil && !errors.Is(err, ErrInvalid):
			t.Fatalf("remember %q in %q: %v", text, wing, err)
		case err != nil && written != 0:
			t.Fatalf("bad input %q in %q wrote %d drawers", text, wing, written)
		case err == nil && res.Added != (written == 1):
			t.Fatalf("added %v but %d drawers written", res.Added, written)
		case err == nil && !res.Added && len(res.Duplicates) == 0:
			t.Fatalf("%q in %q: neither added nor a duplicate", text, wing)
		}
	})
}

// FuzzDifferences: any two texts compare without panicking, the same way
// in both orders, and a text never differs from itself.
func FuzzDifferences(f *testing.F) {
	for _, s := range [][2]string{
		{"Use port 8080 for the admin API", "Do not use port 8080 for the admin API"},
		{"Ask Alice's team", "ask alice"}, {"'s", "n't"}, {"v1.2. e.g. Bob", "1.2"}, {"端口8080", "端口9090"},
		{"\u0301A", "a\u0301"}, {"a.\n- B", "not not not"}, {"İ", "i̇"}, {"", "x"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ab, ba := Differences(a, b), Differences(b, a)
		if !slices.Equal(ab, ba) {
			t.Errorf("Differences(%q, %q) = %q, the other way %q", a, b, ab, ba)
		}
		if d := Differences(a, a); d != nil {
			t.Errorf("%q differs from itself: %q", a, d)
		}
	})
}
