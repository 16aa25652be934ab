package bench

import (
	"path"
	"regexp"
	"strings"

	"github.com/palace-dev/palace/core/search"
)

// The commit selection of `palace bench code`: which files are source,
// which subjects make a query and what the query is. All pure, so each
// rule is tested on its own.

// isSource says whether the repository path p (slash-separated) is a
// source file: a code extension, not a test, not under a test, vendored,
// docs or examples folder.
func isSource(p string) bool {
	if !search.IsCodeExt(path.Ext(p)) {
		return false
	}
	dir, base := path.Split(p)
	for _, d := range strings.Split(strings.Trim(dir, "/"), "/") {
		if search.NotSourceDir(d) {
			return false
		}
	}
	return !search.IsTestName(base)
}

var (
	trailingPR   = regexp.MustCompile(`\s*\(#\d+\)\s*$`)
	conventional = regexp.MustCompile(`(?i)^(feat|fix|chore|docs|style|refactor|perf|test|tests|build|ci|revert|deps)(\([^)]*\))?!?:\s*`)
	// An area prefix names packages or paths with no spaces inside a name:
	// "net/http: ", "cmd/go, go/build: ", "all: ".
	areaPrefix = regexp.MustCompile(`^[\w.\-/*{}]+(,\s*[\w.\-/*{}]+)*:\s+`)
	longWord   = regexp.MustCompile(`\pL{3,}`)
	versionNum = regexp.MustCompile(`\bv?\d+\.\d+`)
	bumpWord   = regexp.MustCompile(`(?i)\b(bump|bumps|bumped|release|released|releasing|version|changelog)\b`)
	onlyVer    = regexp.MustCompile(`^v?\d+(\.\d+)+\S*$`)
)

// cleanSubject turns a commit subject into a query: a trailing "(#123)",
// a conventional-commit prefix and a leading area prefix removed.
func cleanSubject(s string) string {
	s = strings.TrimSpace(s)
	for {
		t := trailingPR.ReplaceAllString(s, "")
		if t == s {
			break
		}
		s = t
	}
	s = conventional.ReplaceAllString(s, "")
	s = areaPrefix.ReplaceAllString(s, "")
	return strings.Join(strings.Fields(s), " ")
}

// skipSubject says why a subject makes no query ("" when it makes one):
// merges, reverts, version bumps, and queries of fewer than three words of
// three letters or more.
func skipSubject(subject, query string) string {
	low := strings.ToLower(strings.TrimSpace(subject))
	switch {
	case strings.HasPrefix(low, "merge "):
		return "merge"
	case strings.HasPrefix(low, "revert") || strings.HasPrefix(strings.ToLower(query), "revert"):
		return "revert"
	case onlyVer.MatchString(query) || versionNum.MatchString(query) && bumpWord.MatchString(subject) ||
		strings.HasPrefix(low, "chore(release)") || strings.HasPrefix(low, "chore(deps)"):
		return "version bump"
	case len(longWord.FindAllString(query, -1)) < 3:
		return "short"
	}
	return ""
}

// codeCommit is a commit as git log lists it: subject and changed files.
type codeCommit struct {
	Hash    string
	Subject string
	Files   []string
}

// codeQuery is one benchmark question: the cleaned subject and the source
// files its commit changed.
type codeQuery struct {
	Commit string   `json:"commit"`
	Query  string   `json:"query"`
	Gold   []string `json:"gold"`
}

// selectQueries picks, from commits newest first, at most max queries:
// commits changing 1 to 4 source files that all exist at HEAD (exists),
// whose subject makes a query (skipSubject) not seen before and that ok
// accepts (the search's own validation, so a query Palace refuses is
// nobody's miss). skipped counts the commits passed over, by reason.
func selectQueries(commits []codeCommit, exists func(string) bool, ok func(string) bool, max int) (qs []codeQuery, skipped map[string]int) {
	skipped = map[string]int{}
	seen := map[string]bool{}
	for _, c := range commits {
		if len(qs) >= max {
			break
		}
		var gold []string
		gone := false
		for _, f := range c.Files {
			if !isSource(f) {
				continue
			}
			if !exists(f) {
				gone = true
				break
			}
			gold = append(gold, f)
		}
		gold = dedupeStrings(gold)
		q := cleanSubject(c.Subject)
		key := strings.ToLower(q)
		why := skipSubject(c.Subject, q)
		switch {
		case gone:
			why = "source file gone at HEAD"
		case len(gold) == 0:
			why = "no source file"
		case len(gold) > 4:
			why = "more than 4 source files"
		case why != "":
		case seen[key]:
			why = "repeat"
		case !ok(q):
			why = "refused by search"
		}
		if why != "" {
			skipped[why]++
			continue
		}
		seen[key] = true
		qs = append(qs, codeQuery{Commit: c.Hash, Query: q, Gold: gold})
	}
	return qs, skipped
}

// dedupeStrings keeps the first occurrence of each string, in order.
func dedupeStrings(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
