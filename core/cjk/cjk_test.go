package cjk

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// One loaded Segmenter is shared by the tests that only need segmentation:
// each instance costs about 130 MB and half a second.
var shared struct {
	once sync.Once
	seg  *Segmenter
	dir  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.seg != nil {
		shared.seg.Close()
	}
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

func sharedSegmenter(t testing.TB) *Segmenter {
	t.Helper()
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "cjk-test-cache-")
		if shared.err == nil {
			shared.seg = New(shared.dir)
		}
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.seg
}

func index(t testing.TB, s *Segmenter, text string) string {
	t.Helper()
	out, err := s.SegmentForIndex(text)
	if err != nil {
		t.Fatalf("SegmentForIndex(%q): %v", text, err)
	}
	return out
}

func query(t testing.TB, s *Segmenter, text string) []string {
	t.Helper()
	out, err := s.SegmentQuery(text)
	if err != nil {
		t.Fatalf("SegmentQuery(%q): %v", text, err)
	}
	return out
}

func TestHasCJK(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"", false},
		{"plain ASCII text, 123!", false},
		{"café naïve Ünïcödé — “quotes” ½", false},
		{"Привет мир", false},
		{"，。！", false}, // CJK punctuation is not a script character
		{"ＳＱＬ", false}, // full-width Latin
		{"中", true},
		{"mixed 清华 text", true},
		{"𠮷野家", true},  // CJK Extension B, outside the BMP
		{"〇々", true},   // Han-script ideographic zero and iteration mark
		{"ひらがな", true}, // Hiragana
		{"カタカナ", true}, // Katakana
		{"ｶﾀｶﾅ", true}, // half-width Katakana
		{"한국어", true},  // Hangul syllables
		{"\xff\xfe invalid", false},
	} {
		if got := HasCJK(tc.in); got != tc.want {
			t.Errorf("HasCJK(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestSegmentForIndexChinese(t *testing.T) {
	s := sharedSegmenter(t)
	for _, tc := range []struct{ in, want string }{
		{"我来到北京清华大学", "我 来到 北京 清华 大学 清华大学"},
		// Non-Han text is copied as is; spaces separate it from Han runs.
		{"用SQLite实现知识图谱", "用 SQLite 实现 知识 图谱 知识图谱"},
		{"数据库，查询。", "数据 数据库 ， 查询 。"},
		{"  清华大学  ", "  清华 大学 清华大学  "},
		{"Use 清华 2024年 v1.2", "Use 清华 2024 年 v1.2"},
		// Sub-words nest: 京都大学 tiles 日本京都大学, 京都 and 大学 tile it.
		{"日本京都大学", "日本 京都 京都大学 大学 日本京都大学"},
		{"中华人民共和国", "中华 中华人民 人民 共和 共和国 中华人民共和国"},
	} {
		if got := index(t, s, tc.in); got != tc.want {
			t.Errorf("SegmentForIndex(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// Defect: search mode indexed every dictionary word inside a word, so
// 知识图谱 also gave 识图 ("map reading") and 清华大学 gave 华大, and a
// search for those fragments found text that does not contain them as
// words. Only sub-words that tile the word are indexed now.
func TestSegmentForIndexNoStraddlingFragments(t *testing.T) {
	s := sharedSegmenter(t)
	for _, tc := range []struct {
		in          string
		keep, leave []string
	}{
		{"我们决定使用知识图谱", []string{"知识", "图谱", "知识图谱"}, []string{"识图"}},
		{"我来到北京清华大学", []string{"清华", "大学", "清华大学"}, []string{"华大"}},
		{"数据库", []string{"数据", "数据库"}, []string{"据库"}},
		{"中华人民共和国", []string{"中华", "人民", "共和国"}, []string{"华人", "民共"}},
	} {
		tokens := strings.Fields(index(t, s, tc.in))
		for _, w := range tc.keep {
			if !slices.Contains(tokens, w) {
				t.Errorf("%s: index tokens %q lack %q", tc.in, tokens, w)
			}
		}
		for _, w := range tc.leave {
			if slices.Contains(tokens, w) {
				t.Errorf("%s: index tokens %q hold the fragment %q, which straddles two words", tc.in, tokens, w)
			}
		}
	}
}

func TestSegmentForIndexEnglishOnlyIsFree(t *testing.T) {
	dir := t.TempDir()
	s := New(dir)
	defer s.Close()
	for _, in := range []string{
		"",
		"How to configure the SQLite FTS5 tokenizer?",
		"café — naïve “quotes”, ½ and ＳＱＬ",
		"안녕하세요 カタカナ ひらがな", // CJK but not Han: unicode61 handles it
		"\xff\xfe invalid UTF-8",
	} {
		got := index(t, s, in)
		if got != in || unsafe.StringData(got) != unsafe.StringData(in) {
			t.Errorf("SegmentForIndex(%q) = %q, want the identical string", in, got)
		}
	}
	in := "An English-only corpus must pay nothing for Chinese support."
	if allocs := testing.AllocsPerRun(100, func() { s.SegmentForIndex(in) }); allocs != 0 {
		t.Errorf("SegmentForIndex(English) allocates %v times per call, want 0", allocs)
	}
	if q := query(t, s, "  hello, world — FTS5!  "); !slices.Equal(q, []string{"hello,", "world", "FTS5!"}) {
		t.Errorf("SegmentQuery(English) = %q", q)
	}
	if tags, err := s.Tag("Paris is in France"); err != nil || tags != nil {
		t.Errorf("Tag(English) = %v, %v; want nil, nil", tags, err)
	}
	if err := s.AddWord("记忆宫殿", "n"); err != nil { // queued, not applied
		t.Fatal(err)
	}
	if s.loaded() {
		t.Fatal("jieba was loaded for text without Han characters")
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 0 {
		t.Fatalf("cache directory has %d entries (err %v); dictionaries were materialised for English text", len(entries), err)
	}
}

func TestSegmentForIndexEmpty(t *testing.T) {
	s := New(t.TempDir())
	defer s.Close()
	if got := index(t, s, ""); got != "" {
		t.Errorf("SegmentForIndex(\"\") = %q", got)
	}
	if q := query(t, s, ""); len(q) != 0 {
		t.Errorf("SegmentQuery(\"\") = %q", q)
	}
	if s.loaded() {
		t.Error("jieba was loaded for empty text")
	}
}

// The compounds a coding agent writes about must be searchable as whole
// words. The stock jieba dictionary cuts 知识图谱 into 知识 图谱 and
// 认证中间件 into 认证 中间件; dict/palace.dict.utf8 adds them.
func TestCompoundsAreTokens(t *testing.T) {
	s := sharedSegmenter(t)
	tokens := strings.Fields(index(t, s, "我们用认证中间件保护知识图谱服务"))
	for _, want := range []string{
		"知识图谱", "认证中间件",
		"知识", "图谱", "认证", "中间件", // the pieces stay searchable too
	} {
		if !slices.Contains(tokens, want) {
			t.Errorf("index tokens %q lack %q", tokens, want)
		}
	}
	q := query(t, s, "知识图谱的认证中间件")
	if !slices.Contains(q, "知识图谱") || !slices.Contains(q, "认证中间件") {
		t.Errorf("SegmentQuery = %q, want 知识图谱 and 认证中间件 as words", q)
	}
}

func TestSegmentQuery(t *testing.T) {
	s := sharedSegmenter(t)
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"清华大学", []string{"清华大学"}},
		{"用SQLite实现知识图谱", []string{"用", "SQLite", "实现", "知识图谱"}},
		// Non-Han pieces come back as typed; unicode61 ignores the punctuation.
		{"北京 清华  fts5-trigram，索引！", []string{"北京", "清华", "fts5-trigram，", "索引"}},
		{"我来到北京清华大学", []string{"我", "来到", "北京", "清华大学"}},
	} {
		if got := query(t, s, tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("SegmentQuery(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Every word of a query must be an index token of a document containing the
// query's characters as words, including words nested inside longer ones.
func TestIndexQuerySymmetry(t *testing.T) {
	s := sharedSegmenter(t)
	for _, tc := range []struct{ doc, q string }{
		{"我在清华大学读书", "清华"},
		{"我在清华大学读书", "大学"},
		{"我在清华大学读书", "清华大学"},
		{"日本京都大学的教授", "京都大学"}, // 4 chars nested in a 6-char word
		{"基于大语言模型的智能体", "语言模型"},
		{"基于大语言模型的智能体", "智能体"},
		{"用SQLite实现知识图谱", "知识 SQLite"},
		{"认证中间件校验令牌", "中间件"},
		{"南京市长江大桥", "长江大桥"},
	} {
		tokens := strings.Fields(index(t, s, tc.doc))
		for _, w := range query(t, s, tc.q) {
			if !slices.Contains(tokens, w) {
				t.Errorf("query %q word %q is not among the index tokens of %q: %q", tc.q, w, tc.doc, tokens)
			}
		}
	}
}

func TestTag(t *testing.T) {
	s := sharedSegmenter(t)
	tags, err := s.Tag("我来到北京清华大学，用 SQLite 做检索")
	if err != nil {
		t.Fatal(err)
	}
	pos := map[string]string{}
	for _, tg := range tags {
		pos[tg.Word] = tg.POS
		if strings.TrimSpace(tg.Word) == "" || tg.Word == "，" {
			t.Errorf("Tag kept a space/punctuation token %+v", tg)
		}
	}
	// Text after a NUL or invalid UTF-8 is still tagged.
	more, err := s.Tag("前言\x00我住在北京\xff上海")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(more, Tagged{"北京", "ns"}) || !slices.Contains(more, Tagged{"上海", "ns"}) {
		t.Errorf("Tag with NUL and invalid UTF-8 = %v", more)
	}
	for word, want := range map[string]string{"北京": "ns", "清华大学": "nt", "SQLite": "eng"} {
		if pos[word] != want {
			t.Errorf("Tag: %s/%s, want %s (all: %v)", word, pos[word], want, tags)
		}
	}
}

func TestAddWord(t *testing.T) {
	s := New(t.TempDir())
	defer s.Close()
	// Queued before loading...
	if err := s.AddWord("宫殿抽屉", "nz"); err != nil {
		t.Fatal(err)
	}
	if s.loaded() {
		t.Fatal("AddWord loaded jieba")
	}
	tags, err := s.Tag("记忆宫殿里的宫殿抽屉")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(tags, Tagged{"宫殿抽屉", "nz"}) {
		t.Errorf("queued word not applied: %v", tags)
	}
	// ...and applied at once afterwards.
	if err := s.AddWord("抽屉索引", ""); err != nil {
		t.Fatal(err)
	}
	if q := query(t, s, "抽屉索引"); !slices.Equal(q, []string{"抽屉索引"}) {
		t.Errorf("word added after loading not applied: %q", q)
	}
	// AddWord takes the write lock while segmentation runs under the read
	// lock; run them together for the race detector.
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for k := range 20 {
				if i == 0 {
					if err := s.AddWord(fmt.Sprintf("并发词%d", k), "n"); err != nil {
						t.Error(err)
					}
					continue
				}
				if _, err := s.SegmentForIndex("并发词汇测试"); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	for _, bad := range []string{"", "two words", "\xff"} {
		if err := s.AddWord(bad, ""); err == nil {
			t.Errorf("AddWord(%q) accepted", bad)
		}
	}
}

func TestClose(t *testing.T) {
	s := New(t.TempDir())
	index(t, s, "清华大学")
	if !s.loaded() {
		t.Fatal("not loaded after Chinese text")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil { // idempotent
		t.Fatal(err)
	}
	if s.loaded() {
		t.Error("still loaded after Close")
	}
	if _, err := s.SegmentForIndex("清华大学"); !errors.Is(err, ErrClosed) {
		t.Errorf("SegmentForIndex after Close: %v, want ErrClosed", err)
	}
	if _, err := s.Tag("北京"); !errors.Is(err, ErrClosed) {
		t.Errorf("Tag after Close: %v, want ErrClosed", err)
	}
	if err := s.AddWord("北京", ""); !errors.Is(err, ErrClosed) {
		t.Errorf("AddWord after Close: %v, want ErrClosed", err)
	}

	// Closed before first use: nothing is ever loaded.
	dir := t.TempDir()
	s2 := New(dir)
	s2.Close()
	if _, err := s2.SegmentQuery("北京"); !errors.Is(err, ErrClosed) {
		t.Errorf("SegmentQuery on a Segmenter closed before use: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 || s2.loaded() {
		t.Error("a Segmenter closed before use loaded its dictionaries")
	}
}

func TestConcurrentUse(t *testing.T) {
	s := sharedSegmenter(t)
	want := index(t, s, "我来到北京清华大学")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				got, err := s.SegmentForIndex("我来到北京清华大学")
				if err != nil || got != want {
					t.Errorf("concurrent SegmentForIndex = %q, %v", got, err)
					return
				}
				if _, err := s.Tag("北京欢迎你"); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}
