//go:build unix

package main

import (
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// Integration tests for secret redaction in 'palace mine' and 'palace
// remember', on the binary TestMain builds. Tokens are built when the tests
// run, so this file holds none.

type secretRedaction struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
	Line int    `json:"line"`
}

type secretMineOut struct {
	FilesMined     int               `json:"files_mined"`
	FilesUnchanged int               `json:"files_unchanged"`
	KeepSecrets    bool              `json:"keep_secrets"`
	Redactions     []secretRedaction `json:"redactions"`
	RedactedByKind map[string]int    `json:"redacted_by_kind"`
}

// secretGitHubToken returns a GitHub token and its random part.
func secretGitHubToken(seed uint64) (token, body string) {
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	r := rand.New(rand.NewPCG(seed, 5))
	b := make([]byte, 36)
	for i := range b {
		b[i] = alnum[r.IntN(len(alnum))]
	}
	b[1], b[4], b[7] = '7', 'Q', 'k'
	return "gh" + "p_" + string(b), string(b)
}

func secretMine(t *testing.T, home, dir string, extra ...string) secretMineOut {
	t.Helper()
	out, errOut, code := runPalace(t, home, append([]string{"mine", dir, "--json"}, extra...)...)
	if code != 0 {
		t.Fatalf("mine %s %v: exit %d, stderr %q", dir, extra, code, errOut)
	}
	var s secretMineOut
	clitest.Decode(t, "mine", out, &s)
	return s
}

func TestSecretMineRedactsAndKeepSecretsKeeps(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "svc")
	tok, body := secretGitHubToken(1)
	clitest.WriteTree(t, proj, map[string]string{
		".env":   "APP=web\nGITHUB_TOKEN=" + tok + "\n",
		"app.md": "tokplainword and nothing else\n",
	})
	home := t.TempDir()
	env := filepath.Join(proj, ".env")

	s := secretMine(t, home, proj)
	want := []secretRedaction{{Path: env, Kind: "github-token", Line: 2}}
	if s.FilesMined != 2 || s.KeepSecrets || !reflect.DeepEqual(s.Redactions, want) || !reflect.DeepEqual(s.RedactedByKind, map[string]int{"github-token": 1}) {
		t.Fatalf("first mine: %+v", s)
	}
	if r := searchOK(t, home, body); len(r.Hits) != 0 {
		t.Errorf("the token is searchable after a redacting mine: %v", sourcesOf(r))
	}
	r := searchOK(t, home, "REDACTED github token")
	if len(r.Hits) != 1 || r.Hits[0].Source != env || r.Hits[0].LineStart != 1 || r.Hits[0].LineEnd != 2 ||
		r.Hits[0].Content != "APP=web\nGITHUB_TOKEN=[REDACTED:github-token]\n" {
		t.Fatalf("the marker's drawer: %+v", r.Hits)
	}
	if d := showDrawer(t, home, r.Hits[0].ID); strings.Contains(d.Content, body) {
		t.Errorf("drawer show prints the token: %q", d.Content)
	}

	// The human summary says what was redacted, and where.
	human := t.TempDir()
	out, errOut, code := runPalace(t, human, "mine", proj, "--no-progress")
	if code != 0 {
		t.Fatalf("mine: exit %d, stderr %q", code, errOut)
	}
	for _, line := range []string{"redacted: 1 secrets (github-token 1); --keep-secrets stores them\n", "  github-token: " + env + ":2\n"} {
		if !strings.Contains(out, line) {
			t.Errorf("summary lacks %q:\n%s", line, out)
		}
	}
	if strings.Contains(out, body) {
		t.Errorf("the summary prints the token:\n%s", out)
	}

	// --keep-secrets mines both unchanged files again, as they are.
	s = secretMine(t, home, proj, "--keep-secrets")
	if s.FilesMined != 2 || !s.KeepSecrets || len(s.Redactions) != 0 {
		t.Errorf("--keep-secrets: %+v", s)
	}
	if r := searchOK(t, home, body); len(r.Hits) != 1 || r.Hits[0].Source != env {
		t.Errorf("--keep-secrets: the token should be found in .env: %v", sourcesOf(r))
	}
	if s = secretMine(t, home, proj, "--keep-secrets"); s.FilesMined != 0 || s.FilesUnchanged != 2 {
		t.Errorf("--keep-secrets twice: %+v, want a no-op", s)
	}
	out, _, _ = runPalace(t, human, "mine", proj, "--no-progress", "--keep-secrets")
	if !strings.Contains(out, "secrets: kept as found (--keep-secrets)\n") {
		t.Errorf("--keep-secrets summary:\n%s", out)
	}

	// And back: redacted again without the file changing.
	s = secretMine(t, home, proj)
	if s.FilesMined != 2 || !reflect.DeepEqual(s.Redactions, want) {
		t.Errorf("back to redacting: %+v", s)
	}
	if r := searchOK(t, home, body); len(r.Hits) != 0 {
		t.Errorf("back to redacting: the token is still searchable: %v", sourcesOf(r))
	}
}

func TestSecretRememberRedacts(t *testing.T) {
	home := t.TempDir()
	tok, body := secretGitHubToken(2)
	out, errOut, code := runPalace(t, home, "remember", "The release bot uses "+tok+" to push tags.", "--wing", "proj", "--json")
	if code != 0 {
		t.Fatalf("remember: exit %d, stderr %q", code, errOut)
	}
	var res struct {
		Added    bool     `json:"added"`
		ID       string   `json:"id"`
		Redacted []string `json:"redacted"`
	}
	clitest.Decode(t, "remember", out, &res)
	if !res.Added || !reflect.DeepEqual(res.Redacted, []string{"github-token"}) {
		t.Fatalf("remember: %s", out)
	}
	if d := showDrawer(t, home, res.ID); d.Content != "The release bot uses [REDACTED:github-token] to push tags." {
		t.Errorf("stored note %q", d.Content)
	}
	if r := searchOK(t, home, body); len(r.Hits) != 0 {
		t.Errorf("the token of a note is searchable")
	}
	other, _ := secretGitHubToken(3)
	out, _, code = runPalace(t, home, "remember", "The release bot uses "+other+" to push tags.", "--wing", "proj")
	if code != 0 || !strings.Contains(out, "redacted 1 secret(s) before storing: github-token\n") || !strings.Contains(out, "not written") {
		t.Errorf("the same note with another token should be redacted and found a duplicate (exit %d):\n%s", code, out)
	}
}

func TestSecretDiaryWriteRedacts(t *testing.T) {
	home := t.TempDir()
	tok, body := secretGitHubToken(4)
	out, errOut, code := runPalace(t, home, "diary", "write", "claude", "The deploy log printed "+tok+" in clear.")
	if code != 0 {
		t.Fatalf("diary write: exit %d, stderr %q", code, errOut)
	}
	if !strings.HasPrefix(out, "redacted 1 secret(s) before storing: github-token\nwrote ") || strings.Contains(out, body) {
		t.Errorf("diary write with a token:\n%s", out)
	}
	out, _, code = runPalace(t, home, "diary", "write", "claude", "Nothing secret today.")
	if code != 0 || strings.Contains(out, "redacted") || !strings.HasPrefix(out, "wrote ") {
		t.Errorf("diary write without a secret (exit %d):\n%s", code, out)
	}
	if r := searchOK(t, home, body); len(r.Hits) != 0 {
		t.Errorf("the token of a diary entry is searchable")
	}
}

// xnetStyle is code as golang.org/x/net writes it: names of settings and
// error codes, hex constants, a WebDAV lock token and a QUIC test's JSON.
// Before #16 three of its literals were redacted and could not be found.
const xnetStyle = "package http2\n\n" +
	"var settingName = map[SettingID]string{\n" +
	"\tSettingHeaderTableSize:       \"HEADER_TABLE_SIZE\",\n" +
	"\tSettingEnableConnectProtocol: \"ENABLE_CONNECT_PROTOCOL\",\n" +
	"\tSettingNoRFC7540Priorities:   \"NO_RFC7540_PRIORITIES\",\n" +
	"}\n\n" +
	"const (\n" +
	"\thttp2ErrCodeEnhanceYourCalm    http2ErrCode = 0xb\n" +
	"\thttp2ErrCodeInadequateSecurity http2ErrCode = 0xc\n" +
	"\tinitialWindowSizeKey               = 0x7fffffff\n" +
	"\tsessionTicketKeyName               = 0x5a827999bb67ae85\n" +
	")\n\n" +
	"var lockTests = []struct{ Token, j string }{\n" +
	"\t{Tok" + "en: `urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6`},\n" +
	"\t{j: `{\"frame_type\":\"new_token\",\"tok" + "en\":\"0304\"}`},\n" +
	"\t{j: `{\"secretKeyName\":\"HTTP2_SECRET_KEY_NAME_2024\"}`},\n" +
	"}\n"

// TestSecretMineKeepsCodeSearchable mines code in the style of x/net and
// checks that nothing in it is redacted: every identifier, string and hex
// constant it holds is found by a search through the real palace.
func TestSecretMineKeepsCodeSearchable(t *testing.T) {
	proj := filepath.Join(t.TempDir(), "xnet")
	clitest.WriteTree(t, proj, map[string]string{"http2.go": xnetStyle})
	home := t.TempDir()
	if s := secretMine(t, home, proj); s.FilesMined != 1 || len(s.Redactions) != 0 {
		t.Fatalf("mine redacted code: %+v", s)
	}
	for _, term := range []string{
		"NO_RFC7540_PRIORITIES", "http2ErrCodeEnhanceYourCalm", "0x5a827999bb67ae85",
		"urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", `"token":"0304"`, "HTTP2_SECRET_KEY_NAME_2024",
	} {
		r := searchOK(t, home, term)
		if len(r.Hits) == 0 || !strings.Contains(r.Hits[0].Content, term) {
			t.Errorf("search %q: %d hits, the first without it: %+v", term, len(r.Hits), r.Hits)
		}
	}
}
