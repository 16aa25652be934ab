package store

import (
	"context"
	"strings"
	"testing"
)

// Defect: a Chinese drawer's snippet showed its segmented index text
// (我们 决定 使用 知识 识图 图谱 …) instead of what the drawer says. The
// snippet is now cut from the content, the index text's matches marked in
// it.
func TestSnippetFromContentNotIndexText(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	zh := drawer("w", "zh", 0, "我们决定使用知识图谱来组织记忆。")
	zh.IndexText = "我们 决定 使用 知识 图谱 知识图谱 来 组织 记忆 。"
	convo := drawer("w", "c", 0, "user: <system-reminder>noise</system-reminder> Ship the parser today?\n\nassistant: Yes, ship it.")
	convo.IndexText = "user: Ship the parser today?\n\nassistant: Yes, ship it.\nuser: earlier context about releases"
	if _, err := s.InsertDrawers(ctx, []Drawer{zh, convo, drawer("w", "x", 0, "filler")}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ match, want string }{
		{`"知识图谱"`, "我们决定使用" + MarkStart + "知识图谱" + MarkEnd + "来组织记忆。"},
		{`"图谱" AND "记忆"`, "我们决定使用知识" + MarkStart + "图谱" + MarkEnd + "来组织" + MarkStart + "记忆" + MarkEnd + "。"},
		{`"parser"`, "user: <system-reminder>noise</system-reminder> Ship the " + MarkStart + "parser" + MarkEnd + " today?\n\nassistant: Yes, ship it."},
		// A word only the previous exchange holds marks nothing.
		{`"releases"`, "user: <system-reminder>noise</system-reminder> Ship the parser today?\n\nassistant: Yes, ship it."},
	} {
		hits, err := s.SearchFTS(ctx, tc.match, Filter{}, 5, nil)
		if err != nil || len(hits) != 1 {
			t.Fatalf("%s: %d hits, %v", tc.match, len(hits), err)
		}
		if hits[0].Snippet != tc.want {
			t.Errorf("%s: snippet\n %q\nwant\n %q", tc.match, hits[0].Snippet, tc.want)
		}
	}
}

func TestSourceSnippetWindow(t *testing.T) {
	long := strings.Repeat("甲", 40) + "知识图谱" + strings.Repeat("乙", 40)
	got := sourceSnippet(long, markedTerms("x "+MarkStart+"知识图谱"+MarkEnd+" y"))
	want := "…" + strings.Repeat("甲", 10) + MarkStart + "知识图谱" + MarkEnd + strings.Repeat("乙", 10) + "…"
	if got != want {
		t.Errorf("long Chinese: %q\nwant %q", got, want)
	}
	words := strings.Repeat("alpha ", 30) + "Target beta " + strings.Repeat("gamma ", 30)
	got = sourceSnippet(words, markedTerms(MarkStart+"target"+MarkEnd))
	if !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") || !strings.Contains(got, MarkStart+"Target"+MarkEnd) ||
		strings.Count(got, " ")+1 != snippetWords {
		t.Errorf("long English: %q", got)
	}
	// The window holding both terms beats the first occurrence of one.
	both := "知识 " + strings.Repeat("丙", 50) + " 知识 and 图谱 " + strings.Repeat("丁", 50)
	got = sourceSnippet(both, markedTerms(MarkStart+"知识"+MarkEnd+" "+MarkStart+"图谱"+MarkEnd))
	if !strings.Contains(got, MarkStart+"知识"+MarkEnd+" and "+MarkStart+"图谱"+MarkEnd) {
		t.Errorf("densest window: %q", got)
	}
	if got := sourceSnippet("", markedTerms(MarkStart+"x"+MarkEnd)); got != "" {
		t.Errorf("empty content: %q", got)
	}
}
