package bench

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"hash/fnv"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/ops"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// DefaultRelevantMax is how many call sites `palace bench relevant` asks
// about by default.
const DefaultRelevantMax = 300

// RelevantOptions configure Relevant.
type RelevantOptions struct {
	Repo string // a folder to mine (a work tree)
	Max  int    // call sites; 0: DefaultRelevantMax
}

// RelevantCall is one call site asked about, and where its definition
// ranked (0 when it was not among the hits).
type RelevantCall struct {
	File       string `json:"file"`
	Line       int    `json:"line"` // 1-based
	Name       string `json:"name"`
	Definition string `json:"definition"` // the defining drawer's citation
	First      string `json:"first"`      // Relevant's first row's citation
	Rank       int    `json:"rank"`
}

// RelevantReport is what `palace bench relevant` prints.
type RelevantReport struct {
	Repo    string `json:"repo"`
	Files   int    `json:"files_mined"`
	Drawers int    `json:"drawers"`
	// Eligible counts the call sites found before sampling: calls of a
	// function or method defined once in the repository, in another file.
	Eligible int `json:"eligible"`
	// OtherPackage counts the Go calls of such a name left out because
	// their qualifier is an imported package the definition is not in
	// (errors.New is no call of a New defined in the repository).
	OtherPackage int `json:"other_package"`
	Calls        int `json:"calls"`
	// First and Top3 are the shares of calls whose definition's drawer is
	// Relevant's first row, or among its first three.
	First   float64        `json:"first"`
	Top3    float64        `json:"top3"`
	P50ms   float64        `json:"p50_ms"`
	P95ms   float64        `json:"p95_ms"`
	Seconds float64        `json:"seconds"`
	ByCall  []RelevantCall `json:"by_call"`
}

// Relevant measures how often the editor's Relevant puts a called
// function's definition first. It mines o.Repo into a fresh palace through
// ops.Mine (no embedding model: lexical, whatever the machine), reads the
// definitions core/mine recorded in the drawers' metadata, finds call sites
// (an identifier followed by "(", outside comments and string literals) of
// functions and methods defined exactly once in the repository in another
// file, samples up to o.Max of them spread across files, puts the cursor on
// each call and asks ops.Relevant as palace/relevant asks it.
func Relevant(ctx context.Context, o RelevantOptions) (*RelevantReport, error) {
	start := time.Now()
	if o.Max == 0 {
		o.Max = DefaultRelevantMax
	}
	if err := o.Check(); err != nil {
		return nil, fmt.Errorf("bench relevant: %w", err)
	}
	repo, err := filepath.Abs(o.Repo)
	if err != nil {
		return nil, fmt.Errorf("bench relevant: --repo %s: %w", o.Repo, err)
	}
	if fi, err := os.Stat(repo); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("bench relevant: --repo %s: not a folder", o.Repo)
	}
	home, err := os.MkdirTemp("", "palace-bench-relevant-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(home)
	p, err := palace.Open(home, palace.Options{Embed: &embed.Config{Backend: embed.BackendNone, Home: home}})
	if err != nil {
		return nil, err
	}
	defer p.Close()
	mined, err := ops.Mine(ctx, p, ops.MineRequest{Path: repo, NoVectors: true})
	if err != nil {
		return nil, fmt.Errorf("bench relevant: mine %s: %w", repo, err)
	}
	ds, err := p.Store.ListDrawers(ctx, store.Filter{Wing: mined.Wing, Kind: store.KindFile}, math.MaxInt32)
	if err != nil {
		return nil, fmt.Errorf("bench relevant: %w", err)
	}
	defs := uniqueDefinitions(ds)
	var sites []callSite
	otherPackage := 0
	module := goModule(repo)
	texts := map[string]string{}
	for _, src := range codeSources(ds) {
		b, err := os.ReadFile(src)
		if err != nil {
			return nil, fmt.Errorf("bench relevant: %w", err)
		}
		texts[src] = string(b)
		pkgs := goImports(src, b)
		for _, s := range callSites(string(b), src) {
			d, ok := defs[s.name]
			if !ok || d.Source == src {
				continue
			}
			if imp, ok := pkgs[s.qualifier]; ok && imp != goPackagePath(repo, module, d.Source) && !strings.HasSuffix(imp, "/"+goPackagePath(repo, module, d.Source)) {
				otherPackage++
				continue
			}
			sites = append(sites, s)
		}
	}
	r := &RelevantReport{Repo: repo, Files: mined.FilesMined, Drawers: len(ds), Eligible: len(sites),
		OtherPackage: otherPackage, ByCall: []RelevantCall{}}
	var first, top3 int
	var ms []float64
	for _, s := range sample(sites, o.Max) {
		def := defs[s.name]
		t0 := time.Now()
		res, err := ops.Relevant(ctx, p, ops.RelevantRequest{Path: s.file, Root: mined.Root, Text: texts[s.file],
			Start: s.at, End: s.at, Wing: mined.Wing})
		if err != nil {
			return nil, fmt.Errorf("bench relevant: %s:%d: %w", s.file, s.at.Line+1, err)
		}
		ms = append(ms, float64(time.Since(t0).Microseconds())/1000)
		c := RelevantCall{File: rel(repo, s.file), Line: s.at.Line + 1, Name: s.name,
			Definition: fmt.Sprintf("%s:%d-%d", rel(repo, def.Source), def.LineStart, def.LineEnd)}
		for i, h := range res.Hits {
			if i == 0 {
				c.First = fmt.Sprintf("%s:%d-%d", rel(repo, h.Source), h.LineStart, h.LineEnd)
			}
			if h.ID == def.ID {
				c.Rank = i + 1
				break
			}
		}
		if c.Rank == 1 {
			first++
		}
		if c.Rank >= 1 && c.Rank <= 3 {
			top3++
		}
		r.ByCall = append(r.ByCall, c)
	}
	r.Calls = len(r.ByCall)
	if r.Calls > 0 {
		r.First, r.Top3 = float64(first)/float64(r.Calls), float64(top3)/float64(r.Calls)
		slices.Sort(ms)
		r.P50ms, r.P95ms = ms[len(ms)/2], ms[min(len(ms)-1, len(ms)*95/100)]
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

func rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return filepath.ToSlash(r)
	}
	return p
}

// relevantMeta is the part of a file drawer's metadata the bench reads.
type relevantMeta struct {
	Lang    string `json:"lang"`
	Defines []struct {
		Name string `json:"name"`
		Kind string `json:"kind"`
	} `json:"defines"`
}

// uniqueDefinitions maps each function or method name defined exactly once
// among ds (whatever the kind of the other definitions) to its drawer.
func uniqueDefinitions(ds []store.Drawer) map[string]store.Drawer {
	count := map[string]int{}
	callable := map[string]store.Drawer{}
	for _, d := range ds {
		var m relevantMeta
		if json.Unmarshal([]byte(d.Metadata), &m) != nil {
			continue
		}
		for _, s := range m.Defines {
			count[s.Name]++
			if s.Kind == "func" || s.Kind == "method" {
				callable[s.Name] = d
			}
		}
	}
	for name := range callable {
		if count[name] != 1 {
			delete(callable, name)
		}
	}
	return callable
}

// codeSources lists, sorted, the files whose drawers carry a language:
// those core/code cut at definitions.
func codeSources(ds []store.Drawer) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range ds {
		var m relevantMeta
		if !seen[d.Source] && json.Unmarshal([]byte(d.Metadata), &m) == nil && m.Lang != "" {
			seen[d.Source] = true
			out = append(out, d.Source)
		}
	}
	sort.Strings(out)
	return out
}

// callSite is an identifier followed by "(" in a file.
type callSite struct {
	file      string
	name      string
	qualifier string       // the identifier before ".name", if any
	at        ops.Position // the identifier's first byte
}

// goModule is the module path DIR/go.mod declares, or DIR's folder name
// (Go's src/net/http is imported as net/http, and has no go.mod).
func goModule(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err == nil {
		if m := regexp.MustCompile(`(?m)^module\s+"?([^"\s]+)`).FindSubmatch(b); m != nil {
			return string(m[1])
		}
	}
	return filepath.Base(dir)
}

// goPackagePath is the import path of the folder of file, a file in the
// module rooted at repo: module's path and the folder below repo.
func goPackagePath(repo, module, file string) string {
	r := rel(repo, filepath.Dir(file))
	if r == "." {
		return module
	}
	return module + "/" + r
}

// goImports maps the names a Go file's imports bind (the alias, else the
// path's last element) to their paths; nil for other files and for a file
// go/parser cannot read.
func goImports(file string, src []byte) map[string]string {
	if filepath.Ext(file) != ".go" {
		return nil
	}
	f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.ImportsOnly)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, is := range f.Imports {
		p, err := strconv.Unquote(is.Path.Value)
		if err != nil {
			continue
		}
		name := path.Base(p)
		if is.Name != nil {
			name = is.Name.Name
		}
		out[name] = p
	}
	return out
}

var (
	callRe      = regexp.MustCompile(`[\p{L}_$][\p{L}\p{N}_$]*\s*\(`)
	qualifierRe = regexp.MustCompile(`([\p{L}_$][\p{L}\p{N}_$]*)\.$`)
)

// callSites finds the calls in text: identifiers followed by "(" once
// comments and string literals are blanked out.
func callSites(text, file string) []callSite {
	var out []callSite
	for i, line := range strings.Split(blankCode(text, filepath.Ext(file)), "\n") {
		for _, m := range callRe.FindAllStringIndex(line, -1) {
			if m[0] > 0 {
				if c := line[m[0]-1]; c >= '0' && c <= '9' {
					continue // the tail of a longer token
				}
			}
			name := strings.TrimRight(line[m[0]:m[1]-1], " \t")
			c := callSite{file: file, name: name, at: ops.Position{Line: i, Col: m[0]}}
			if q := qualifierRe.FindStringSubmatch(line[:m[0]]); q != nil {
				c.qualifier = q[1]
			}
			out = append(out, c)
		}
	}
	return out
}

// blankCode replaces comments and string literals with spaces, keeping
// every other byte and newline where it is: "//" and "/* */" comments
// (Python: "#"), "..." and '...' strings, Go raw `...` and JavaScript
// template strings, Python triple-quoted strings.
func blankCode(text, ext string) string {
	python := ext == ".py" || ext == ".pyi"
	b := []byte(text)
	blank := func(from, to int) {
		for k := from; k < to && k < len(b); k++ {
			if b[k] != '\n' {
				b[k] = ' '
			}
		}
	}
	for i := 0; i < len(b); {
		rest := text[i:]
		end := -1
		switch {
		case python && rest[0] == '#', !python && strings.HasPrefix(rest, "//"):
			end = strings.IndexByte(rest, '\n')
		case !python && strings.HasPrefix(rest, "/*"):
			if e := strings.Index(rest[2:], "*/"); e >= 0 {
				end = e + 4
			}
		case python && (strings.HasPrefix(rest, `"""`) || strings.HasPrefix(rest, `'''`)):
			if e := strings.Index(rest[3:], rest[:3]); e >= 0 {
				end = e + 6
			}
		case rest[0] == '`' && !python:
			if e := strings.IndexByte(rest[1:], '`'); e >= 0 {
				end = e + 2
			}
		case rest[0] == '"' || rest[0] == '\'':
			end = quotedEnd(rest)
		default:
			i++
			continue
		}
		if end < 0 {
			end = len(rest)
		}
		blank(i, i+end)
		i += max(end, 1)
	}
	return string(b)
}

// quotedEnd is the length of the one-line string literal rest starts
// with, its closing quote included, honouring backslash escapes; a
// literal left open ends with its line.
func quotedEnd(rest string) int {
	q := rest[0]
	for k := 1; k < len(rest); k++ {
		switch rest[k] {
		case '\\':
			k++
		case q:
			return k + 1
		case '\n':
			return k
		}
	}
	return len(rest)
}

// sample takes up to n call sites spread across files: the files in an
// order fixed by a hash of their paths (so no folder comes first), one
// call from each in turn, each file's calls too in hash order.
func sample(sites []callSite, n int) []callSite {
	h := func(s string) uint64 {
		f := fnv.New64a()
		f.Write([]byte(s))
		return f.Sum64()
	}
	type keyed struct {
		site callSite
		key  uint64
	}
	byFile := map[string][]keyed{}
	for _, s := range sites {
		k := h(fmt.Sprintf("%s:%d:%d", s.file, s.at.Line, s.at.Col))
		byFile[s.file] = append(byFile[s.file], keyed{s, k})
	}
	files := make([]string, 0, len(byFile))
	for f, ss := range byFile {
		files = append(files, f)
		slices.SortFunc(ss, func(a, b keyed) int {
			return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.site.at.Line, b.site.at.Line), cmp.Compare(a.site.at.Col, b.site.at.Col))
		})
	}
	slices.SortFunc(files, func(a, b string) int { return cmp.Or(cmp.Compare(h(a), h(b)), cmp.Compare(a, b)) })
	var out []callSite
	for round := 0; len(out) < n; round++ {
		took := false
		for _, f := range files {
			if ss := byFile[f]; round < len(ss) && len(out) < n {
				out = append(out, ss[round].site)
				took = true
			}
		}
		if !took {
			break
		}
	}
	return out
}
