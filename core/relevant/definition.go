package relevant

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

// maxDefinitions bounds the definitions of one name read from the palace:
// past a few dozen (String, New, Close in a big tree) the choice is a guess
// whatever the count.
const maxDefinitions = 50

// defined is the drawer chosen as the definition of the identifier at
// the cursor, and why that one when there were several.
type defined struct {
	drawer store.Drawer
	name   string
	of     int             // how many definitions were found, this one included
	others map[string]bool // the ids of the other definitions' drawers
	reason string          // why this one of several; "" when it is the only one
}

func (d defined) why() string {
	w := "definition of " + d.name
	if d.of > 1 {
		w += fmt.Sprintf(" (1 of %d: %s)", d.of, d.reason)
	}
	return w
}

// definitionOf finds the definition of the identifier at the cursor in the
// document's wing, leaving out those on screen; nil when there is none
// (no identifier, a selection, a name defined nowhere else).
func definitionOf(ctx context.Context, p *palace.Palace, r Request, c Clues, terms []weighted) (*defined, error) {
	if c.Identifier == "" {
		return nil, nil
	}
	ds, err := p.Store.Defining(ctx, c.Identifier, store.Filter{Wing: r.Wing}, maxDefinitions)
	if err != nil {
		return nil, fmt.Errorf("relevant: %w", err)
	}
	defs := ds[:0]
	for _, d := range ds {
		if !onScreen(d, r) {
			defs = append(defs, d)
		}
	}
	if len(defs) == 0 {
		return nil, nil
	}
	secondary := func(d store.Drawer) bool { return search.Secondary(d, r.Path) }
	clueScore := func(d store.Drawer) float64 {
		ts, total := newTokenSet(d.Content), 0.0
		for _, t := range terms {
			if t.term != c.Identifier && ts.has(t.term, t.tokens) {
				total += t.weight
			}
		}
		return total
	}
	def := chooseDefinition(defs, r, c, importsOf(r.Text, r.Path), secondary, clueScore)
	return &def, nil
}

// chooseDefinition picks which of defs (drawers defining c.Identifier, none
// of them on screen) the reader means: the one the qualifier names (store
// in store.Open: a folder or file called store), else one in a file or
// folder the document imports, else the nearest by path (the same file,
// then the same folder...), a source file before a test unless the
// document is a test. clueScore breaks what is left: the definition holding
// more of the place's clues (the enclosing type of a method) is likelier.
func chooseDefinition(defs []store.Drawer, r Request, c Clues, imports []string, secondary func(store.Drawer) bool, clueScore func(store.Drawer) float64) defined {
	type rank struct {
		named, imported bool
		shared          int
		secondary       bool
		clues           float64
	}
	ranks := make([]rank, len(defs))
	for i, d := range defs {
		rel := relPath(d.Source, r.Root)
		ranks[i] = rank{
			named:     c.Qualifier != "" && namesFile(c.Qualifier, rel),
			imported:  importsFile(imports, rel),
			shared:    sharedDirs(d.Source, r.Path),
			secondary: secondary(d),
			clues:     clueScore(d),
		}
	}
	better := func(a, b rank) bool {
		switch {
		case a.named != b.named:
			return a.named
		case a.imported != b.imported:
			return a.imported
		case a.shared != b.shared:
			return a.shared > b.shared
		case a.secondary != b.secondary:
			return !a.secondary
		}
		return a.clues > b.clues
	}
	best := 0
	for i := range defs {
		if better(ranks[i], ranks[best]) {
			best = i
		}
	}
	out := defined{drawer: defs[best], name: c.Identifier, of: len(defs), others: map[string]bool{}}
	for i, d := range defs {
		if i != best {
			out.others[d.ID] = true
		}
	}
	b := ranks[best]
	switch {
	case b.named:
		out.reason = fmt.Sprintf("the one in %s, as %s.%s says", path.Dir(relPath(defs[best].Source, r.Root)), c.Qualifier, c.Identifier)
	case b.imported:
		out.reason = "the one in a package this file imports"
	case defs[best].Source == r.Path:
		out.reason = "the one in this file"
	default:
		out.reason = "the nearest by path"
	}
	return out
}

// relPath is source below root with forward slashes, or source itself when
// it is not below root.
func relPath(source, root string) string {
	if root != "" {
		if rel, err := filepath.Rel(root, source); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(source)
}

// namesFile reports whether q, a qualifier, is the name of rel's folder or
// of rel's file without extension: a Go package (only the folder: a Go
// file's name is no name in the code), a Python or JS module.
func namesFile(q, rel string) bool {
	dir, file := path.Split(rel)
	if q == path.Base(strings.TrimSuffix(dir, "/")) {
		return true
	}
	ext := path.Ext(file)
	return ext != ".go" && q == strings.TrimSuffix(file, ext)
}

// importsFile reports whether one of imports (slash paths without
// extension, as importsOf gives them) names rel's file or folder: either
// ends with the other at a path boundary, so a Go import path ending in the
// folder, a Python module under a src/ folder and a relative JS import all
// match.
func importsFile(imports []string, rel string) bool {
	noExt := strings.TrimSuffix(rel, path.Ext(rel))
	dir := path.Dir(rel)
	for _, imp := range imports {
		for _, p := range []string{noExt, dir} {
			if p == "." || p == "/" || p == "" {
				continue
			}
			if imp == p || strings.HasSuffix(imp, "/"+p) || strings.HasSuffix(p, "/"+imp) {
				return true
			}
		}
	}
	return false
}

// sharedDirs counts the leading path elements a and b share, the file
// name included: the same file shares the most, then the same folder.
func sharedDirs(a, b string) int {
	if b == "" {
		return 0
	}
	as := strings.Split(filepath.ToSlash(a), "/")
	bs := strings.Split(filepath.ToSlash(b), "/")
	n := 0
	for n < len(as) && n < len(bs) && as[n] == bs[n] {
		n++
	}
	return n
}

// Import forms, per language family: a quoted path (Go, JS, TS), a dotted
// module (Python), a Rust use path.
var (
	quotedRe     = regexp.MustCompile("[\"'`]([^\"'`\\s]+)[\"'`]")
	goImportRe   = regexp.MustCompile(`^\s*import\s*(\(|\w*\s*")`)
	jsImportRe   = regexp.MustCompile(`^\s*(import|export)\b.*\bfrom\s*["']|^\s*import\s*["']|\brequire\s*\(\s*["']|\bimport\s*\(\s*["']`)
	pyFromRe     = regexp.MustCompile(`^\s*from\s+(\.*[\w.]*)\s+import\b`)
	pyImportRe   = regexp.MustCompile(`^\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)\s*$`)
	rustUseRe    = regexp.MustCompile(`^\s*(?:pub\s+)?use\s+((?:crate|super|self)?(?:::)?[\w:]+)`)
	maxImportsAt = 2000 // lines read for imports: they are at the top
)

// importsOf lists what the document at docPath imports, as slash paths
// without extension: Go import paths, JS and TS module specifiers (relative
// ones resolved against docPath's folder), Python modules (dots to
// slashes, relative ones resolved), Rust use paths (crate:: dropped).
func importsOf(text, docPath string) []string {
	dir := path.Dir(filepath.ToSlash(docPath))
	var out []string
	add := func(p string) {
		p = strings.TrimSuffix(p, path.Ext(p))
		if p != "" && p != "." {
			out = append(out, p)
		}
	}
	inGoBlock := false
	for i, line := range strings.SplitN(text, "\n", maxImportsAt+1) {
		if i == maxImportsAt {
			break
		}
		switch {
		case inGoBlock:
			if strings.HasPrefix(strings.TrimSpace(line), ")") {
				inGoBlock = false
				continue
			}
			if m := quotedRe.FindStringSubmatch(line); m != nil {
				add(m[1])
			}
		case goImportRe.MatchString(line) && !jsImportRe.MatchString(line):
			if strings.HasSuffix(strings.TrimSpace(line), "(") {
				inGoBlock = true
			} else if m := quotedRe.FindStringSubmatch(line); m != nil {
				add(m[1])
			}
		case jsImportRe.MatchString(line):
			for _, m := range quotedRe.FindAllStringSubmatch(line, -1) {
				spec := m[1]
				if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") {
					spec = path.Join(dir, spec)
				}
				add(spec)
			}
		case pyFromRe.MatchString(line):
			add(pyModule(pyFromRe.FindStringSubmatch(line)[1], dir))
		case pyImportRe.MatchString(line):
			for _, part := range strings.Split(pyImportRe.FindStringSubmatch(line)[1], ",") {
				add(pyModule(strings.Fields(part)[0], dir))
			}
		case rustUseRe.MatchString(line):
			p := rustUseRe.FindStringSubmatch(line)[1]
			for _, pre := range []string{"crate::", "self::", "super::", "::"} {
				p = strings.TrimPrefix(p, pre)
			}
			add(strings.ReplaceAll(p, "::", "/"))
		}
	}
	return out
}

// pyModule turns a Python module name into a slash path: a.b.c is a/b/c,
// .m is m beside the document, ..m one folder up.
func pyModule(m, dir string) string {
	dots := len(m) - len(strings.TrimLeft(m, "."))
	rest := strings.ReplaceAll(strings.TrimLeft(m, "."), ".", "/")
	if dots == 0 {
		return rest
	}
	for range dots - 1 {
		dir = path.Dir(dir)
	}
	return path.Join(dir, rest)
}

// useOf says how content uses name: "calls" when name is followed by an
// opening parenthesis somewhere, "mentions" when it only appears as a
// whole identifier, "" when it does not appear.
func useOf(content, name string) string {
	use := ""
	for i := 0; i < len(content); {
		j := strings.Index(content[i:], name)
		if j < 0 {
			break
		}
		s, e := i+j, i+j+len(name)
		i = e
		if s > 0 {
			if r, _ := utf8.DecodeLastRuneInString(content[:s]); isIdentRune(r) {
				continue
			}
		}
		if e < len(content) {
			if r, _ := utf8.DecodeRuneInString(content[e:]); isIdentRune(r) {
				continue
			}
		}
		if strings.HasPrefix(strings.TrimLeft(content[e:], " \t"), "(") {
			return "calls"
		}
		use = "mentions"
	}
	return use
}
