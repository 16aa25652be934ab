package memory

import (
	"context"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

// secretToken builds a GitHub token when the test runs, so this file holds
// none.
func secretToken(seed uint64) (token, body string) {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	r := rand.New(rand.NewPCG(seed, 3))
	b := make([]byte, 36)
	for i := range b {
		b[i] = alnum[r.IntN(len(alnum))]
	}
	b[1], b[4], b[7] = '7', 'Q', 'k'
	return "gh" + "p_" + string(b), string(b)
}

func TestRememberRedactsSecrets(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	tok, body := secretToken(1)
	res := remember(t, p, note("CI pushes tags with the bot token "+tok+" (rotate in March).", "proj"), false)
	if !res.Added || !reflect.DeepEqual(res.Redacted, []string{"github-token"}) {
		t.Fatalf("remember with a token: %+v", res)
	}
	d, err := p.Store.GetDrawer(ctx, res.ID)
	if err != nil {
		t.Fatal(err)
	}
	const want = "CI pushes tags with the bot token [REDACTED:github-token] (rotate in March)."
	if d.Content != want || strings.Contains(d.IndexText, body) || d.ContentHash != store.ContentHash(want) {
		t.Errorf("stored note %q (index %q, hash %s), want %q", d.Content, d.IndexText, d.ContentHash, want)
	}
	// The same note with another token is the same note once redacted: an
	// exact duplicate, found by the hash of the redacted text.
	other, _ := secretToken(2)
	again := remember(t, p, note("CI pushes tags with the bot token "+other+" (rotate in March).", "proj"), false)
	if again.Added || len(again.Duplicates) == 0 || again.Duplicates[0].Kind != "exact" || again.Duplicates[0].ID != res.ID ||
		!reflect.DeepEqual(again.Redacted, []string{"github-token"}) {
		t.Errorf("the same note with another token: %+v", again)
	}
	if strings.Contains(again.Duplicates[0].Preview, body) {
		t.Errorf("duplicate preview shows the secret: %q", again.Duplicates[0].Preview)
	}
	plain := remember(t, p, note("Releases are cut on Thursdays.", "proj"), false)
	if plain.Redacted == nil || len(plain.Redacted) != 0 {
		t.Errorf("a note without secrets: redacted %#v, want an empty list", plain.Redacted)
	}
}

func TestDiaryRedactsSecrets(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	tok, body := secretToken(3)
	at := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	res, err := WriteDiary(ctx, p, DiaryEntry{Agent: "claude", Text: "Deploy failed: the log printed " + tok + " in clear.", At: at})
	if err != nil {
		t.Fatal(err)
	}
	const want = "Deploy failed: the log printed [REDACTED:github-token] in clear."
	if !res.Added || res.Text != want || !reflect.DeepEqual(res.Redacted, []string{"github-token"}) {
		t.Fatalf("diary entry with a token: %+v", res)
	}
	d, err := p.Store.GetDrawer(ctx, res.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d.Content != want || strings.Contains(d.IndexText, body) || d.ContentHash != store.ContentHash(want) {
		t.Errorf("stored entry %q (index %q)", d.Content, d.IndexText)
	}
	// A retry of the same entry is recognised, secret and all.
	again, err := WriteDiary(ctx, p, DiaryEntry{Agent: "claude", Text: "Deploy failed: the log printed " + tok + " in clear.", At: at})
	if err != nil || again.Added || again.ID != res.ID {
		t.Errorf("retried entry: %+v, %v", again, err)
	}
	plain, err := WriteDiary(ctx, p, DiaryEntry{Agent: "claude", Text: "Nothing secret today.", At: at})
	if err != nil || plain.Redacted == nil || len(plain.Redacted) != 0 {
		t.Errorf("an entry without secrets: %+v, %v", plain, err)
	}
}

// Defect 5 of issue 15: passwords stated in prose, and given to mysql on
// its command line, were stored as they are. (The passwords are split so
// this file holds none.)
func TestRememberRedactsProsePasswords(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	pw, cli := "Tr0ub4"+"dor-3x", "S3cret"+"Pass99"
	for _, c := range []struct{ text, want string }{
		{"the prod db pass" + "word is: " + pw + " (do not share)", "the prod db pass" + "word is: [REDACTED:password] (do not share)"},
		{"restore with mysql -u root -p" + cli + " shop < dump.sql", "restore with mysql -u root -p[REDACTED:password] shop < dump.sql"},
	} {
		res := remember(t, p, note(c.text, "proj"), false)
		if !res.Added || !reflect.DeepEqual(res.Redacted, []string{"password"}) {
			t.Fatalf("remember %q: %+v", c.want, res)
		}
		d, err := p.Store.GetDrawer(ctx, res.ID)
		if err != nil {
			t.Fatal(err)
		}
		if d.Content != c.want {
			t.Errorf("stored %q, want %q", d.Content, c.want)
		}
	}
}
