package cjk

import (
	"cmp"
	"slices"
	"unicode/utf8"

	"github.com/yanyiwu/gojieba"
)

// piece is a dictionary word inside a longer word, as rune offsets
// [start, end).
type piece struct{ start, end int }

func (p piece) len() int { return p.end - p.start }

// group is what the index holds for one word of the precise cut.
type group struct {
	// index is the word's sub-words (see subWords) followed by the word.
	index []string
	// legacy is what SegmentForIndex wrote for the word before the
	// sub-words had to tile it: jieba's search mode (the word's dictionary
	// 2-grams, then its 3-grams, then the word) and, for words of five or
	// more characters, its dictionary sub-words of four or more characters
	// after it. Resegment reads index text written that way.
	legacy []string
}

// wordGroup computes both groups of word w with one CutAll call.
func wordGroup(j *gojieba.Jieba, w string) group {
	rs := []rune(w)
	if len(rs) < 3 {
		// No dictionary word of two or more characters fits strictly
		// inside a word of two.
		return group{index: []string{w}, legacy: []string{w}}
	}
	all := j.CutAll(w)
	ps := pieces(rs, all)
	var g group
	for _, p := range subWords(ps, piece{0, len(rs)}) {
		g.index = append(g.index, string(rs[p.start:p.end]))
	}
	g.index = append(g.index, w)

	// jieba's search mode: 2-grams if the word is longer than 2, 3-grams if
	// longer than 3, each in text order, then the word; CutAll lists the
	// dictionary words by start, so filtering it keeps that order.
	for _, n := range []int{2, 3} {
		if len(rs) > n {
			for _, c := range all {
				if utf8.RuneCountInString(c) == n {
					g.legacy = append(g.legacy, c)
				}
			}
		}
	}
	g.legacy = append(g.legacy, w)
	if len(rs) >= 5 {
		for _, c := range all {
			if c != w && utf8.RuneCountInString(c) >= 4 {
				g.legacy = append(g.legacy, c)
			}
		}
	}
	return g
}

// pieces locates the words of CutAll(w) (the dictionary words inside w)
// in rs, the runes of w, keeping those of two or more characters other
// than w itself. CutAll gives words without offsets, ordered by start and,
// at one start, by length, so each is found at the first place at or
// after the previous word's start that keeps that order: an earlier
// occurrence would have been listed earlier.
func pieces(rs []rune, all []string) []piece {
	var out []piece
	pos, last := 0, 0
	for _, c := range all {
		cr := []rune(c)
		n := len(cr)
		if n < 2 || n == len(rs) {
			continue
		}
		for p := pos; p+n <= len(rs); p++ {
			if p == pos && n <= last {
				continue // a word at the previous start is longer than the one before it
			}
			if slices.Equal(rs[p:p+n], cr) {
				out = append(out, piece{p, p + n})
				pos, last = p, n
				break
			}
		}
	}
	return out
}

// subWords returns the sub-words of w (the span whole, of at least 3
// characters) that the index holds besides w: the dictionary words of one
// tiling of w, and recursively of each of its words of three or more
// characters, ordered by start and then length. Words of one tiling never
// overlap, so every sub-word starts and ends on a word boundary inside w:
// 知识图谱 gives 知识 and 图谱, never 识图 (a dictionary word that straddles
// the two).
//
// The tiling covers w with dictionary words (and single characters where
// none fits) and is chosen, like jieba's own cut, for the fewest
// characters left single, then the fewest words, then the longest first
// word: 日本京都大学 is 日本 + 京都大学 (then 京都大学 is 京都 + 大学),
// 共和国 is 共和 + 国. A word that no dictionary word of two or more
// characters tiles better than single characters has no sub-words.
func subWords(ps []piece, whole piece) []piece {
	type cost struct{ singles, words int }
	less := func(a, b cost) bool {
		return a.singles < b.singles || a.singles == b.singles && a.words < b.words
	}
	n := whole.len()
	best := make([]cost, n+1)
	next := make([]int, n+1) // end of the word chosen at each offset
	for i := n - 1; i >= 0; i-- {
		best[i] = cost{best[i+1].singles + 1, best[i+1].words + 1}
		next[i] = i + 1
		for _, p := range ps {
			s, e := p.start-whole.start, p.end-whole.start
			if s != i || e > n || p == whole {
				continue
			}
			// Longer pieces come later for one start, so ties go to them.
			if c := (cost{best[e].singles, best[e].words + 1}); !less(best[i], c) {
				best[i], next[i] = c, e
			}
		}
	}
	var out []piece
	for i := 0; i < n; i = next[i] {
		if next[i]-i < 2 {
			continue
		}
		p := piece{whole.start + i, whole.start + next[i]}
		out = append(out, p)
		if p.len() >= 3 {
			out = append(out, subWords(ps, p)...)
		}
	}
	slices.SortFunc(out, func(a, b piece) int {
		return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(a.len(), b.len()))
	})
	return out
}
