package cjk

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// segmentV1 is SegmentForIndex as IndexVersion 1 wrote it (jieba's search
// mode plus the 4+-character sub-words of 5+-character words), kept here
// to make the index text that palaces mined before version 2 hold.
func segmentV1(t *testing.T, s *Segmenter, text string) string {
	t.Helper()
	j, release, err := s.acquire(text, true)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	var b strings.Builder
	prevHan := false
	for run, han := range runs(text) {
		if !han {
			if prevHan && !startsWithSpace(run) {
				b.WriteByte(' ')
			}
			b.WriteString(run)
			prevHan = false
			continue
		}
		if b.Len() > 0 && !endsWithSpace(b.String()) {
			b.WriteByte(' ')
		}
		var toks []string
		for _, tok := range j.CutForSearch(run, true) {
			toks = append(toks, tok)
			if utf8.RuneCountInString(tok) >= 5 {
				for _, sub := range j.CutAll(tok) {
					if sub != tok && utf8.RuneCountInString(sub) >= 4 {
						toks = append(toks, sub)
					}
				}
			}
		}
		b.WriteString(strings.Join(toks, " "))
		prevHan = true
	}
	return b.String()
}

func TestResegmentFixtures(t *testing.T) {
	s := sharedSegmenter(t)
	for _, tc := range []struct{ old, want string }{
		// What version 1 wrote for the texts of TestSegmentForIndexChinese.
		{"我 来到 北京 清华 华大 大学 清华大学", "我 来到 北京 清华 大学 清华大学"},
		{"用 SQLite 实现 知识 识图 图谱 知识图谱", "用 SQLite 实现 知识 图谱 知识图谱"},
		{"数据 据库 数据库 ， 查询 。", "数据 数据库 ， 查询 。"},
		{"  清华 华大 大学 清华大学  ", "  清华 大学 清华大学  "},
		{"日本 京都 大学 日本京都大学 京都大学", "日本 京都 京都大学 大学 日本京都大学"},
		// A conversation's index text: speakers, noise removed, the
		// previous exchange after a line break.
		{"user: 知识 识图 图谱 知识图谱 怎么 建\n\nassistant: 用 SQLite", "user: 知识 图谱 知识图谱 怎么 建\n\nassistant: 用 SQLite"},
	} {
		got, changed, err := s.Resegment(tc.old)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want || !changed {
			t.Errorf("Resegment(%q)\n got %q (changed %v)\nwant %q", tc.old, got, changed, tc.want)
		}
	}
	// Text of this version, English and unreadable runs stay as they are.
	for _, in := range []string{
		index(t, s, chineseSample), "plain English", "清华 清华 清华", "图谱 识图 知识",
	} {
		if got, changed, err := s.Resegment(in); err != nil || changed || got != in {
			t.Errorf("Resegment(%q) = %q, %v, %v; want it unchanged", in, got, changed, err)
		}
	}
}

// Resegment turns what version 1 wrote into exactly what SegmentForIndex
// writes now, for prose with words that straddle and words that nest.
func TestResegmentMatchesSegmentForIndex(t *testing.T) {
	s := sharedSegmenter(t)
	for _, text := range []string{
		chineseSample, chineseSample + englishSample,
		"我来到北京清华大学，日本京都大学的教授研究大语言模型。中华人民共和国 南京市长江大桥",
		"清华 大学", "数据库数据库", "哈哈哈哈哈", "我们决定使用知识图谱来组织记忆",
	} {
		old := segmentV1(t, s, text)
		got, _, err := s.Resegment(old)
		if err != nil {
			t.Fatal(err)
		}
		if want := index(t, s, text); got != want {
			t.Errorf("Resegment(v1 of %q)\n got %q\nwant %q\n  v1 %q", text, got, want, old)
		}
	}
}
