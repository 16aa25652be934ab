package relevant

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode"
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
	of     int    // how many definitions were found, this one included
	reason string // why this one of several; "" when it is the only one
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
//
// wide says the identifier is in so many of the palace's drawers that
// reading them all for their definitions would cost more than the search
// (String, Error, Len in Go's source: a hundred milliseconds and more);
// then only the folders where the reader most likely means it are read
// (the document's own, and those of the import its qualifier names), and
// the drawers where a definition keyword comes right before it.
func definitionOf(ctx context.Context, p *palace.Palace, r Request, c Clues, terms []weighted, wide bool) (*defined, error) {
	if c.Identifier == "" {
		return nil, nil
	}
	imports := importsOf(r.Text, r.Path)
	// A qualifier bound by an import (errors in errors.New) says which
	// package the name is from: a definition elsewhere is another name.
	var bound []string
	for _, imp := range imports {
		if c.Qualifier != "" && imp.name == c.Qualifier {
			bound = append(bound, imp.paths...)
		}
	}
	var ds []store.Drawer
	seen := map[string]bool{}
	keep := func(found []store.Drawer) {
		for _, d := range found {
			if !seen[d.ID] {
				seen[d.ID] = true
				ds = append(ds, d)
			}
		}
	}
	scopes := []store.Filter{{Wing: r.Wing}}
	if wide {
		scopes = nil
		for _, prefix := range likelyFolders(r, bound) {
			scopes = append(scopes, store.Filter{Wing: r.Wing, SourcePrefix: prefix})
		}
		found, err := p.Store.DefiningAfter(ctx, c.Identifier, definitionWordsOf(r.Path), store.Filter{Wing: r.Wing}, maxDefinitions)
		if err != nil {
			return nil, fmt.Errorf("relevant: %w", err)
		}
		keep(found)
	}
	for _, f := range scopes {
		found, err := p.Store.Defining(ctx, c.Identifier, f, maxDefinitions)
		if err != nil {
			return nil, fmt.Errorf("relevant: %w", err)
		}
		keep(found)
	}
	var defs []store.Drawer
	visible := 0 // definitions not on screen, in the qualifier's package or not
	for _, d := range ds {
		if onScreen(d, r) {
			continue
		}
		visible++
		// A file the qualifier names is kept: the import may name it by
		// another path (a build output, an alias the bundler resolves).
		if ips := importPaths(d.Source, r.Root); bound == nil || importsAny(bound, ips) || namesAny(c.Qualifier, ips) {
			defs = append(defs, d)
		}
	}
	if len(defs) == 0 {
		return nil, nil
	}
	var paths []string
	for _, imp := range imports {
		paths = append(paths, imp.paths...)
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
	def := chooseDefinition(defs, r, c, paths, bound != nil, secondary, clueScore)
	def.of = visible
	return &def, nil
}

// definitionWords are, by the document's language (search.Lang), the
// words that come right before a name where the language defines it: func
// panic, def load, class Cart, fn main. A Go method or a JavaScript class
// method has none. Each word is one more phrase for the index to match, so
// only the document's language's are asked for; a document in another
// language asks for all of them.
var definitionWords = map[string][]string{
	"go":         {"func", "type", "var", "const"},
	"python":     {"def", "class"},
	"javascript": {"function", "class", "const", "let", "var"},
	"typescript": {"function", "class", "const", "let", "var", "interface", "type", "enum"},
	"rust":       {"fn", "struct", "enum", "trait", "type", "const", "static", "mod"},
	"c":          {"struct", "enum", "union", "define"},
	"cpp":        {"class", "struct", "enum", "union", "namespace", "define", "using"},
	"java":       {"class", "interface", "enum", "record"},
	"ruby":       {"def", "class", "module"},
}

// definitionWordsOf are the definition words for the document at path.
func definitionWordsOf(path string) []string {
	if ws, ok := definitionWords[search.Lang(store.KindFile, path)]; ok {
		return ws
	}
	var all []string
	for _, ws := range definitionWords {
		for _, w := range ws {
			if !slices.Contains(all, w) {
				all = append(all, w)
			}
		}
	}
	slices.Sort(all)
	return all
}

// likelyFolders are the source prefixes where a common name's definition
// is looked for: the document's folder, and where each of bound (the paths
// the qualifier's import names) may be below the root or its parent
// folder (every tail of a Go import path: the module's own path is not
// known). The root itself is never one: that would read the whole wing.
func likelyFolders(r Request, bound []string) []string {
	if r.Path == "" || r.Root == "" {
		return nil
	}
	root := filepath.Clean(r.Root)
	var out []string
	add := func(p string) {
		p = filepath.Clean(p)
		if strings.HasPrefix(p, root+string(filepath.Separator)) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	if dir := filepath.Dir(r.Path); dir != root {
		add(dir + string(filepath.Separator))
	}
	for _, b := range bound {
		if filepath.IsAbs(filepath.FromSlash(b)) {
			add(filepath.FromSlash(b))
			continue
		}
		parts := strings.Split(b, "/")
		for i := range parts {
			tail := filepath.FromSlash(strings.Join(parts[i:], "/"))
			add(filepath.Join(root, tail))
			add(filepath.Join(filepath.Dir(root), tail))
		}
	}
	return out
}

// chooseDefinition picks which of defs (drawers defining c.Identifier, none
// of them on screen) the reader means: the one the qualifier names (store
// in store.Open: a folder or file called store, or every one of defs when
// the qualifier is bound by an import, as they are all in it), else one in a file or
// folder the document imports, else the nearest by path (the same file,
// then the same folder...), a source file before a test unless the
// document is a test. clueScore breaks what is left: the definition holding
// more of the place's clues (the enclosing type of a method) is likelier.
func chooseDefinition(defs []store.Drawer, r Request, c Clues, imports []string, bound bool, secondary func(store.Drawer) bool, clueScore func(store.Drawer) float64) defined {
	type rank struct {
		named, imported bool
		shared          int
		secondary       bool
		clues           float64
	}
	ranks := make([]rank, len(defs))
	for i, d := range defs {
		ips := importPaths(d.Source, r.Root)
		ranks[i] = rank{
			named:     bound || c.Qualifier != "" && namesAny(c.Qualifier, ips),
			imported:  importsAny(imports, ips),
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
	out := defined{drawer: defs[best], name: c.Identifier, of: len(defs)}
	b := ranks[best]
	switch {
	case b.named:
		sep := "."
		if search.Lang(store.KindFile, r.Path) == "rust" {
			sep = "::"
		}
		out.reason = fmt.Sprintf("the one in %s, as %s%s%s says", path.Dir(relPath(defs[best].Source, r.Root)), c.Qualifier, sep, c.Identifier)
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

// importPaths are the slash paths an import may name source by: below
// root, and below root's parent folder, the root folder's own name
// included, for a file at the top (Go's net/http, mined from a folder
// http, holds http.Get at the top; a module's folder is often named as
// its path ends). Without root, source itself.
func importPaths(source, root string) []string {
	if root == "" {
		return []string{filepath.ToSlash(source)}
	}
	return []string{relPath(source, root), relPath(source, filepath.Dir(root))}
}

// importsAny reports whether imports name any of paths (see importsFile).
func importsAny(imports, paths []string) bool {
	return slices.ContainsFunc(paths, func(p string) bool { return importsFile(imports, p) })
}

// namesAny reports whether q names the file or folder of any of paths.
func namesAny(q string, paths []string) bool {
	return slices.ContainsFunc(paths, func(p string) bool { return namesFile(q, p) })
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

// imported is one import of a document: the slash paths (without
// extension) it may name, and the name it binds in the document ("" when
// it binds none, such as Go's _ and . imports or a JS named import).
type imported struct {
	paths []string
	name  string
}

// Import forms, per language family: a quoted path (Go, JS, TS), a dotted
// module (Python), a Rust use path.
var (
	quotedRe     = regexp.MustCompile("[\"'`]([^\"'`\\s]+)[\"'`]")
	goSpecRe     = regexp.MustCompile(`^\s*(?:import\s+)?([\w.]+\s+)?"([^"]+)"`)
	goImportRe   = regexp.MustCompile(`^\s*import\s*(\(|[\w.]*\s*")`)
	jsImportRe   = regexp.MustCompile(`^\s*(import|export)\b.*\bfrom\s*["']|^\s*import\s*["']|\brequire\s*\(\s*["']|\bimport\s*\(\s*["']`)
	jsBindRe     = regexp.MustCompile(`^\s*import\s+(?:type\s+)?(?:\*\s+as\s+(\w+)|(\w+)\s*(?:,|\bfrom\b))|^\s*(?:const|let|var)\s+(\w+)\s*=\s*require\b`)
	pyFromRe     = regexp.MustCompile(`^\s*from\s+(\.*[\w.]*)\s+import\s+\(?\s*([\w\s,]*)`)
	pyImportRe   = regexp.MustCompile(`^\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)\s*$`)
	rustUseRe    = regexp.MustCompile(`^\s*(?:pub(?:\([\w\s:]*\))?\s+)?use\s+((?:crate|super|self)?(?:::)?[\w:]+)(?:\s+as\s+(\w+)|\{([^{}]*)\})?`)
	goVersionRe  = regexp.MustCompile(`^v[0-9]+$`)
	maxImportsAt = 2000 // lines read for imports: they are at the top
)

// importsOf lists what the document at docPath imports: Go import paths,
// JS and TS module specifiers (relative ones resolved against docPath's
// folder), Python modules (dots to slashes, relative ones resolved), Rust
// use paths (crate:: dropped), each with the name it binds.
func importsOf(text, docPath string) []imported {
	dir := path.Dir(filepath.ToSlash(docPath))
	var out []imported
	add := func(name string, ps ...string) {
		var keep []string
		for _, p := range ps {
			if p = strings.TrimSuffix(p, path.Ext(p)); p != "" && p != "." {
				keep = append(keep, p)
			}
		}
		if len(keep) > 0 {
			out = append(out, imported{paths: keep, name: name})
		}
	}
	goSpec := func(line string) {
		if m := goSpecRe.FindStringSubmatch(line); m != nil {
			name := strings.TrimSpace(m[1])
			if name == "" {
				name = goPackageName(m[2])
			}
			if name == "_" || name == "." {
				name = ""
			}
			add(name, m[2])
		}
	}
	lang := search.Lang(store.KindFile, docPath)
	isGo, isPython, isRust := lang == "go", lang == "python", lang == "rust"
	isJS := !isGo && !isPython && !isRust
	inGoBlock := false
	for i, line := range strings.SplitN(text, "\n", maxImportsAt+1) {
		if i == maxImportsAt {
			break
		}
		switch {
		case isGo && inGoBlock:
			if strings.HasPrefix(strings.TrimSpace(line), ")") {
				inGoBlock = false
				continue
			}
			goSpec(line)
		case isGo && goImportRe.MatchString(line):
			if strings.HasSuffix(strings.TrimSpace(line), "(") {
				inGoBlock = true
			} else {
				goSpec(line)
			}
		case isJS && jsImportRe.MatchString(line):
			name := ""
			if m := jsBindRe.FindStringSubmatch(line); m != nil {
				name = m[1] + m[2] + m[3]
			}
			for _, m := range quotedRe.FindAllStringSubmatch(line, -1) {
				spec := m[1]
				if strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../") {
					spec = path.Join(dir, spec)
				}
				add(name, spec)
			}
		case isPython && pyFromRe.MatchString(line):
			m := pyFromRe.FindStringSubmatch(line)
			mod := pyModule(m[1], dir)
			names := 0
			for _, part := range strings.Split(m[2], ",") {
				f := strings.Fields(part)
				if len(f) == 0 {
					continue
				}
				// from m import x: x is a module of m or a name defined in m.
				add(f[len(f)-1], path.Join(mod, f[0]), mod)
				names++
			}
			if names == 0 {
				add("", mod)
			}
		case isPython && pyImportRe.MatchString(line):
			for _, part := range strings.Split(pyImportRe.FindStringSubmatch(line)[1], ",") {
				f := strings.Fields(part)
				name := f[len(f)-1]
				if len(f) == 1 && strings.Contains(f[0], ".") {
					name = "" // import a.b binds a, which is not the path a/b
				}
				add(name, pyModule(f[0], dir))
			}
		case isRust && rustUseRe.MatchString(line):
			for _, u := range rustUses(rustUseRe.FindStringSubmatch(line)) {
				add(u.name, u.paths...)
			}
		}
	}
	return out
}

// rustUses reads one use declaration (rustUseRe's match: the path, an
// alias, a braced list) as the names it binds. use a::b::C binds C, which
// is a module a/b/C or an item defined in the module a/b, so both paths
// name it; a braced list binds each of its names (self binds the module).
// crate::, self:: and super:: are dropped; a path from another crate
// (shop::text::Label in a crate's tests, std::io) also names the same path
// without the crate, which is where a crate's own tests find its files.
// An item of the crate root (use crate::{Determinacy}) binds nothing: the
// root may re-export it from any module.
func rustUses(m []string) []imported {
	base, alias, list := m[1], m[2], m[3]
	if list == "" && strings.HasSuffix(base, "::") {
		return nil // a braced list over several lines: not read
	}
	local := false
	for _, pre := range []string{"crate::", "self::", "super::", "::"} {
		if strings.HasPrefix(base, pre) {
			base, local = strings.TrimPrefix(base, pre), true
		}
	}
	base = strings.TrimSuffix(base, "::")
	// bind adds what the use path p binds as name; module says p is a
	// module (self in a braced list), not a module or an item.
	var out []imported
	bind := func(name, p string, module bool) {
		if p == "" {
			return
		}
		elems := strings.Split(p, "::")
		var ps []string
		// A one-name path of this crate is a module only when lowercase
		// (Rust names types in CamelCase): use crate::text, not
		// use crate::Determinacy, which the root may re-export from anywhere.
		if len(elems) > 1 || !local || module || unicode.IsLower([]rune(p)[0]) {
			ps = append(ps, strings.Join(elems, "/"))
		}
		if !module && len(elems) > 1 {
			ps = append(ps, strings.Join(elems[:len(elems)-1], "/"))
		}
		if !local {
			for _, p := range slices.Clone(ps) {
				if _, rest, ok := strings.Cut(p, "/"); ok {
					ps = append(ps, rest)
				}
			}
		}
		if len(ps) > 0 {
			out = append(out, imported{name: name, paths: ps})
		}
	}
	last := func(p string) string { return p[strings.LastIndex(p, ":")+1:] }
	if list == "" {
		if alias == "" {
			alias = last(base)
		}
		bind(alias, base, false)
		return out
	}
	for _, part := range strings.Split(list, ",") {
		f := strings.Fields(part)
		if len(f) == 0 {
			continue
		}
		p, module := strings.Trim(base+"::"+f[0], ":"), false
		if f[0] == "self" {
			p, module = base, true
		}
		name := f[len(f)-1]
		if len(f) == 1 {
			name = last(p)
		}
		bind(name, p, module)
	}
	return out
}

// goPackageName guesses the name a Go import path binds: its last element,
// or the one before a major version (v2), without a gopkg.in version
// (yaml.v3) or a go- prefix or -go suffix.
func goPackageName(p string) string {
	parts := strings.Split(p, "/")
	name := parts[len(parts)-1]
	if goVersionRe.MatchString(name) && len(parts) > 1 {
		name = parts[len(parts)-2]
	}
	name, _, _ = strings.Cut(name, ".")
	name = strings.TrimSuffix(strings.TrimPrefix(name, "go-"), "-go")
	return strings.ReplaceAll(name, "-", "_")
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

// defines reports whether a drawer's metadata lists name among what it
// defines (palace.DefinedNames); the byte test skips most drawers before
// their JSON is parsed.
func defines(metadata json.RawMessage, name string) bool {
	return bytes.Contains(metadata, []byte(name)) && slices.Contains(palace.DefinedNames(string(metadata)), name)
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
