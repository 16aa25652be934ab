package search

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/chunk"
	"github.com/palace-dev/palace/core/convo"
	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
)

// speakersPalace mines testdata/speakers.txt through the path chat exports
// take: one conversation per "## DATE" session, its first speaker in the
// user role, so an exchange is a message and its reply.
func speakersPalace(t *testing.T) *palace.Palace {
	t.Helper()
	b, err := os.ReadFile("testdata/speakers.txt")
	if err != nil {
		t.Fatal(err)
	}
	return conversationPalace(t, string(b))
}

// conversationPalace mines text, written as testdata/speakers.txt is,
// into a fresh palace.
func conversationPalace(t *testing.T, text string) *palace.Palace {
	t.Helper()
	var convs []convo.Conversation
	first := ""
	for _, line := range strings.Split(text, "\n") {
		if d, ok := strings.CutPrefix(line, "## "); ok {
			if _, err := time.Parse("2006-01-02", d); err != nil {
				t.Fatalf("session %q: %v", d, err)
			}
			convs = append(convs, convo.Conversation{ID: d, Format: "test", Meta: map[string]string{"date": d}})
			first = ""
			continue
		}
		name, text, ok := strings.Cut(line, ": ")
		if !ok || strings.HasPrefix(line, "#") || len(convs) == 0 {
			continue
		}
		c := &convs[len(convs)-1]
		if first == "" {
			first = name
		}
		role := convo.RoleAssistant
		if name == first {
			role = convo.RoleUser
		}
		when, _ := time.Parse("2006-01-02", c.ID)
		c.Messages = append(c.Messages, convo.Message{Index: len(c.Messages), Speaker: name, Role: role, Time: when, Text: text})
	}
	return minedPalace(t, convs)
}

// minedPalace is a fresh palace holding convs, mined as chat exports are.
func minedPalace(tb testing.TB, convs []convo.Conversation) *palace.Palace {
	tb.Helper()
	p := palacetest.OpenPalace(tb)
	if _, err := mine.Conversations(context.Background(), p, "friends", "chat", convs, chunk.Default); err != nil {
		tb.Fatal(err)
	}
	return p
}

// TestSpeakerFixture: a question about a person finds first what that
// person said (testdata/speakers.want.tsv), with the why saying so.
func TestSpeakerFixture(t *testing.T) {
	p := speakersPalace(t)
	f, err := os.Open("testdata/speakers.want.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if strings.HasPrefix(sc.Text(), "#") || strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) != 3 {
			t.Fatalf("want row %q: need query, text, why", sc.Text())
		}
		rows++
		res, err := Run(context.Background(), p, Request{Query: cols[0]})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 {
			t.Errorf("%q: no hits", cols[0])
			continue
		}
		if h := res.Hits[0]; !strings.Contains(h.Content, cols[1]) || h.Why != cols[2] {
			t.Errorf("%q: first hit %q (why %q), want one holding %q (why %q)", cols[0], h.Content, h.Why, cols[1], cols[2])
		}
	}
	if rows == 0 {
		t.Fatal("no want rows")
	}
}

// TestCompareBySpeaker: a question naming both speakers is asked once per
// speaker, and the two sub-queries' best hits open the answer.
func TestCompareBySpeaker(t *testing.T) {
	p := speakersPalace(t)
	res, err := Run(context.Background(), p, Request{Query: "What have Caroline and Melanie both painted?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Facets) != 2 || res.Facets[0].About != "Caroline" || res.Facets[1].About != "Melanie" ||
		res.Facets[0].Query != "What have Caroline and both painted?" || res.Facets[1].Query != "What have and Melanie both painted?" {
		t.Fatalf("facets = %+v", res.Facets)
	}
	if len(res.Hits) < 2 {
		t.Fatalf("hits = %+v", res.Hits)
	}
	want := []struct{ text, why string }{
		{"I painted a sunset", "about Caroline: Caroline says painted, painting"},
		{"I finally painted a horse", "about Melanie: Melanie says painted"},
	}
	for i, w := range want {
		if h := res.Hits[i]; !strings.Contains(h.Content, w.text) || h.Why != w.why {
			t.Errorf("hit %d = %q (why %q), want one holding %q (why %q)", i+1, h.Content, h.Why, w.text, w.why)
		}
	}
}

func TestSpeakerFocusRules(t *testing.T) {
	meta := `{"speakers":["Caroline","Melanie Smith"]}`
	content := "Caroline: I painted a lake.\n\nMelanie Smith: Lovely!\nAnd I painted too."
	cases := []struct {
		name    string
		kind    string
		query   string
		matched []string
		ok      bool
		why     string
	}{
		{"a surname names the speaker; her second line is hers", "conversation", "what has smith painted", []string{"painted"}, true, "Melanie Smith says painted"},
		{"the other speaker alone says it", "conversation", "what has Melanie painted", []string{"lake"}, true, "Melanie Smith says none of its matched words (lake): ranked lower"},
		{"she only asks about it", "conversation", "does Melanie paint lakes", []string{"lake", "lovely"}, true, "Melanie Smith says none of its matched words (lake, lovely; only asks about lake, lovely): ranked lower"},
		{"she exclaims it, then asks", "conversation", "does Melanie paint lakes", []string{"lake"}, true, "Melanie Smith says lake"},
		{"a question mark inside a link asks nothing", "conversation", "does Melanie paint lakes", []string{"lake"}, true, "Melanie Smith says lake"},
		{"a question and an exclamation mark still ask", "conversation", "does Melanie paint lakes", []string{"lake"}, true, "Melanie Smith says none of its matched words (lake; only asks about lake): ranked lower"},
		{"both named: no focus", "conversation", "Caroline and Melanie", []string{"painted"}, false, ""},
		{"none named", "conversation", "who painted", []string{"painted"}, false, ""},
		{"a stop word names nobody", "conversation", "what will she paint", []string{"painted"}, false, ""},
		{"two of three named (Will is not, being a stop word)", "conversation", "what have Caroline, Melanie and Will painted", []string{"painted"}, true, "Caroline and Melanie Smith say painted"},
		{"only names matched", "conversation", "Melanie", []string{"Melanie"}, false, ""},
		{"not a conversation", "file", "what has Melanie painted", []string{"painted"}, false, ""},
		{"a verbatim transcript line is not read by speaker", "conversation", "what has Melanie painted", []string{"painted"}, false, ""},
	}
	for _, c := range cases {
		text, meta := content, meta
		if strings.Contains(strings.ToLower(c.query), "will") {
			meta = `{"speakers":["Caroline","Melanie Smith","Will"]}`
			text += "\nWill: I painted a door."
		}
		switch {
		case strings.HasPrefix(c.name, "she only asks"):
			text = "Caroline: I painted a lake.\n\nMelanie Smith: Is it lovely? Which lake?"
		case strings.HasPrefix(c.name, "she exclaims"):
			text = "Caroline: I painted a lake.\n\nMelanie Smith: A lake! Which lake?"
		case strings.HasPrefix(c.name, "a question and an exclamation"):
			text = "Caroline: I painted a lake.\n\nMelanie Smith: A lake?! Which lake?"
		case strings.HasPrefix(c.name, "a question mark inside"):
			text = "Caroline: I painted a lake.\n\nMelanie Smith: lake pics at http://localhost:8080/album?id=3 for you"
		}
		if strings.HasPrefix(c.name, "a verbatim") {
			text = `{"type":"user","message":"Caroline painted"}` + "\n" + `{"type":"assistant","message":"Melanie painted"}`
		}
		f, ok := speakerFocus(c.kind, meta, text, c.matched, queryWords(c.query))
		if ok != c.ok || ok && f.why() != c.why {
			t.Errorf("%s: ok %v why %q, want %v %q", c.name, ok, f.why(), c.ok, c.why)
		}
	}
}

// TestNamedTimeRefers: "last month", said on 20 July 2023, is June 2023, so
// a question naming June finds that exchange first, though it was said in
// July and other exchanges happened in June.
func TestNamedTimeRefers(t *testing.T) {
	p := speakersPalace(t)
	res, err := Run(context.Background(), p, Request{Query: "Which race did Melanie's brother finish in June 2023?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || !strings.Contains(res.Hits[0].Content, "charity marathon") || res.TimeHint == nil {
		t.Fatalf("hits = %+v, time hint %v", res.Hits, res.TimeHint)
	}
	if why := res.Hits[0].Why; why != "Melanie says finished, finish; refers to 2023-06-01, in the period the query names" {
		t.Errorf("why = %q", why)
	}
	june := 0
	for _, h := range res.Hits[1:] {
		if h.Time != nil && h.Time.Month() == time.June {
			june++
			if !strings.HasSuffix(h.Why, "happened in the period the query names") {
				t.Errorf("a hit of 12 June says %q", h.Why)
			}
		}
	}
	if june == 0 {
		t.Error("no hit from June")
	}
	var m struct {
		Refers [][2]string `json:"refers"`
	}
	if err := json.Unmarshal(res.Hits[0].Metadata, &m); err != nil || len(m.Refers) != 1 || m.Refers[0] != [2]string{"2023-06-01", "2023-07-01"} {
		t.Errorf("refers = %v (%v), want June 2023", m.Refers, err)
	}
}
