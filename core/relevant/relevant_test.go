package relevant

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/query"
	"github.com/palace-dev/palace/core/store"
)

// at returns the position of the first occurrence of marker in text.
func at(t *testing.T, text, marker string) Position {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if c := strings.Index(l, marker); c >= 0 {
			return Position{Line: i, Col: c}
		}
	}
	t.Fatalf("%q not in text", marker)
	return Position{}
}

func TestExtractEnclosingAcrossLanguages(t *testing.T) {
	cases := []struct {
		name, path, text, cursor string
		ident                    string
		enclosing                []string
	}{
		{"go method", "/p/server/handler.go", `package server

type Server struct{}

func (s *Server) handle(w http.ResponseWriter) {
	if ok {
		writeReply(w)
	}
}
`, "writeReply", "writeReply", []string{"handle", "Server"}},
		{"python", "/p/app/models.py", `class Invoice:
    def total(self):
        # sum the lines
        return sum_lines(self.lines)
`, "sum_lines", "sum_lines", []string{"total", "Invoice"}},
		{"javascript arrow", "/p/web/cart.js", `export const addItem = async (cart, item) => {
  const price = lookupPrice(item);
  return cart;
};
`, "lookupPrice", "lookupPrice", []string{"addItem"}},
		{"c", "/p/src/parse.c", `static int parse_args(int argc, char **argv)
{
    return check_flag(argv[1]);
}
`, "check_flag", "check_flag", []string{"parse_args"}},
		{"rust impl", "/p/src/lib.rs", `impl Cache {
    pub fn evict(&mut self) {
        self.drop_oldest();
    }
}
`, "drop_oldest", "drop_oldest", []string{"evict", "Cache"}},
		{"markdown", "/p/docs/design.md", "# Design\n\n## Storage\n\nDrawers live in SQLite.\n", "SQLite", "SQLite", []string{"Storage", "Design"}},
		{"python comment is no heading", "/p/x.py", "# setup\ndef run():\n    go_now()\n", "go_now", "go_now", []string{"run"}},
		// A statement is no signature: "if len(x) < y {" once made the
		// enclosing function "len", on the line and below it.
		{"go cursor on an if with a call", "/p/cache/evict.go", "package cache\n\nfunc evictOldest(entries []entry, limit int) {\n\tif len(entries) < limit {\n\t\treturn\n\t}\n}\n",
			"entries) <", "entries", []string{"evictOldest"}},
		{"go cursor inside an if with a call", "/p/cache/evict.go", "package cache\n\nfunc evictOldest(entries []entry, limit int) {\n\tif len(entries) < limit {\n\t\ttrimTail(entries)\n\t}\n}\n",
			"trimTail", "trimTail", []string{"evictOldest"}},
		{"python with a call", "/p/io.py", "def load(path):\n    with open(path) as f:\n        parse_all(f)\n", "parse_all", "parse_all", []string{"load"}},
		// Control statements of other languages were once taken for the
		// enclosing function: synchronized, lock, elsif.
		{"java synchronized block", "/p/A.java", "class Account {\n  void deposit() {\n    synchronized (guardLock) {\n      addFunds(x);\n    }\n  }\n}\n",
			"addFunds", "addFunds", []string{"deposit", "Account"}},
		{"c# lock block", "/p/A.cs", "class Account {\n  void Deposit() {\n    lock (guardLock) {\n      AddFunds(x);\n    }\n  }\n}\n",
			"AddFunds", "AddFunds", []string{"Deposit", "Account"}},
		{"perl elsif", "/p/a.pl", "sub settle {\n    if ($paid) {\n        close_out();\n    }\n    elsif ($overdue) {\n        send_reminder($x);\n    }\n}\n",
			"send_reminder", "send_reminder", []string{"settle"}},
		// A call to a builtin on a line of its own is a statement, not a
		// signature named len.
		{"go builtin call continued", "/p/cache/evict.go", "package cache\n\nfunc evictOldest(entries []entry) {\n\tkeep := x ||\n\t\tlen(entries) {\n\t\t\ttrimTail(entries)\n\t}\n}\n",
			"trimTail", "trimTail", []string{"evictOldest"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := at(t, tc.text, tc.cursor)
			p.Col += 2
			c := Extract(tc.text, p, p, tc.path, "/p")
			if c.Identifier != tc.ident {
				t.Errorf("identifier = %q, want %q", c.Identifier, tc.ident)
			}
			if !reflect.DeepEqual(c.Enclosing, tc.enclosing) {
				t.Errorf("enclosing = %q, want %q", c.Enclosing, tc.enclosing)
			}
		})
	}
}

func TestExtractIdentifierEdges(t *testing.T) {
	text := "x := café_total + 42\n\treturn err\n\terrors.New(None)\n"
	cases := []struct {
		pos  Position
		want string
	}{
		{Position{0, 5}, "café_total"},  // inside
		{Position{0, 16}, "café_total"}, // just after the word
		{Position{0, 19}, ""},           // a number is no identifier
		{Position{1, 2}, ""},            // a keyword
		{Position{2, 9}, "New"},         // a name, though new is a keyword
		{Position{2, 14}, ""},           // Python's None
		{Position{1, 9}, ""},            // common: skipped as noise, though pointed at
		{Position{1, 99}, ""},           // clamped to the end of the line, the same
	}
	for _, tc := range cases {
		if got := Extract(text, tc.pos, tc.pos, "", "").Identifier; got != tc.want {
			t.Errorf("at %v: %q, want %q", tc.pos, got, tc.want)
		}
	}
	if got := Extract(text, Position{1, 99}, Position{1, 99}, "", "").Skipped; got != "err" {
		t.Errorf("skipped %q, want err", got)
	}
}

func TestExtractPathAndNearby(t *testing.T) {
	text := "func f() {\n\tbudget := loadBudget()\n\tspend(budget, ledger)\n}\n"
	p := at(t, text, "spend")
	c := Extract(text, p, p, "/repo/src/billing/invoice_writer.go", "/repo")
	if !reflect.DeepEqual(c.Path, []string{"invoice", "writer", "billing"}) {
		t.Errorf("path words = %q", c.Path)
	}
	if !strings.Contains(strings.Join(c.Nearby, " "), "loadBudget") {
		t.Errorf("nearby = %q", c.Nearby)
	}
	for _, w := range c.Nearby {
		if w == "spend" || w == "func" {
			t.Errorf("nearby holds %q", w)
		}
	}
	// A selection's identifiers replace the cursor's.
	s, e := at(t, text, "budget :="), at(t, text, "spend")
	c = Extract(text, s, e, "", "")
	if c.Identifier != "" || len(c.Selection) == 0 || c.Selection[0] != "loadBudget" {
		t.Errorf("selection clues = %+v", c)
	}
}

// TestExtractNoStopWordClues: stop words say nothing of what a reader
// looks for, in a comment, a Markdown paragraph, a heading or a path; they
// were once nearby clues ("there", "The").
func TestExtractNoStopWordClues(t *testing.T) {
	cases := []struct{ name, path, text, cursor string }{
		{"comment", "/p/cache/there/what.go", "package cache\n\n// There are many readers when the store is slow, and these are they.\nfunc serve() {\n\tflushQueue(x)\n}\n", "flushQueue"},
		{"markdown", "/p/docs/about.md", "# About\n\n## Why we do it\n\nThe drawers are here, and there they stay.\n", "drawers"},
		{"cursor on a stop word", "/p/docs/notes.md", "# Storage\n\nThe drawers are here.\n", "here"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := at(t, tc.text, tc.cursor)
			p.Col++
			c := Extract(tc.text, p, p, tc.path, "/p")
			for _, w := range c.terms() {
				for _, word := range strings.Fields(w.term) {
					if query.IsStopWord(word) {
						t.Errorf("clue %q (%s) holds the stop word %q; clues %+v", w.term, w.role, word, c)
					}
				}
			}
			if len(c.terms()) == 0 {
				t.Errorf("no clue at all: %+v", c)
			}
		})
	}
}

func put(t *testing.T, p *palace.Palace, wing, kind, source string, line int, content string) string {
	t.Helper()
	d := store.Drawer{Wing: wing, Room: "general", Kind: kind, Source: source, Content: content,
		ContentHash: store.ContentHash(content), CreatedAt: time.Now(), LineStart: line}
	if line > 0 {
		d.LineEnd = line + strings.Count(content, "\n")
	}
	d.ID = store.DrawerID(wing, source, line, d.ContentHash)
	if _, err := p.Store.InsertDrawers(context.Background(), []store.Drawer{d}); err != nil {
		t.Fatal(err)
	}
	return d.ID
}

func TestFindRanksByClues(t *testing.T) {
	p := palacetest.OpenPalace(t)
	doc := "func verifyUpload(data []byte) error {\n\tgot := computeChecksum(data)\n\treturn check(got)\n}\n"
	own := put(t, p, "proj", store.KindFile, "/proj/upload.go", 1, doc)
	both := put(t, p, "proj", store.KindNote, "note", 0, "verifyUpload relies on computeChecksum being CRC-32C.")
	one := put(t, p, "proj", store.KindFile, "/proj/checksum.go", 1, "func computeChecksum(b []byte) uint32 { return crc(b) }")
	chat := put(t, p, "chats", store.KindConversation, "/chats/s.jsonl", 1, "user: is computeChecksum fast enough?")
	other := put(t, p, "elsewhere", store.KindFile, "/x/y.go", 1, "computeChecksum in another project")
	pos := Position{Line: 1, Col: 10}
	res, err := Find(context.Background(), p, Request{Path: "/proj/upload.go", Root: "/proj", Text: doc, Start: pos, End: pos, Wing: "proj"})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, h.ID)
	}
	if len(ids) != 3 || ids[0] != both || !(ids[1] == one && ids[2] == chat || ids[1] == chat && ids[2] == one) {
		t.Errorf("hits = %v, want the note (both clues), then checksum.go and the chat; why: %v", ids, res.Hits)
	}
	if len(res.Excluded) != 1 || res.Excluded[0] != own {
		t.Errorf("excluded = %v, want the drawer on screen", res.Excluded)
	}
	for _, id := range ids {
		if id == other {
			t.Errorf("a file of another wing came back")
		}
	}
	if res.Hits[0].Why != "mentions computeChecksum, verifyUpload (enclosing)" {
		t.Errorf("why = %q", res.Hits[0].Why)
	}
	res, err = Find(context.Background(), p, Request{Text: doc, Start: pos, End: pos, Wing: "proj", NoConversations: true, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		if h.ID == chat {
			t.Errorf("NoConversations still returned the chat")
		}
	}
}

func TestFindRefusesBadInput(t *testing.T) {
	p := palacetest.OpenPalace(t)
	for _, r := range []Request{{Limit: -1}, {Limit: MaxLimit + 1}, {Mode: "psychic"}, {Start: Position{Line: -1}}, {Exclude: []Span{{5, 2}}}} {
		if _, err := Find(context.Background(), p, r); !errors.Is(err, input.ErrInvalid) {
			t.Errorf("%+v: err = %v, want invalid input", r, err)
		}
	}
	res, err := Find(context.Background(), p, Request{Text: "   \n", Start: Position{}, End: Position{}})
	if err != nil || res.Empty == "" || len(res.Hits) != 0 {
		t.Errorf("empty place: %+v, %v", res, err)
	}
}

func TestMentions(t *testing.T) {
	p := palacetest.OpenPalace(t)
	put(t, p, "proj", store.KindFile, "/proj/a.go", 1, "retryBudget is spent here")
	put(t, p, "proj", store.KindNote, "note", 0, "we cap retryBudget at 3")
	put(t, p, "chats", store.KindConversation, "/c.jsonl", 1, "why is retryBudget 3?")
	m, err := FindMentions(context.Background(), p, MentionsRequest{Symbol: "retryBudget", Wing: "proj", Path: "/proj/a.go", Line: 1})
	if err != nil {
		t.Fatal(err)
	}
	if m.Count != 2 || m.More || len(m.Top) != 2 {
		t.Errorf("mentions = %+v, want the note and the chat, not the line being read", m)
	}
}

// A name in more drawers than maxDefiningRows is looked up in the folders
// the reader most likely means (the document's own, the folder of the
// import its qualifier names) and where a definition keyword comes right
// before it, not in the whole palace: a method elsewhere is not read.
func TestWidelyHeldNameIsLookedUpNearbyAndAfterKeywords(t *testing.T) {
	p := palacetest.OpenPalace(t)
	ctx := context.Background()
	var ds []store.Drawer
	mk := func(source string, line int, content, meta string) {
		d := store.Drawer{Wing: "app", Room: "general", Kind: store.KindFile, Source: source, Content: content,
			ContentHash: store.ContentHash(content), CreatedAt: time.Now(), LineStart: line,
			LineEnd: line + strings.Count(content, "\n"), Metadata: meta}
		d.ID = store.DrawerID(d.Wing, source, line, d.ContentHash)
		ds = append(ds, d)
	}
	for i := range maxDefiningRows + 10 {
		mk(fmt.Sprintf("/app/pages/p%d.go", i), 1, fmt.Sprintf("func page%d() { w.Render(%d) }", i, i), `{"lang":"go"}`)
	}
	def := `{"lang":"go","defines":[{"name":"Render","kind":"func"}]}`
	mk("/app/view/render.go", 1, "// Render draws a view.\nfunc Render(v int) {}", def)
	mk("/app/lib/render.go", 1, "// Render draws anything.\nfunc Render(v int) {}", def)
	mk("/app/admin/render.go", 1, "// Render draws the admin page.\nfunc (a *Admin) Render(v int) {}",
		`{"lang":"go","defines":[{"name":"Render","kind":"method"}]}`)
	mk("/app/cmd/tool/render.go", 1, "// Render draws in a terminal.\nfunc Render(v int) {}", def)
	if _, err := p.Store.InsertDrawers(ctx, ds); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path, text, marker, want, why string
	}{
		{"the import the qualifier names", "/app/cmd/serve/main.go",
			"package main\n\nimport \"example.com/app/view\"\n\nfunc main() {\n\tview.Render(1)\n}\n", "Render(1)",
			"/app/view/render.go", "definition of Render (1 of 3: the one in view, as view.Render says)"},
		{"the document's folder", "/app/cmd/tool/main.go", "package main\n\nfunc main() {\n\tRender(2)\n}\n", "Render(2)",
			"/app/cmd/tool/render.go", "definition of Render (1 of 3: the nearest by path)"},
	} {
		pos := at(t, c.text, c.marker)
		res, err := Find(ctx, p, Request{Path: c.path, Root: "/app", Text: c.text, Start: pos, End: pos, Wing: "app"})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 || res.Hits[0].Source != c.want || res.Hits[0].Why != c.why {
			t.Errorf("%s: first hit %v, want %s (%q)", c.name, res.Hits[:min(1, len(res.Hits))], c.want, c.why)
		}
		for _, h := range res.Hits {
			if h.Source == "/app/admin/render.go" && h.Why != "also defines Render" {
				t.Errorf("%s: the method in a folder not read: %q", c.name, h.Why)
			}
		}
	}
}
