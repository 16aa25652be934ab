package mine

import (
	"path/filepath"
	"strings"
)

// The ignore matcher follows the pattern semantics of go-git's gitignore
// package, which walk used before (ignore_test.go compares the two on
// random patterns), but it is compiled: go-git tries every pattern against
// every path, so a 20,000-line .gitignore made a no-op re-mine 140 times
// slower. Here the patterns most ignore files consist of (a literal name,
// "*.ext", "prefix*", a literal path) are looked up in maps, and only the
// others are tried one by one, so a path costs a few lookups per component
// whatever the number of such patterns.

// ignoreRule is one line of an ignore file, parsed as go-git parses it.
type ignoreRule struct {
	prio    int // position in its layer: a later line wins
	include bool
	dirOnly bool
	// anchored: the pattern holds a slash, so it matches from the start of
	// the path below its directory; otherwise it matches any component.
	anchored bool
	elems    []string
}

// parseIgnoreRule parses a non-blank, non-comment line.
func parseIgnoreRule(line string, prio int) ignoreRule {
	r := ignoreRule{prio: prio}
	if strings.HasPrefix(line, "!") {
		r.include = true
		line = line[1:]
	}
	if !strings.HasSuffix(line, `\ `) {
		line = strings.TrimRight(line, " ")
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly = true
		line = line[:len(line)-1]
	}
	r.anchored = strings.Contains(line, "/")
	r.elems = strings.Split(line, "/")
	return r
}

// hit is the highest-priority rule of one kind found so far.
type hit struct {
	prio    int // -1: none
	include bool
}

func (h *hit) offer(r *ignoreRule) {
	if r.prio > h.prio {
		h.prio, h.include = r.prio, r.include
	}
}

// keyed holds, per key, the last rule of each dirOnly variant with that
// key: an earlier rule with the same key and variant can never win.
type keyed map[string]*[2]*ignoreRule

func (k keyed) add(key string, r *ignoreRule) {
	e := k[key]
	if e == nil {
		e = new([2]*ignoreRule)
		k[key] = e
	}
	v := 0
	if r.dirOnly {
		v = 1
	}
	e[v] = r
}

// offer offers h the rules under key, for a match ending at the path's
// last component (last) or above it. A directory-only rule does not match
// a file by its own name.
func (k keyed) offer(h *hit, key string, last, isDir bool) {
	e := k[key]
	if e == nil {
		return
	}
	if e[0] != nil {
		h.offer(e[0])
	}
	if e[1] != nil && (isDir || !last) {
		h.offer(e[1])
	}
}

// ignoreLayer holds the rules of one directory's ignore files (the root's
// also .git/info/exclude), which outrank every layer above it.
type ignoreLayer struct {
	parent *ignoreLayer
	domain []string // the directory, relative to the root

	names    keyed // "name": a component equal to it
	prefixes keyed // "abc*": a component starting with abc
	suffixes keyed // "*.ext": a component ending with .ext
	paths    keyed // "a/b" or "/a/b": the first components, joined by "/"
	// prefixLens and suffixLens are the distinct key lengths of prefixes
	// and suffixes; pathDepth the most components a key of paths has.
	prefixLens, suffixLens []int
	pathDepth              int
	rest                   []*ignoreRule // anything else, tried in order
}

// ignoreMatcher answers whether a path is ignored: the innermost layer
// with a matching rule decides, as in git.
type ignoreMatcher struct{ top *ignoreLayer }

// with returns the matcher for the directory domain whose ignore files
// hold lines; m itself is unchanged, so sibling directories never share
// rules.
func (m ignoreMatcher) with(domain []string, lines []string) ignoreMatcher {
	if len(lines) == 0 {
		return m
	}
	l := &ignoreLayer{parent: m.top, domain: append([]string(nil), domain...),
		names: keyed{}, prefixes: keyed{}, suffixes: keyed{}, paths: keyed{}}
	for i, line := range lines {
		r := parseIgnoreRule(line, i)
		l.add(&r)
	}
	return ignoreMatcher{top: l}
}

func (l *ignoreLayer) add(r *ignoreRule) {
	if !r.anchored {
		switch p := r.elems[0]; {
		case p != "" && literal(p):
			l.names.add(p, r)
			return
		case len(p) > 1 && p[len(p)-1] == '*' && literal(p[:len(p)-1]):
			l.prefixes.add(p[:len(p)-1], r)
			l.prefixLens = addLen(l.prefixLens, len(p)-1)
			return
		case len(p) > 1 && p[0] == '*' && literal(p[1:]):
			l.suffixes.add(p[1:], r)
			l.suffixLens = addLen(l.suffixLens, len(p)-1)
			return
		}
	} else {
		// Empty elements (a leading or doubled slash) match nothing and
		// are skipped; the rest must all be literal.
		var elems []string
		ok := true
		for _, e := range r.elems {
			if e != "" {
				elems = append(elems, e)
				ok = ok && literal(e)
			}
		}
		if ok && len(elems) > 0 {
			l.paths.add(strings.Join(elems, "/"), r)
			l.pathDepth = max(l.pathDepth, len(elems))
			return
		}
	}
	l.rest = append(l.rest, r)
}

// literal reports whether filepath.Match treats p as plain text.
func literal(p string) bool { return !strings.ContainsAny(p, `*?[\`) }

func addLen(ls []int, n int) []int {
	for _, l := range ls {
		if l == n {
			return ls
		}
	}
	return append(ls, n)
}

// Match reports whether path (slash-separated components relative to the
// root) is ignored.
func (m ignoreMatcher) Match(path []string, isDir bool) bool {
	for l := m.top; l != nil; l = l.parent {
		if h := l.match(path, isDir); h.prio >= 0 {
			return !h.include
		}
	}
	return false
}

// match finds the layer's last rule that matches path.
func (l *ignoreLayer) match(path []string, isDir bool) hit {
	h := hit{prio: -1}
	if len(path) <= len(l.domain) {
		return h
	}
	for i, e := range l.domain {
		if path[i] != e {
			return h
		}
	}
	p := path[len(l.domain):]
	for i, name := range p {
		last := i == len(p)-1
		l.names.offer(&h, name, last, isDir)
		for _, n := range l.prefixLens {
			if n <= len(name) {
				l.prefixes.offer(&h, name[:n], last, isDir)
			}
		}
		for _, n := range l.suffixLens {
			if n <= len(name) {
				l.suffixes.offer(&h, name[len(name)-n:], last, isDir)
			}
		}
	}
	if l.pathDepth > 0 {
		var key strings.Builder
		for k := 0; k < len(p) && k < l.pathDepth; k++ {
			if k > 0 {
				key.WriteByte('/')
			}
			key.WriteString(p[k])
			l.paths.offer(&h, key.String(), k == len(p)-1, isDir)
		}
	}
	for i := len(l.rest) - 1; i >= 0 && l.rest[i].prio > h.prio; i-- {
		if r := l.rest[i]; r.matches(p, isDir) {
			h.offer(r)
			break
		}
	}
	return h
}

// matches is go-git's pattern match for the path below the rule's
// directory.
func (r *ignoreRule) matches(p []string, isDir bool) bool {
	if !r.anchored {
		for i, name := range p {
			if ok, err := filepath.Match(r.elems[0], name); err != nil {
				return false
			} else if !ok {
				continue
			}
			return !(r.dirOnly && !isDir && i == len(p)-1)
		}
		return false
	}
	matched, canTraverse := false, false
	for i, e := range r.elems {
		if e == "" {
			canTraverse = false
			continue
		}
		if e == "**" {
			if i == len(r.elems)-1 {
				break
			}
			canTraverse = true
			continue
		}
		if strings.Contains(e, "**") || len(p) == 0 {
			return false
		}
		if canTraverse {
			canTraverse = false
			for len(p) > 0 {
				name := p[0]
				p = p[1:]
				if ok, err := filepath.Match(e, name); err != nil {
					return false
				} else if ok {
					matched = true
					break
				} else if len(p) == 0 {
					matched = false
				}
			}
			continue
		}
		if ok, err := filepath.Match(e, p[0]); err != nil || !ok {
			return false
		}
		matched = true
		p = p[1:]
	}
	return matched && !(r.dirOnly && !isDir && len(p) == 0)
}
