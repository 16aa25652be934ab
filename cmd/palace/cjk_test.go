package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestChineseSearch mines Chinese, mixed and English files and finds
// Chinese words inside longer runs of Han text, through the real binary.
func TestChineseSearch(t *testing.T) {
	home := t.TempDir()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"zh/kg.md":      "我们决定用知识图谱记录项目里的每个决定。\n",
		"zh/auth.md":    "登录接口前面加了认证中间件，令牌过期时返回401。\n",
		"mixed/db.md":   "用SQLite实现向量检索，FTS5负责关键词。\n",
		"en/notes.md":   "The goroutine leak came from an unclosed channel.\n",
		"en/filler.md":  "Unrelated filler text about build scripts.\n",
		"zh/filler.md":  "今天的天气很好，我们去公园散步。\n",
		"zh/filler2.md": "这是另一段无关的文字。\n",
	})
	mineOK(t, home, dir)
	for q, want := range map[string]string{
		"知识图谱":         "kg.md",
		"认证中间件":        "auth.md",
		"中间件":          "auth.md",
		"SQLite 向量检索":  "db.md",
		"sqlite":       "db.md",
		"goroutine 泄漏": "notes.md", // falls back to any-term hits
	} {
		r := searchOK(t, home, q)
		if len(r.Hits) == 0 {
			t.Errorf("search %q: no hits", q)
			continue
		}
		if got := filepath.Base(r.Hits[0].Source); got != want {
			t.Errorf("search %q: top hit %s, want %s", q, got, want)
		}
		// The drawer keeps the text verbatim, not the segmented index text.
		b, err := os.ReadFile(r.Hits[0].Source)
		if err != nil {
			t.Fatal(err)
		}
		if r.Hits[0].Content != string(b) {
			t.Errorf("search %q: content %q is not the file's text %q", q, r.Hits[0].Content, b)
		}
	}
	if r := searchOK(t, home, "公园散步 知识图谱"); len(r.Hits) == 0 || r.Hits[0].Match != "any" {
		t.Errorf("two unrelated Chinese words should only match as 'any': %+v", r.Hits)
	}
}
