//go:build unix

package hook

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// fixture is a real Claude Code session log from core/convo's tests.
func fixture(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "core", "convo", "testdata", "claude-code", "3f2a9c1e-5b7d-4e21-9a0c-8d6f1b2e4c7a.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCheckSessionID(t *testing.T) {
	for _, ok := range []string{"3f2a9c1e-5b7d-4e21-9a0c-8d6f1b2e4c7a", "rollout_2026.01", "A"} {
		if err := CheckSessionID(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "$(touch /tmp/pwned)", "`id`", "a;rm -rf ~", "../../etc/passwd", "a/b", "a b", "-rf", ".hidden",
		"x\n", strings.Repeat("a", 129), "a|b", "a&&b", "\x00"} {
		if err := CheckSessionID(bad); err == nil || !errors.Is(err, ErrInvalid) {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestCheckTranscript(t *testing.T) {
	root := filepath.Join(t.TempDir(), "projects")
	proj := filepath.Join(root, "-home-u-shop")
	os.MkdirAll(proj, 0o755)
	good := filepath.Join(proj, "s1.jsonl")
	os.WriteFile(good, []byte("{}\n"), 0o600)
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.jsonl")
	os.WriteFile(secret, []byte("{}\n"), 0o600)
	os.Symlink(secret, filepath.Join(proj, "link.jsonl"))
	os.Symlink(outside, filepath.Join(proj, "dirlink"))
	os.WriteFile(filepath.Join(proj, "notes.txt"), []byte("x"), 0o600)
	os.Mkdir(filepath.Join(proj, "dir.jsonl"), 0o755)
	fifo := filepath.Join(proj, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	roots := []string{root}

	if got, err := CheckTranscript(good, roots); err != nil || got != good {
		t.Fatalf("good transcript: %q %v", got, err)
	}
	for _, bad := range []string{
		"",
		"s1.jsonl",                         // relative
		proj + "/../-home-u-shop/s1.jsonl", // not clean
		filepath.Join(proj, "..", "..", "x.jsonl"), // cleaned, outside
		secret,                            // outside the root
		filepath.Join(proj, "link.jsonl"), // a link out of the root
		filepath.Join(proj, "dirlink", "secret.jsonl"), // through a linked folder
		filepath.Join(proj, "notes.txt"),               // not .jsonl
		filepath.Join(proj, "dir.jsonl"),               // a folder
		fifo,                                           // would block a reader
		filepath.Join(proj, "missing.jsonl"),
		filepath.Join(proj, "$(touch pwned).jsonl"),
		"/etc/passwd",
		good + "\x00.jsonl",
	} {
		done := make(chan error, 1)
		go func() { _, err := CheckTranscript(bad, roots); done <- err }()
		select {
		case err := <-done:
			if err == nil || !errors.Is(err, ErrInvalid) {
				t.Errorf("%q accepted (%v)", bad, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%q: the check blocked", bad)
		}
	}
	if _, err := os.Stat(filepath.Join(proj, "pwned")); err == nil {
		t.Errorf("a path was run through a shell")
	}
}

// TestOutsideTranscriptIsRefusedUnseen: a transcript path outside the
// roots gets the same refusal whether the file exists, is missing or sits in
// a folder nobody may read, so a hook payload cannot probe the disk.
func TestOutsideTranscriptIsRefusedUnseen(t *testing.T) {
	root := filepath.Join(t.TempDir(), "projects")
	os.MkdirAll(root, 0o755)
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "there.jsonl"), []byte("{}\n"), 0o600)
	locked := filepath.Join(outside, "locked")
	os.Mkdir(locked, 0o000)
	defer os.Chmod(locked, 0o755)
	answer := func(name string) string {
		_, err := CheckTranscript(filepath.Join(outside, name), []string{root})
		if err == nil {
			t.Fatalf("%s outside the roots accepted", name)
		}
		return strings.ReplaceAll(err.Error(), filepath.Join(outside, name), "PATH")
	}
	want := answer("there.jsonl")
	for _, name := range []string{"missing.jsonl", "locked/x.jsonl", "there.jsonl/x.jsonl"} {
		if got := answer(name); got != want {
			t.Errorf("%s: %q, but an existing file gets %q", name, got, want)
		}
	}
}

func TestWingFor(t *testing.T) {
	base := t.TempDir()
	proj := filepath.Join(base, "Shop App")
	os.MkdirAll(filepath.Join(proj, "src", "deep"), 0o755)
	if got := WingFor(proj); got != "shop-app" {
		t.Errorf("folder name: %s", got)
	}
	os.WriteFile(filepath.Join(proj, "palace.yaml"), []byte("wing: shop\n"), 0o644)
	if got := WingFor(filepath.Join(proj, "src", "deep")); got != "shop" {
		t.Errorf("palace.yaml above cwd: %s", got)
	}
	for _, bad := range []string{"", "relative/dir", "/nonexistent/palace/x", filepath.Join(proj, "palace.yaml"), "/x\x00y"} {
		if got := WingFor(bad); got != FallbackWing {
			t.Errorf("WingFor(%q) = %s", bad, got)
		}
	}
}

func TestRunMinesIncrementally(t *testing.T) {
	userHome := t.TempDir()
	env := func(string) string { return "" }
	dir := filepath.Join(userHome, ".claude", "projects", "-home-u-shop")
	os.MkdirAll(dir, 0o700)
	transcript := filepath.Join(dir, "3f2a9c1e-5b7d-4e21-9a0c-8d6f1b2e4c7a.jsonl")
	os.WriteFile(transcript, fixture(t), 0o600)
	cwd := filepath.Join(t.TempDir(), "shop")
	os.MkdirAll(cwd, 0o755)
	os.WriteFile(filepath.Join(cwd, "palace.yaml"), []byte("wing: shop\n"), 0o644)

	home := t.TempDir()
	p, err := palace.Open(home, palace.Options{Embed: &embed.Config{Home: home}, Actor: "hook", Client: AgentClaudeCode})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	in := Input{SessionID: "3f2a9c1e-5b7d-4e21-9a0c-8d6f1b2e4c7a", TranscriptPath: transcript, CWD: cwd, HookEventName: "Stop"}
	o := RunOptions{Agent: AgentClaudeCode, Event: EventStop, UserHome: userHome, Env: env, Home: t.TempDir()}
	ctx, cancel := context.WithTimeout(context.Background(), DefaultTimeout)
	defer cancel()
	res, err := Run(ctx, p, in, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Wing != "shop" || res.Summary == nil || res.Summary.DrawersAdded == 0 {
		t.Fatalf("first run: %+v", res)
	}
	ds, err := p.Store.ListDrawers(ctx, store.Filter{Wing: "shop", Kind: store.KindConversation}, 100)
	if err != nil || len(ds) != res.Summary.DrawersAdded {
		t.Fatalf("%d conversation drawers in wing shop (%v), want %d", len(ds), err, res.Summary.DrawersAdded)
	}
	again, err := Run(ctx, p, in, o)
	if err != nil || again.Summary.DrawersAdded != 0 || again.Summary.FilesUnchanged != 1 {
		t.Errorf("second run not incremental: %+v %v", again.Summary, err)
	}
	in.SessionID = "$(touch /tmp/palace-pwned)"
	if _, err := Run(ctx, p, in, o); !errors.Is(err, ErrInvalid) {
		t.Errorf("forged session id: %v", err)
	}
	o.Event = "post-tool-use"
	in.SessionID = "s"
	if _, err := Run(ctx, p, in, o); !errors.Is(err, ErrInvalid) {
		t.Errorf("unknown event: %v", err)
	}
}

func TestReadInput(t *testing.T) {
	in, err := ReadInput(strings.NewReader(`{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","hook_event_name":"Stop","stop_hook_active":false}`))
	if err != nil || in.SessionID != "s" || in.TranscriptPath != "/t.jsonl" || in.CWD != "/w" {
		t.Errorf("%+v %v", in, err)
	}
	for _, bad := range []string{"", "nonsense", `["a"]`, `{"session_id": 5}`, `{"x":"` + strings.Repeat("a", MaxInput) + `"}`} {
		if _, err := ReadInput(strings.NewReader(bad)); !errors.Is(err, ErrInvalid) {
			t.Errorf("%.40q: %v", bad, err)
		}
	}
}

// Codex may send a null transcript_path: the session's rollout file is
// found by its id. Claude Code always sends one; an empty one is refused.
func TestCodexTranscriptFoundBySession(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sessions")
	id := "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"
	day := filepath.Join(root, "2026", "11", "30")
	os.MkdirAll(day, 0o700)
	want := filepath.Join(day, "rollout-2026-11-30T10-00-00-"+id+".jsonl")
	os.WriteFile(want, []byte("{}\n"), 0o600)
	os.WriteFile(filepath.Join(day, "rollout-2026-11-30T09-00-00-0199a1b2-0000-7e5f-8a9b-0c1d2e3f4a5b.jsonl"), []byte("{}\n"), 0o600)
	o := RunOptions{Agent: AgentCodex, Event: EventStop, Roots: []string{root}}
	got, _, err := Check(Input{SessionID: id}, o)
	if err != nil || got != want {
		t.Fatalf("Codex without transcript_path: %q, %v; want %q", got, err, want)
	}
	o.Agent = AgentClaudeCode
	if _, _, err := Check(Input{SessionID: id}, o); !errors.Is(err, ErrInvalid) {
		t.Fatalf("Claude Code without transcript_path: %v", err)
	}
}
