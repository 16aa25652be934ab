package mine

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// The compiled matcher must decide exactly as go-git's gitignore matcher,
// which walk used before: random rules of every shape (literal names and
// paths, prefixes, suffixes, other globs, negations, directory-only rules)
// in nested directories, against random paths.
func TestIgnoreMatcherAgreesWithGoGit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 16))
	names := []string{"a", "b", "ab", "a.go", "b.log", "x.log", "build", "ab.go"}
	pick := func() string { return names[rng.IntN(len(names))] }
	shapes := []func() string{
		pick,
		func() string { return "*" + pick()[1:] },
		func() string { n := pick(); return n[:len(n)-1] + "*" },
		func() string { return "/" + pick() },
		func() string { return pick() + "/" + pick() },
		func() string { return "/" + pick() + "/" + pick() + "/" },
		func() string { return "**/" + pick() },
		func() string { return pick() + "/**" },
		func() string { return pick() + "/*.go" },
		func() string { return "[ab]*" },
		func() string { return "?.go" },
		func() string { return "*" },
		func() string { return "a//b" },
		func() string { return "[" },
		func() string { return `\!a` },
	}
	rule := func() string {
		r := shapes[rng.IntN(len(shapes))]()
		if rng.IntN(4) == 0 {
			r = "!" + r
		}
		if rng.IntN(4) == 0 && !strings.HasSuffix(r, "/") {
			r += "/"
		}
		return r
	}
	for round := range 2000 {
		var ps []gitignore.Pattern
		var m ignoreMatcher
		var domain []string
		var desc []string
		for range 1 + rng.IntN(3) {
			var lines []string
			for range rng.IntN(6) {
				l := rule()
				lines = append(lines, l)
				ps = append(ps, gitignore.ParsePattern(l, domain))
			}
			m = m.with(domain, lines)
			desc = append(desc, fmt.Sprintf("%v: %q", domain, lines))
			domain = append(domain, pick())
		}
		want := gitignore.NewMatcher(ps)
		for range 40 {
			path := make([]string, 1+rng.IntN(4))
			for i := range path {
				path[i] = pick()
			}
			isDir := rng.IntN(2) == 0
			if got, w := m.Match(path, isDir), want.Match(path, isDir); got != w {
				t.Fatalf("round %d: rules %s: %v (dir %v) ignored = %v, go-git says %v", round, strings.Join(desc, "; "), path, isDir, got, w)
			}
		}
	}
}

// ignoreTree writes a project of 40 folders of 50 files each, with a root
// .gitignore of n rules (literal names, suffixes, prefixes, anchored paths,
// directory-only rules and negations, as generated ignore files hold) that
// ignore one file in each folder.
func ignoreTree(t testing.TB, n int) string {
	root := t.TempDir()
	var b strings.Builder
	b.WriteString("*.tmp\n**/cache/*.bin\n")
	for i := range n {
		switch i % 6 {
		case 0:
			fmt.Fprintf(&b, "gen%d.txt\n", i)
		case 1:
			fmt.Fprintf(&b, "*.ext%d\n", i)
		case 2:
			fmt.Fprintf(&b, "tmp%d*\n", i)
		case 3:
			fmt.Fprintf(&b, "/build%d/out\n", i)
		case 4:
			fmt.Fprintf(&b, "cache%d/\n", i)
		case 5:
			fmt.Fprintf(&b, "!keep%d.txt\n", i)
		}
	}
	write(t, root, ".gitignore", b.String())
	for d := range 40 {
		for f := range 50 {
			name := fmt.Sprintf("f%d.go", f)
			if f == 0 {
				name = "scratch.tmp"
			}
			write(t, root, filepath.Join(fmt.Sprintf("d%d", d), name), "x")
		}
	}
	return root
}

// A .gitignore of many rules must not make walking slower in proportion to
// its length: 16 times the rules may cost only a small factor more (the
// reading of the file), where go-git's matcher tried every rule on every
// path (21 times slower here, 11.6 s against 0.5 s).
func TestIgnoreCostDoesNotGrowWithRules(t *testing.T) {
	if testing.Short() {
		t.Skip("timing")
	}
	timeWalk := func(root string) time.Duration {
		start := time.Now()
		w, err := walk(root)
		if err != nil {
			t.Fatal(err)
		}
		if len(w.files) != 40*49+1 {
			t.Fatalf("%d files mined, want %d", len(w.files), 40*49+1)
		}
		return time.Since(start)
	}
	// The best of interleaved runs: load on a shared machine hits both.
	smallRoot, largeRoot := ignoreTree(t, 1000), ignoreTree(t, 16000)
	small, large := time.Duration(1<<62), time.Duration(1<<62)
	for range 7 {
		small = min(small, timeWalk(smallRoot))
		large = min(large, timeWalk(largeRoot))
	}
	t.Logf("walk with 1k rules %v, 16k rules %v (%.1fx)", small, large, float64(large)/float64(small))
	if large > 6*small {
		t.Errorf("16k ignore rules cost %v, 1k rules %v: more than 6x", large, small)
	}
}

// BenchmarkWalkIgnore walks 2,000 files under .gitignore files of 0 to
// 20,000 rules.
func BenchmarkWalkIgnore(b *testing.B) {
	for _, n := range []int{0, 1000, 20000} {
		root := ignoreTree(b, n)
		b.Run(fmt.Sprintf("rules=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := walk(root); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
