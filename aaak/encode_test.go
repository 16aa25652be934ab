package aaak

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplitSentences(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"One. Two! Three? Four; five.", []string{"One.", "Two!", "Three?", "Four;", "five."}},
		{"Use e.g. SQLite, i.e. one file. Ask Dr. Chen or J. Smith.", []string{"Use e.g. SQLite, i.e. one file.", "Ask Dr. Chen or J. Smith."}},
		{"Recall was 0.62 at rank 10. Version v1.2.3 shipped.", []string{"Recall was 0.62 at rank 10.", "Version v1.2.3 shipped."}},
		{`He said "stop." Then left.`, []string{`He said "stop."`, "Then left."}},
		{"我们决定了。为什么？因为快！好；", []string{"我们决定了。", "为什么？", "因为快！", "好；"}},
		{"结果“很好。”然后", []string{"结果“很好。”", "然后"}},
		{"- first item\n- second item\n1. numbered\n2) also", []string{"first item", "second item", "numbered", "also"}},
		{"# Heading\nBody text here", []string{"Heading", "Body text here"}},
		{"a line that wraps\nonto the next one.\nNew line starts.", []string{"a line that wraps onto the next one.", "New line starts."}},
		{"中文行\n继续", []string{"中文行继续"}},
		{"para one\n\npara two", []string{"para one", "para two"}},
		{"---\n***\n\n...", nil},
		{"  spaced   out\ttext  ", []string{"spaced out text"}},
		{"bad \xff byte.", []string{"bad \uFFFD byte."}},
		{"no terminator", []string{"no terminator"}},
	}
	for _, tc := range tests {
		if got := splitSentences(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("splitSentences(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestEscapeText(t *testing.T) {
	tests := map[string]string{
		"  a\t\tb\n\nc  ":           "a b c",
		`say "hi" | bye`:            "say 'hi' ¦ bye",
		"nul\x00and\x1besc":         "nulandesc",
		"bad\xffutf8":               "bad\uFFFDutf8",
		"nbsp\u00a0and\u2028line":   "nbsp and line",
		"\r\n":                      "",
		"rtl\u202eexe\u202c ok":     "rtlexe ok",
		"iso\u2066x\u2069 c1\u009b": "isox c1",
	}
	for in, want := range tests {
		if got := escapeText(in); got != want {
			t.Errorf("escapeText(%q) = %q, want %q", in, got, want)
		}
	}
}

func encodeOne(t *testing.T, text string, opts EncodeOptions) (*Document, *EntityMap) {
	t.Helper()
	if opts.Entities == nil {
		opts.Entities = NewEntityMap()
	}
	doc, err := Encode([]Item{{Text: text}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(doc); err != nil {
		t.Fatalf("invalid document: %v\n%s", err, Print(doc))
	}
	return doc, opts.Entities
}

func names(m *EntityMap, codes []string) []string {
	var out []string
	for _, c := range codes {
		n, _ := m.Name(c)
		out = append(out, n)
	}
	return out
}

func TestEncodeEntities(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"Alice said the index was slow.", nil}, // sentence-initial only: not a name
		{"Alice said so. I asked Alice.", []string{"Alice"}},
		{"Yesterday we met Alice Chen in Berlin.", []string{"Alice Chen", "Berlin"}},
		{"Spent the day on SQLite. Latency dropped.", []string{"SQLite"}},
		{"Full-text search uses FTS5.", []string{"FTS5"}},
		{"Use the API. The API is stable.", []string{"API"}},
		{"Maria and Jonas reviewed it with Maria.", []string{"Maria", "Jonas"}},
		{"The OK button, the I key.", nil}, // stop words and single letters
	}
	for _, tc := range tests {
		doc, m := encodeOne(t, tc.text, EncodeOptions{})
		got := names(m, doc.Zettels[0].Entities)
		if tc.want == nil {
			if !slices.Equal(doc.Zettels[0].Entities, []string{UnknownEntity}) {
				t.Errorf("%q: entities %v, want UNK", tc.text, got)
			}
			continue
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: entities %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestEncodeKnownNames: names in the caller's map are found anywhere, even
// where the capitalisation rules would not, and keep their codes.
func TestEncodeKnownNames(t *testing.T) {
	m := NewEntityMap()
	m.Add("Palace", "PLC")
	m.Add("张伟", "ZWE")
	doc, _ := encodeOne(t, "Palace stores drawers. 张伟写了代码。", EncodeOptions{Entities: m})
	if got := doc.Zettels[0].Entities; !slices.Equal(got, []string{"PLC", "ZWE"}) {
		t.Errorf("entities %v, want [PLC ZWE]", got)
	}
	if m.Len() != 2 {
		t.Errorf("map grew to %v", m.Entries())
	}
}

func TestEncodeChinese(t *testing.T) {
	text := "张伟负责搜索模块，他建议先用全文索引。北京团队担心中文分词的质量。"
	doc, m := encodeOne(t, text, EncodeOptions{Tagger: newDictTagger()})
	z := doc.Zettels[0]
	if got := names(m, z.Entities); !slices.Equal(got, []string{"张伟", "北京", "中文"}) {
		t.Errorf("entities %q", got)
	}
	for _, w := range []string{"团队", "担心", "质量"} {
		if !slices.Contains(z.Topics, w) && !strings.Contains(z.Quote, w) {
			t.Errorf("%s neither a topic nor quoted: %s", w, Print(doc))
		}
	}
	if !slices.Contains(z.Emotions, "anx") {
		t.Errorf("担心 should give anx: %v", z.Emotions)
	}

	// Without a tagger: still a valid document, no Chinese entities,
	// CJK chunks as topics.
	doc, m = encodeOne(t, text, EncodeOptions{})
	z = doc.Zettels[0]
	if m.Len() != 0 || !slices.Equal(z.Entities, []string{UnknownEntity}) {
		t.Errorf("no tagger: entities %v (map %v)", z.Entities, m.Entries())
	}
	if len(z.Topics) == 0 || z.Topics[0] == DefaultTopic || !hasCJK(z.Topics[0]) {
		t.Errorf("no tagger: topics %v", z.Topics)
	}
}

func TestEncodeFlagsAndEmotions(t *testing.T) {
	tests := []struct {
		text     string
		flags    []Flag
		emotions []string
	}{
		{"We decided to drop Redis.", []Flag{FlagDecision}, []string{"determ"}},
		{"我们决定放弃旧方案。", []Flag{FlagDecision, FlagPivot}, []string{"determ"}},
		{"因为速度更快。", []Flag{FlagDecision}, []string{"determ"}},
		{"项目的起源很简单。", []Flag{FlagOrigin}, []string{"determ"}},
		{"The project was founded in 2024.", []Flag{FlagOrigin}, []string{"determ"}},
		{"Never commit the API key; it is a secret.", []Flag{FlagTechnical, FlagSensitive}, []string{"determ"}},
		{"The capital of France.", []Flag{FlagCore}, []string{"determ"}},
		{"I was frustrated, then relieved, then happy and grateful.", []Flag{FlagCore}, []string{"frust", "relief", "joy"}},
		{"大家都很担心，后来很开心。", []Flag{FlagCore}, []string{"anx", "joy"}},
		{"Saddle up.", []Flag{FlagCore}, []string{"determ"}}, // "sad=" is exact
	}
	for _, tc := range tests {
		doc, _ := encodeOne(t, tc.text, EncodeOptions{})
		z := doc.Zettels[0]
		if !slices.Equal(z.Flags, tc.flags) || !slices.Equal(z.Emotions, tc.emotions) {
			t.Errorf("%q: flags %v emotions %v, want %v %v", tc.text, z.Flags, z.Emotions, tc.flags, tc.emotions)
		}
	}
}

func TestStars(t *testing.T) {
	tests := []struct {
		flags      []Flag
		importance float64
		want       int
	}{
		{nil, 0, 2},
		{[]Flag{FlagTechnical}, 0, 3},
		{[]Flag{FlagCore, FlagPivot}, 0, 4},
		{[]Flag{FlagDecision}, 5, 5},
		{nil, 5, 4},
		{nil, 1, 2},
		{[]Flag{FlagTechnical}, 3, 3},
		{nil, 99, 4},
		{nil, -1, 2},
		{nil, 0.2, 2},
	}
	for _, tc := range tests {
		if got := starsFor(tc.flags, tc.importance); got != tc.want {
			t.Errorf("starsFor(%v, %v) = %d, want %d", tc.flags, tc.importance, got, tc.want)
		}
	}
}

func TestEncodeItems(t *testing.T) {
	items := []Item{
		{Text: "First drawer about SQLite.", Wing: "palace", Room: "a|b", Date: "2026-04-01", Source: "x.md"},
		{Text: "", Wing: "palace", Room: "c", Date: "2026-04-02", Importance: 5},
		{Text: strings.Repeat("Sentence about indexes number one. ", 13), Wing: "palace"},
	}
	doc, err := Encode(items, EncodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(doc); err != nil {
		t.Fatal(err)
	}
	wantHeader := Header{Version: 1, Wing: "palace", Room: "a¦b,c", Date: "2026-04-01,2026-04-02", Source: "x.md"}
	if doc.Header != wantHeader {
		t.Errorf("header %+v, want %+v", doc.Header, wantHeader)
	}
	// 1 zettel, 1 fallback zettel for the empty drawer, 13 sentences at 6
	// per zettel in balanced groups (5+4+4): 3 zettels.
	if len(doc.Zettels) != 5 {
		t.Fatalf("%d zettels:\n%s", len(doc.Zettels), Print(doc))
	}
	for i, z := range doc.Zettels {
		if z.ID != uint64(i) {
			t.Errorf("zettel %d has id %d", i, z.ID)
		}
	}
	empty := doc.Zettels[1]
	if empty.Quote != "" || empty.Stars != 4 || !slices.Equal(empty.Topics, []string{DefaultTopic}) {
		t.Errorf("empty drawer zettel %+v", empty)
	}
	if _, err := Encode(nil, EncodeOptions{}); err == nil {
		t.Error("Encode(nil) succeeded")
	}
}

func TestEncodeQuote(t *testing.T) {
	long := "The " + strings.Repeat("verylongword ", 40) + "end."
	doc, _ := encodeOne(t, "Short one. "+long, EncodeOptions{MaxQuoteRunes: 60})
	q := doc.Zettels[0].Quote
	if utf8.RuneCountInString(q) > 60 || !strings.HasSuffix(q, "…") {
		t.Errorf("quote not cut to 60 runes with an ellipsis: %q", q)
	}
	// The most informative sentence is quoted, escaped.
	doc, _ = encodeOne(t, `Hi. We replaced the "old" | broken parser with a strict one.`, EncodeOptions{})
	if q := doc.Zettels[0].Quote; q != "We replaced the 'old' ¦ broken parser with a strict one." {
		t.Errorf("quote %q", q)
	}
}

// TestEncodeTopics: topics carry the other sentences' content words, each
// sentence in turn, not the quote's, in text order.
func TestEncodeTopics(t *testing.T) {
	text := "We replaced the custom tokenizer with unicode61 and gojieba segmentation. " +
		"Latency dropped. Memory usage halved."
	doc, _ := encodeOne(t, text, EncodeOptions{TopicsPerSentence: 1})
	if got := doc.Zettels[0].Topics; !slices.Equal(got, []string{"latency", "memory"}) {
		t.Errorf("topics %v, want [latency memory]", got)
	}
}

// hostileTagger returns junk: words not in the text, separators, control
// characters, empty words, and words out of order.
type hostileTagger struct{}

func (hostileTagger) Tag(text string) []TaggedWord {
	out := []TaggedWord{{"", "n"}, {"不存在的词", "nr"}, {"|", "n"}, {"_", "n"}, {"\n", "nr"}, {"数|据", "n"}, {"\"", "nz"}}
	for _, r := range text {
		out = append([]TaggedWord{{string(r), "nr"}}, out...)
	}
	return append(out, TaggedWord{text, "n"})
}

func TestEncodeHostileTagger(t *testing.T) {
	for _, text := range []string{"数|据库_很\"好\n张三。", "纯中文句子", "mixed 中文 | text_"} {
		doc, m := encodeOne(t, text, EncodeOptions{Tagger: hostileTagger{}})
		for _, e := range m.Entries() {
			if !strings.Contains(text, e.Name) {
				t.Errorf("entity %q is not in the text", e.Name)
			}
		}
		_ = doc
	}
}
