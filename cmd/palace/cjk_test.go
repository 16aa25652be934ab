package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// TestChineseSearch mines Chinese, mixed and English files and finds
// Chinese words inside longer runs of Han text, through the real binary.
func TestChineseSearch(t *testing.T) {
	home := t.TempDir()
	dir := t.TempDir()
	clitest.WriteTree(t, dir, map[string]string{
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

// Defect: Chinese snippets showed the segmented index text (我们 决定 使用
// 知识 识图 图谱 …), and 识图, a fragment across the words 知识 and 图谱,
// matched. Snippets now come from the verbatim text, and only sub-words
// that tile a word are indexed.
func TestChineseSnippetAndFragments(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	const text = "我们决定使用知识图谱来组织记忆。"
	clitest.WriteTree(t, dir, map[string]string{
		"kg.md":      text + "\n",
		"filler.md":  "今天的天气很好，我们去公园散步。\n",
		"filler2.md": "这是另一段无关的文字。\n",
	})
	mineOK(t, home, dir)
	out, errOut, code := runPalace(t, home, "search", "知识图谱", "--json")
	if code != 0 {
		t.Fatalf("search 知识图谱: exit %d, %s", code, errOut)
	}
	var r struct {
		Hits []struct {
			Snippet string `json:"snippet"`
		} `json:"hits"`
	}
	clitest.Decode(t, "search", out, &r)
	if len(r.Hits) != 1 {
		t.Fatalf("search 知识图谱: %s", out)
	}
	snip := r.Hits[0].Snippet
	plain := strings.NewReplacer("\x02", "", "\x03", "", "**", "").Replace(snip)
	if strings.TrimSpace(plain) != text || !strings.Contains(snip, "知识图谱") {
		t.Errorf("snippet %q is not cut from the text %q", snip, text)
	}
	for q, want := range map[string]int{"识图": 0, "华大": 0, "图谱": 1, "知识": 1} {
		if r := searchOK(t, home, q); len(r.Hits) != want {
			t.Errorf("search %s: %d hits, want %d", q, len(r.Hits), want)
		}
	}
}
