package query

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		in, all, any string
	}{
		{"goroutine leak", `("goroutine" AND "leak")`, `("goroutine" OR "leak")`},
		{"the goroutine of a leak", `("goroutine" AND "leak")`, `("goroutine" OR "leak")`},
		{"the who", `("the" AND "who")`, `("the" OR "who")`}, // only stop words: keep them
		{`"read deadline" tls`, `("read deadline" AND "tls")`, `("read deadline" OR "tls")`},
		{"deadlock -test", `("deadlock") NOT ("test")`, `("deadlock") NOT ("test")`},
		{"pars*", `("pars"*)`, `("pars"*)`},
		{`say "hi`, `("say" AND "hi")`, `("say" OR "hi")`},
		{`a"b`, `("ab")`, `("ab")`},
		{"errors.Is", `("errors.Is")`, `("errors.Is")`},
		{"(((", ``, ``},
		{"-", ``, ``},
		{"-only", ``, ``},
		{"***", ``, ``},
		{"", ``, ``},
	}
	for _, c := range cases {
		q, err := Parse(c.in, nil)
		if err != nil {
			t.Fatal(err)
		}
		if q.All != c.all || q.Any != c.any {
			t.Errorf("Parse(%q):\n all %s\n any %s\nwant\n all %s\n any %s", c.in, q.All, q.Any, c.all, c.any)
		}
	}
}

func TestSegmenterSplitsWords(t *testing.T) {
	seg := func(s string) ([]string, error) {
		if s == "知识图谱" {
			return []string{"知识", "图谱"}, nil
		}
		return []string{s}, nil
	}
	q, _ := Parse("知识图谱 sqlite", seg)
	if q.All != `("知识" AND "图谱" AND "sqlite")` {
		t.Errorf("segmented query = %s", q.All)
	}
	q, _ = Parse(`"知识图谱"`, seg)
	if q.All != `("知识" AND "图谱")` {
		t.Errorf("segmented phrase = %s", q.All)
	}
}

func TestControlAndInvalidUTF8(t *testing.T) {
	q, _ := Parse("bad\x00byte \xff\xfe ok", nil)
	if strings.ContainsAny(q.All, "\x00\xff") {
		t.Errorf("unsafe bytes kept: %q", q.All)
	}
	if q.All != `("bad" AND "byte" AND "ok")` {
		t.Errorf("got %s", q.All)
	}
}
