package cjk

import (
	"slices"
	"strings"

	"github.com/yanyiwu/gojieba"
)

// IndexVersion names the index text SegmentForIndex writes. Version 1 used
// jieba's search mode, whose sub-words straddle word boundaries (识图 in
// 知识图谱); version 2 keeps only the sub-words that tile a word. A store
// records the version its index texts were written with, and Resegment
// brings version 1 text up to date.
const IndexVersion = "2"

// Resegment rewrites index text that SegmentForIndex wrote at IndexVersion
// 1 as it writes it now, without the source text, which for conversations
// (noise removed, the previous exchange appended) is not the drawer's
// content. Version 1 text holds, for each word W of the precise cut, a
// group: W's dictionary 2-grams, its 3-grams, W, and (for five or more
// characters) its longer dictionary sub-words. Each run of Han tokens
// separated by single spaces is split back into such groups, and each
// group is replaced by W's group of today; everything else is copied.
//
// changed is false when the text needs nothing, and when a run does not
// read as version 1 groups (it was written by this version already, or
// with another dictionary): such a run is left as it is. Text without Han
// characters returns at once without loading the dictionaries.
func (s *Segmenter) Resegment(old string) (text string, changed bool, err error) {
	if !hasHan(old) {
		return old, false, nil
	}
	j, release, err := s.acquire(old, true)
	if err != nil {
		return "", false, err
	}
	defer release()

	type part struct {
		text string
		han  bool
	}
	var parts []part
	for run, han := range runs(old) {
		parts = append(parts, part{run, han})
	}
	memo := map[string]group{}
	var b strings.Builder
	b.Grow(len(old))
	for i := 0; i < len(parts); i++ {
		if !parts[i].han {
			b.WriteString(parts[i].text)
			continue
		}
		// Han tokens joined by single spaces: the words of one Han run of
		// the source (or of several that only a space parted).
		tokens := []string{parts[i].text}
		for i+2 < len(parts) && parts[i+1].text == " " && parts[i+2].han {
			tokens = append(tokens, parts[i+2].text)
			i += 2
		}
		words, ok := legacyWords(j, tokens, memo)
		if !ok {
			writeGroup(&b, tokens)
			continue
		}
		for k, w := range words {
			if k > 0 {
				b.WriteByte(' ')
			}
			writeGroup(&b, memo[w].index)
		}
	}
	text = b.String()
	return text, text != old, nil
}

// legacyWords splits tokens into version 1 groups and returns the word of
// each, or false when no split exists. The split is found from the end: a
// suffix starting at i is readable when some token k ≥ i is a word whose
// legacy group is exactly tokens[i:k+1+x] and the rest after it is
// readable. Groups are long only for long words, so trying each token as
// the word is enough.
func legacyWords(j *gojieba.Jieba, tokens []string, memo map[string]group) ([]string, bool) {
	m := len(tokens)
	ok := make([]bool, m+1)
	word := make([]int, m+1) // for a readable suffix: its first group's word
	next := make([]int, m+1) // and where the group ends
	ok[m] = true
	for k := m - 1; k >= 0; k-- {
		w := tokens[k]
		g, seen := memo[w]
		if !seen {
			g = wordGroup(j, w)
			memo[w] = g
		}
		at := slices.Index(g.legacy, w) // how many sub-words precede w
		i, end := k-at, k-at+len(g.legacy)
		// k runs backwards, so a suffix already readable keeps its longer
		// first group.
		if i < 0 || end > m || !ok[end] || ok[i] {
			continue
		}
		if slices.Equal(tokens[i:end], g.legacy) {
			ok[i], word[i], next[i] = true, k, end
		}
	}
	if !ok[0] {
		return nil, false
	}
	var words []string
	for i := 0; i < m; i = next[i] {
		words = append(words, tokens[word[i]])
	}
	return words, true
}
