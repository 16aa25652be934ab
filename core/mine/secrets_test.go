package mine

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/convo"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

// Secrets here are built when the tests run (prefixes split, random
// bodies), so this file holds nothing a mine of the repository redacts.

// secretTok is a random alphanumeric token with a digit and both cases.
func secretTok(seed uint64, n int) string {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	r := rand.New(rand.NewPCG(seed, 11))
	b := make([]byte, n)
	for i := range b {
		b[i] = alnum[r.IntN(len(alnum))]
	}
	b[1], b[4], b[7] = '7', 'Q', 'k'
	return string(b)
}

// secretHits counts drawers of wing whose indexed text holds the token.
func secretHits(t *testing.T, st *store.Store, wing, token string) int {
	t.Helper()
	hits, err := st.SearchFTS(context.Background(), `"`+strings.ToLower(token)+`"`, store.Filter{Wing: wing}, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	return len(hits)
}

func TestMineRedactsBeforeStoring(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	ghBody := secretTok(1, 36)
	gh := "gh" + "p_" + ghBody
	pwBody := secretTok(2, 12)
	pw := "Pw9-" + pwBody
	var keyLines []string
	for i := 0; i < 3; i++ {
		keyLines = append(keyLines, secretTok(uint64(10+i), 64))
	}
	begin, end := "-----BEG"+"IN OPENSSH PRIV"+"ATE KEY-----", "-----EN"+"D OPENSSH PRIV"+"ATE KEY-----"
	root := tree(t, map[string]string{
		".env":           "APP=web\nGITHUB_TOKEN=" + gh + "\n",
		"config/db.yaml": "db:\n  host: db\n  pass" + "word: " + pw + "\n",
		"deploy/key.pem": "# deploy key\n" + begin + "\n" + strings.Join(keyLines, "\n") + "\n" + end + "\n",
		"README.md":      "nothing to hide here\n",
	})
	sum, err := Run(ctx, p, root, Options{Wing: "w"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Redaction{
		{Path: filepath.Join(root, ".env"), Kind: "github-token", Line: 2},
		{Path: filepath.Join(root, "config", "db.yaml"), Kind: "env-secret", Line: 3},
		{Path: filepath.Join(root, "deploy", "key.pem"), Kind: "private-key", Line: 3},
	}
	if !reflect.DeepEqual(sum.Redactions, want) {
		t.Errorf("redactions %+v\nwant %+v", sum.Redactions, want)
	}
	if !reflect.DeepEqual(sum.RedactedByKind, map[string]int{"github-token": 1, "env-secret": 1, "private-key": 1}) || sum.KeepSecrets {
		t.Errorf("by kind %v, keep %v", sum.RedactedByKind, sum.KeepSecrets)
	}

	ds, err := p.Store.ListDrawers(ctx, store.Filter{Wing: "w"}, 100)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]store.Drawer{}
	for _, d := range ds {
		got[filepath.Base(d.Source)] = d
		for _, s := range append([]string{ghBody, pwBody}, keyLines...) {
			if strings.Contains(d.Content, s) || strings.Contains(d.IndexText, s) {
				t.Errorf("drawer of %s still holds a secret: %q", d.Source, d.Content)
			}
		}
	}
	// The drawers hold the markers on the secrets' own lines, and cite the
	// same line ranges as the files.
	for name, w := range map[string]struct {
		content    string
		start, end int
	}{
		".env":    {"APP=web\nGITHUB_TOKEN=[REDACTED:github-token]\n", 1, 2},
		"db.yaml": {"db:\n  host: db\n  pass" + "word: [REDACTED:env-secret]\n", 1, 3},
		"key.pem": {"# deploy key\n" + begin + "\n[REDACTED:private-key]\n\n\n" + end + "\n", 1, 6},
	} {
		d := got[name]
		if d.Content != w.content || d.LineStart != w.start || d.LineEnd != w.end {
			t.Errorf("%s: drawer lines %d-%d %q\nwant lines %d-%d %q", name, d.LineStart, d.LineEnd, d.Content, w.start, w.end, w.content)
		}
	}
	for _, s := range []string{ghBody, pwBody, keyLines[0]} {
		if n := secretHits(t, p.Store, "w", s); n != 0 {
			t.Errorf("the full-text index finds a secret in %d drawers", n)
		}
	}
	if n := secretHits(t, p.Store, "w", "redacted"); n != 3 {
		t.Errorf("the markers are in %d drawers' index, want 3", n)
	}
}

// A file mined in one secrets mode is mined again in the other even though
// it did not change; a second mine in the same mode is a no-op.
func TestKeepSecretsTogglesRemine(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	body := secretTok(3, 36)
	root := tree(t, map[string]string{
		".env":     "GITHUB_TOKEN=" + "gh" + "o_" + body + "\n",
		"plain.md": "just words\n",
	})
	run := func(keep bool) *Summary {
		t.Helper()
		s, err := Run(ctx, p, root, Options{Wing: "w", KeepSecrets: keep})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	redacted := func() bool {
		t.Helper()
		srcs, err := p.Store.Sources(ctx, "w", "")
		if err != nil {
			t.Fatal(err)
		}
		return srcs[filepath.Join(root, ".env")].Redacted
	}

	s := run(false)
	if s.FilesMined != 2 || len(s.Redactions) != 1 || secretHits(t, p.Store, "w", body) != 0 || !redacted() {
		t.Fatalf("first mine: %+v", s)
	}
	if s = run(false); s.FilesMined != 0 || s.FilesUnchanged != 2 || len(s.Redactions) != 0 {
		t.Errorf("same mode again should be a no-op: %+v", s)
	}
	// Both files are read again; only the one with a secret gets a new
	// drawer, the other keeps its own.
	s = run(true)
	if s.FilesMined != 2 || s.DrawersAdded != 1 || s.DrawersRemoved != 1 || !s.KeepSecrets || len(s.Redactions) != 0 {
		t.Errorf("--keep-secrets after a redacting mine: %+v", s)
	}
	if n := secretHits(t, p.Store, "w", body); n != 1 || redacted() {
		t.Errorf("--keep-secrets: the token is in %d drawers (want 1), source redacted %v", n, redacted())
	}
	if s = run(true); s.FilesMined != 0 || s.FilesUnchanged != 2 {
		t.Errorf("--keep-secrets again should be a no-op: %+v", s)
	}
	s = run(false)
	if s.FilesMined != 2 || s.DrawersAdded != 1 || s.DrawersRemoved != 1 || len(s.Redactions) != 1 {
		t.Errorf("back to redacting: %+v", s)
	}
	if n := secretHits(t, p.Store, "w", body); n != 0 || !redacted() {
		t.Errorf("back to redacting: the token is in %d drawers, source redacted %v", n, redacted())
	}
	if err := p.Store.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestMineRedactsConversations(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	ghBody := secretTok(4, 36)
	pwBody := secretTok(5, 10)
	// A Claude Code session (JSONL: a secret's line is its record's) and a
	// plain-text transcript (a secret's line is its own).
	jsonl := `{"type":"user","sessionId":"s1","uuid":"u1","timestamp":"2025-09-02T08:14:55Z","message":{"role":"user","content":"set up the deploy"}}` + "\n" +
		`{"type":"assistant","sessionId":"s1","uuid":"a1","timestamp":"2025-09-02T08:15:00Z","message":{"role":"assistant","content":[{"type":"text","text":"Done. I exported GITHUB_TOK` + "EN=gh" + "p_" + ghBody + ` for the job."}]}}` + "\n"
	transcript := "> can you check the database?\n\nYes. It is up.\nI logged in with DB_PASS" + "WORD=Pw9-" + pwBody + " from the vault.\n\n> and the cache?\n\nUp as well.\n\n> thanks\n\nAnytime.\n"
	root := tree(t, map[string]string{"session.jsonl": jsonl, "chat.txt": transcript})
	sum, err := Run(ctx, p, root, Options{Wing: "c", Mode: ModeConvos})
	if err != nil {
		t.Fatal(err)
	}
	want := []Redaction{
		{Path: filepath.Join(root, "chat.txt"), Kind: "env-secret", Line: 4},
		{Path: filepath.Join(root, "session.jsonl"), Kind: "github-token", Line: 2},
	}
	if !reflect.DeepEqual(sum.Redactions, want) {
		t.Errorf("redactions %+v\nwant %+v", sum.Redactions, want)
	}
	ds, err := p.Store.ListDrawers(ctx, store.Filter{Wing: "c"}, 100)
	if err != nil {
		t.Fatal(err)
	}
	markers := 0
	for _, d := range ds {
		if d.Kind != store.KindConversation {
			t.Errorf("drawer %s is a %s", d.ID, d.Kind)
		}
		if strings.Contains(d.Content, ghBody) || strings.Contains(d.Content, pwBody) || strings.Contains(d.IndexText, ghBody) || strings.Contains(d.IndexText, pwBody) {
			t.Errorf("conversation drawer holds a secret: %q", d.Content)
		}
		markers += strings.Count(d.Content, "[REDACTED:")
	}
	if markers != 2 {
		t.Errorf("%d markers in the conversation drawers, want 2", markers)
	}
	if secretHits(t, p.Store, "c", ghBody)+secretHits(t, p.Store, "c", pwBody) != 0 {
		t.Error("the full-text index finds a secret of a conversation")
	}
}

// A plain-text transcript's "# heading" is both its title and a line of
// its first message: a secret there is gone from both, and reported once,
// on its line.
func TestMineReportsHeadingSecretOnce(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	body := secretTok(6, 36)
	transcript := "# deploy with gh" + "p_" + body + "\n\n> can you check the deploy?\n\nYes, it is green.\n\n> and the cache?\n\nWarm.\n\n> thanks\n\nAnytime.\n"
	root := tree(t, map[string]string{"chat.txt": transcript})
	sum, err := Run(ctx, p, root, Options{Wing: "c", Mode: ModeConvos})
	if err != nil {
		t.Fatal(err)
	}
	want := []Redaction{{Path: filepath.Join(root, "chat.txt"), Kind: "github-token", Line: 1}}
	if !reflect.DeepEqual(sum.Redactions, want) {
		t.Errorf("redactions %+v\nwant %+v", sum.Redactions, want)
	}
	ds, err := p.Store.ListDrawers(ctx, store.Filter{Wing: "c"}, 100)
	if err != nil {
		t.Fatal(err)
	}
	titled := 0
	for _, d := range ds {
		if strings.Contains(d.Content, body) || strings.Contains(d.Metadata, body) || strings.Contains(d.IndexText, body) {
			t.Errorf("drawer %s still holds the secret: %q %s", d.ID, d.Content, d.Metadata)
		}
		if strings.Contains(d.Metadata, `"title":"deploy with [REDACTED:github-token]"`) {
			titled++
		}
	}
	if titled != len(ds) || len(ds) == 0 {
		t.Errorf("%d of %d drawers carry the redacted title", titled, len(ds))
	}
}

// In a JSON export the title is apart from the messages: a secret there is
// reported, at line 0.
func TestRedactConversationReportsJSONTitle(t *testing.T) {
	gh := "gh" + "p_" + secretTok(7, 36)
	conv := convo.Conversation{Format: convo.FormatChatGPT, Title: "rotate " + gh,
		Messages: []convo.Message{{Text: "the old one was " + gh, Index: 0}}}
	got, found := redactConversation(conv, "export.json")
	want := []Redaction{{Path: "export.json", Kind: "github-token"}, {Path: "export.json", Kind: "github-token"}}
	if !reflect.DeepEqual(found, want) || got.Title != "rotate [REDACTED:github-token]" ||
		got.Messages[0].Text != "the old one was [REDACTED:github-token]" || conv.Messages[0].Text == got.Messages[0].Text {
		t.Errorf("got %+v, %+v", got, found)
	}
}
