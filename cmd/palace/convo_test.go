package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// copyFixtures copies core/convo's hand-written exports into a temp dir.
func copyFixtures(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "core", "convo", "testdata")
	dst := t.TempDir()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if fi.IsDir() {
			if rel == "fuzz" {
				return filepath.SkipDir // the fuzz corpus, not exports
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestMineConversations(t *testing.T) {
	home, dir := t.TempDir(), copyFixtures(t)
	s := mineOK(t, home, dir, "--mode", "convos")
	if s.FilesMined != 13 || s.SkippedBy["metadata"] != 2 || s.SkippedBy["not_conversation"] != 1 || len(s.SkippedBy) != 2 {
		t.Fatalf("mined %d (skipped %v), want the 13 exports, users/channels.json skipped as metadata and copilot-cli's README.md as no conversation", s.FilesMined, s.SkippedBy)
	}
	// Every format is searchable, as a conversation drawer with speakers and,
	// where the export has timestamps (all but plain text), a time.
	formats := map[string]bool{}
	r := searchOK(t, home, "the", "--limit", "100")
	for _, h := range r.Hits {
		formats[h.Metadata.Format] = true
		// (A plain-text preamble before the first turn has no speaker.)
		if h.Kind != "conversation" || (len(h.Metadata.Speakers) == 0 && h.Metadata.Format != "text") || h.Metadata.LastMsg < h.Metadata.FirstMsg {
			t.Errorf("%s: hit lacks conversation metadata: %+v", h.Citation, h.Metadata)
		}
		if h.Metadata.Format != "text" && h.Time == nil {
			t.Errorf("%s: %s drawer has no time", h.Citation, h.Metadata.Format)
		}
	}
	for _, f := range []string{"claude-code", "claude-ai", "chatgpt", "codex", "gemini", "copilot", "copilot-cli", "slack", "text"} {
		if !formats[f] {
			t.Errorf("no drawer from the %s fixture (have %v)", f, formats)
		}
	}
	// Slack speakers are names from users.json, not ids.
	if r := searchOK(t, home, "the", "--limit", "100", "--source", filepath.Join(dir, "slack")); len(r.Hits) == 0 {
		t.Error("no Slack drawers")
	} else {
		for _, h := range r.Hits {
			for _, sp := range h.Metadata.Speakers {
				if strings.HasPrefix(sp, "U0") {
					t.Errorf("Slack speaker left as a user id: %s", sp)
				}
			}
		}
	}
	// The verbatim drawer keeps the system-reminder; the index does not.
	// Quoted, so the name is not searched as its words (claude, md) when no
	// drawer holds it whole.
	r = searchOK(t, home, `"claudeMd"`)
	if len(r.Hits) != 0 {
		t.Errorf("noise inside <system-reminder> is searchable: %s", r.Hits[0].Citation)
	}
	r = searchOK(t, home, "flaky TestLogin")
	if len(r.Hits) == 0 || !strings.Contains(r.Hits[0].Content, "<system-reminder>") {
		t.Errorf("the drawer should keep the message verbatim, system-reminder included")
	}
	if again := mineOK(t, home, dir, "--mode", "convos"); again.FilesMined != 0 || again.DrawersAdded != 0 || again.DrawersRemoved != 0 {
		t.Errorf("re-mining the same exports is not a no-op: %+v", again)
	}
}

// VS Code keeps Copilot Chat sessions in its workspace storage; mining that
// folder as it is (auto mode) files each session's exchanges as
// conversation drawers with the user's and Copilot's names, dated by their
// requests, and the storage's other JSON as files.
func TestMineCopilotChatSessions(t *testing.T) {
	home, storage := t.TempDir(), t.TempDir()
	session, err := os.ReadFile(filepath.Join("..", "..", "core", "convo", "testdata", "copilot", "chatSessions", "7c1e5a2b-4d3f-4e8a-9b6c-2f0d1e3a5b7c.json"))
	if err != nil {
		t.Fatal(err)
	}
	clitest.WriteTree(t, storage, map[string]string{
		"3b8f0e2c9d1a/chatSessions/7c1e5a2b-4d3f-4e8a-9b6c-2f0d1e3a5b7c.json": string(session),
		"3b8f0e2c9d1a/workspace.json":                                         `{"folder": "file:///home/dana/src/shop"}`,
	})
	s := mineOK(t, home, storage, "--wing", "shop")
	if s.FilesMined != 2 || len(s.Errors) != 0 {
		t.Fatalf("mine: %+v", s)
	}
	r := searchOK(t, home, "retry loop back off", "--kind", "conversation")
	if len(r.Hits) == 0 {
		t.Fatal("the session's first exchange is not found")
	}
	h := r.Hits[0]
	if h.Metadata.Format != "copilot" || strings.Join(h.Metadata.Speakers, ",") != "dana-dev,GitHub Copilot" ||
		h.Time == nil || h.Time.UTC().Format(time.RFC3339) != "2025-10-06T08:40:12Z" {
		t.Errorf("hit %s: format %q, speakers %q, time %v", h.Citation, h.Metadata.Format, h.Metadata.Speakers, h.Time)
	}
	if !strings.Contains(h.Content, "The loop in [file client.go] resets `delay`") {
		t.Errorf("drawer content:\n%s", h.Content)
	}
	// The request without a timestamp is dated by the session's creation.
	r = searchOK(t, home, "covered by the existing tests")
	if len(r.Hits) == 0 || r.Hits[0].Metadata.FirstMsg != 7 || r.Hits[0].Time == nil || r.Hits[0].Time.UTC().Format(time.RFC3339) != "2025-10-06T08:40:00Z" {
		t.Errorf("undated request: %+v", r.Hits)
	}
}

func TestGrownExportAddsOnlyNewExchanges(t *testing.T) {
	home, dir := t.TempDir(), copyFixtures(t)
	path, _ := filepath.Glob(filepath.Join(dir, "claude-code", "*.jsonl"))
	before := mineOK(t, home, path[0])
	line := `{"parentUuid":null,"cwd":"/home/dana/src/webshop","sessionId":"3f2a9c1e-5b7d-4e21-9a0c-8d6f1b2e4c7a","type":"user","message":{"role":"user","content":"Now write the zanzibar changelog entry."},"uuid":"a9","timestamp":"2025-09-02T09:00:00.000Z"}` + "\n" +
		`{"parentUuid":"a9","cwd":"/home/dana/src/webshop","sessionId":"3f2a9c1e-5b7d-4e21-9a0c-8d6f1b2e4c7a","type":"assistant","message":{"id":"msg_new","role":"assistant","content":[{"type":"text","text":"Added the zanzibar entry under Fixed."}]},"uuid":"b9","timestamp":"2025-09-02T09:00:05.000Z"}` + "\n"
	f, err := os.OpenFile(path[0], os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(line)
	f.Close()
	after := mineOK(t, home, path[0])
	if after.FilesMined != 1 || after.DrawersAdded != 1 || after.DrawersRemoved != 0 {
		t.Errorf("grown export: %+v (first mine added %d); want exactly one new exchange", after, before.DrawersAdded)
	}
	r := searchOK(t, home, "zanzibar")
	if len(r.Hits) != 1 || r.Hits[0].Time == nil || r.Hits[0].Time.Format("15:04") != "09:00" {
		t.Errorf("new exchange not found with its time: %+v", r.Hits)
	}
	// --since/--until select by when it was said.
	if r := searchOK(t, home, "zanzibar", "--since", "2025-09-03"); len(r.Hits) != 0 {
		t.Errorf("--since after the exchange still finds it")
	}
	if r := searchOK(t, home, "zanzibar", "--until", "2025-09-02"); len(r.Hits) != 1 {
		t.Errorf("--until covering the day misses it")
	}
	if r := searchOK(t, home, "zanzibar", "--until", "2025-09-01"); len(r.Hits) != 0 {
		t.Errorf("--until before the exchange still finds it")
	}
	if _, errOut, code := runPalace(t, home, "search", "x", "--since", "yesterday"); code != 2 || !strings.Contains(errOut, "--since") {
		t.Errorf("bad --since: exit %d, %q", code, errOut)
	}
}

func TestBrokenExportKeepsValidPart(t *testing.T) {
	home, dir := t.TempDir(), copyFixtures(t)
	path, _ := filepath.Glob(filepath.Join(dir, "claude-code", "*.jsonl"))
	b, _ := os.ReadFile(path[0])
	cut := b[:len(b)-40] // the last line loses its end
	if err := os.WriteFile(path[0], cut, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runPalace(t, home, "mine", path[0], "--json")
	if code != 1 {
		t.Fatalf("truncated export: exit %d, want 1", code)
	}
	lines := strings.Count(string(cut), "\n") + 1
	if !strings.Contains(errOut, path[0]) || !strings.Contains(errOut, "line ") {
		t.Errorf("error should name the file and line %d: %q", lines, errOut)
	}
	var s mineSummary
	clitest.Decode(t, "mine", out, &s)
	if len(s.Errors) != 1 || s.DrawersAdded == 0 {
		t.Errorf("want one error and the valid part mined: %+v", s)
	}
	if r := searchOK(t, home, "flaky TestLogin"); len(r.Hits) == 0 {
		t.Errorf("valid messages before the break were not mined")
	}
}

func TestSplit(t *testing.T) {
	home, dir := t.TempDir(), copyFixtures(t)
	src := filepath.Join(dir, "text", "mega-transcript.txt")
	out := t.TempDir()
	stdout, errOut, code := runPalace(t, home, "split", src, "--out", out)
	if code != 0 {
		t.Fatalf("split: exit %d, %q", code, errOut)
	}
	files := strings.Fields(stdout)
	if len(files) < 2 {
		t.Fatalf("split wrote %v", files)
	}
	var joined []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		joined = append(joined, b...)
	}
	orig, _ := os.ReadFile(src)
	if string(joined) != string(orig) {
		t.Error("the session files do not join back to the transcript")
	}
	if _, errOut, code := runPalace(t, home, "split", src, "--out", out); code != 1 || !strings.Contains(errOut, "already exists") {
		t.Errorf("second split: exit %d, %q; want a refusal to overwrite", code, errOut)
	}
}
