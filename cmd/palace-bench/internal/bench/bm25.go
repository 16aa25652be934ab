package bench

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// The reference of `palace bench code`: plain BM25 over fixed-size chunks,
// the baseline any code search should beat. Nothing here is tuned.

const (
	bm25K1        = 1.2
	bm25B         = 0.75
	refChunkRunes = 800
)

// englishStop is Lucene's English stop-word set, the classic default.
var englishStop = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "but": true,
	"by": true, "for": true, "if": true, "in": true, "into": true, "is": true, "it": true, "no": true,
	"not": true, "of": true, "on": true, "or": true, "such": true, "that": true, "the": true,
	"their": true, "then": true, "there": true, "these": true, "they": true, "this": true, "to": true,
	"was": true, "will": true, "with": true,
}

// refTokens splits text into lowercase tokens: runs of letters and digits,
// each split at camelCase boundaries ("parseHTTPRequest" -> parse, http,
// request; digits stay with their letters: "utf8"), stop words dropped.
func refTokens(text string) []string {
	var out []string
	emit := func(w []rune) {
		if len(w) == 0 {
			return
		}
		t := strings.ToLower(string(w))
		if !englishStop[t] {
			out = append(out, t)
		}
	}
	rs := []rune(text)
	start := -1
	for i := 0; i <= len(rs); i++ {
		if i < len(rs) && (unicode.IsLetter(rs[i]) || unicode.IsDigit(rs[i])) {
			if start < 0 {
				start = i
			} else if camelBreak(rs, i) {
				emit(rs[start:i])
				start = i
			}
			continue
		}
		if start >= 0 {
			emit(rs[start:i])
			start = -1
		}
	}
	return out
}

// camelBreak says whether a word starts at rs[i] inside a letter-digit
// run: a lower-case letter or digit followed by an upper-case one
// ("parseHTTP"), or the last capital of an acronym followed by a lower-case
// letter ("HTTPRequest" breaks before "R").
func camelBreak(rs []rune, i int) bool {
	prev, cur := rs[i-1], rs[i]
	if !unicode.IsUpper(cur) {
		return false
	}
	if unicode.IsLower(prev) || unicode.IsDigit(prev) {
		return true
	}
	return unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
}

// refChunk is one chunk of the reference index.
type refChunk struct {
	file string
	len  int // tokens
}

// refIndex is an inverted index of chunks.
type refIndex struct {
	chunks   []refChunk
	postings map[string][]refPosting
	avgLen   float64
}

type refPosting struct {
	chunk int
	tf    int
}

// newRefIndex indexes files (path -> text), in path order: each text is
// cut into chunks of refChunkRunes characters and each chunk's text is
// prefixed with its path.
func newRefIndex(files map[string]string) *refIndex {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	ix := &refIndex{postings: map[string][]refPosting{}}
	total := 0
	for _, p := range paths {
		rs := []rune(files[p])
		for lo := 0; lo < len(rs) || lo == 0; lo += refChunkRunes {
			hi := min(lo+refChunkRunes, len(rs))
			toks := refTokens(p + "\n" + string(rs[lo:hi]))
			id := len(ix.chunks)
			ix.chunks = append(ix.chunks, refChunk{file: p, len: len(toks)})
			total += len(toks)
			tf := map[string]int{}
			for _, t := range toks {
				tf[t]++
			}
			for t, n := range tf {
				ix.postings[t] = append(ix.postings[t], refPosting{chunk: id, tf: n})
			}
			if hi == len(rs) {
				break
			}
		}
	}
	if len(ix.chunks) > 0 {
		ix.avgLen = float64(total) / float64(len(ix.chunks))
	}
	return ix
}

// score scores every chunk holding a query term with BM25, each distinct
// query term once, idf = ln(1 + (N-df+0.5)/(df+0.5)) (never negative).
func (ix *refIndex) score(query string) map[int]float64 {
	scores := map[int]float64{}
	n := float64(len(ix.chunks))
	for _, t := range dedupeStrings(refTokens(query)) {
		ps := ix.postings[t]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range ps {
			tf := float64(p.tf)
			norm := bm25K1 * (1 - bm25B + bm25B*float64(ix.chunks[p.chunk].len)/ix.avgLen)
			scores[p.chunk] += idf * tf * (bm25K1 + 1) / (tf + norm)
		}
	}
	return scores
}

// search returns the files of the chunks score finds, best first (ties in
// index order: by path, then position in the file), collapsed to k files.
func (ix *refIndex) search(query string, k int) []string {
	scores := ix.score(query)
	ids := make([]int, 0, len(scores))
	for id := range scores {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(a, b int) bool {
		if scores[ids[a]] != scores[ids[b]] {
			return scores[ids[a]] > scores[ids[b]]
		}
		return ids[a] < ids[b]
	})
	files := make([]string, 0, len(ids))
	for _, id := range ids {
		files = append(files, ix.chunks[id].file)
	}
	return collapse(files, k)
}
