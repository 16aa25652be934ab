package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// purgeToken is in every fixture under testdata/purge: a made-up word, not
// a secret pattern, so the default mine keeps it.
const purgeToken = "quokkaZephyr42"

// Class 3 of issue "What hostile input and real use still break": purging
// every drawer that showed a word left it in the file, in the resume
// record of an appended session log (its routing head and index context),
// in the title the conversation's other drawers carry, in the next
// exchange's index text (so a search still found it) and in a rejected
// fact proposal. Every kind of drawer is mined, every drawer whose text
// shows the word is purged, and then no search finds it and no byte of any
// file under the palace home holds it.
func TestPurgeLeavesNoCopy(t *testing.T) {
	home, work := t.TempDir(), t.TempDir()
	if err := os.CopyFS(work, os.DirFS(filepath.Join("testdata", "purge"))); err != nil {
		t.Fatal(err)
	}
	if _, errOut, code := runPalace(t, home, "model", "use", tinyModel(t)); code != 0 {
		t.Fatalf("model use: %d %q", code, errOut)
	}
	mineOK(t, home, filepath.Join(work, "project"))
	mineOK(t, home, filepath.Join(work, "convos"), "--mode", "convos")
	palaceOK(t, home, nil, "remember", "The backup server is "+purgeToken+", ask Dana first.", "--wing", "notes")
	palaceOK(t, home, nil, "remember", "Quokkazephyr42 uses Postgres.", "--wing", "notes")
	palaceOK(t, home, nil, "diary", "write", "claude", "Today I set up "+purgeToken+" for staging.")
	var review struct {
		Pending []struct {
			ID      string `json:"id"`
			Subject string `json:"subject"`
		} `json:"pending"`
	}
	palaceOK(t, home, &review, "kg", "review", "--json")
	rejected := 0
	for _, p := range review.Pending {
		if strings.EqualFold(p.Subject, purgeToken) {
			palaceOK(t, home, nil, "kg", "review", "reject", p.ID)
			rejected++
		}
	}
	if rejected == 0 {
		t.Fatalf("no fact about %s was proposed: %+v", purgeToken, review)
	}
	if n := homeHolds(t, home, purgeToken); n == 0 {
		t.Fatal("the test cannot see the word in the palace's files before the purge")
	}

	// Purge what a user sees: the drawers whose text shows the word.
	// Lexical: the vectors' nearest drawers need not hold it.
	r := searchOK(t, home, purgeToken, "--limit", "100", "--mode", "lexical")
	kinds := map[string]bool{}
	purged := 0
	for _, h := range r.Hits {
		if !strings.Contains(strings.ToLower(h.Content), strings.ToLower(purgeToken)) {
			continue
		}
		kinds[h.Kind+" "+h.Metadata.Format] = true
		var p purgeOut
		palaceOK(t, home, &p, "drawer", "purge", h.ID, "--json")
		if !p.Purged {
			t.Errorf("purge %s: %+v", h.ID, p)
		}
		purged++
	}
	for _, k := range []string{"file ", "note ", "diary ", "conversation claude-code", "conversation codex", "conversation chatgpt"} {
		if !kinds[k] {
			t.Errorf("no %q drawer showed the word (purged %v)", k, kinds)
		}
	}
	if r := searchOK(t, home, purgeToken, "--limit", "100", "--mode", "lexical"); len(r.Hits) != 0 {
		t.Errorf("after purging the %d drawers that showed it, search still finds the word in %v", purged, sourcesOf(r))
	}
	if n := homeHolds(t, home, purgeToken); n != 0 {
		t.Errorf("after the purge the palace's files still hold the word %d times", n)
	}
	if out, errOut, code := runPalace(t, home, "doctor"); code != 0 {
		t.Errorf("doctor after the purge: exit %d\n%s%s", code, out, errOut)
	}

	// The Claude Code session grows: its resume record is gone, so it is
	// mined whole again, the purged chunk stays out, and the new
	// exchange is found.
	cc := filepath.Join(work, "convos", "claude-code", "3f2a9c1e-5b7d-4e21-9a0c-8d6f1b2e4c7a.jsonl")
	b, err := os.ReadFile(cc)
	if err != nil {
		t.Fatal(err)
	}
	line, err := json.Marshal(map[string]any{"type": "user", "uuid": "a1000000-0000-4000-8000-0000000000ff",
		"sessionId": "3f2a9c1e-5b7d-4e21-9a0c-8d6f1b2e4c7a", "timestamp": "2025-09-02T09:00:00.000Z",
		"message": map[string]any{"role": "user", "content": "one more thing: the wombat migration is due friday"}})
	if err != nil {
		t.Fatal(err)
	}
	rewrite(t, cc, string(b)+string(line)+"\n")
	mineOK(t, home, filepath.Join(work, "convos"), "--mode", "convos")
	if r := searchOK(t, home, "wombat migration", "--mode", "lexical"); len(r.Hits) != 1 {
		t.Errorf("the grown session's new exchange: %v", sourcesOf(r))
	}
	for _, h := range searchOK(t, home, purgeToken, "--limit", "100", "--mode", "lexical").Hits {
		if strings.Contains(strings.ToLower(h.Content), strings.ToLower(purgeToken)) {
			t.Errorf("mining the grown session brought a purged exchange back: %s", h.Citation)
		}
	}
}

// homeHolds counts the occurrences of word, in any ASCII letter case (the
// full-text index keeps words lower-cased), in every file under home.
func homeHolds(t *testing.T, home, word string) int {
	t.Helper()
	needle := bytes.ToLower([]byte(word))
	n := 0
	err := filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if c := bytes.Count(asciiLower(b), needle); c > 0 {
			t.Logf("%s holds %q %d times", p, word, c)
			n += c
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// asciiLower lower-cases ASCII letters only, keeping every offset.
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}
