//go:build unix

package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/aaak"
	"github.com/palace-dev/palace/cmd/internal/clitest"
	"github.com/palace-dev/palace/core/ops"
)

// Integration tests for 'palace wake-up', on the binary TestMain builds.

type wakeOut struct {
	Wing     string `json:"wing"`
	Format   string `json:"format"`
	Budget   int    `json:"budget"`
	Tokens   int    `json:"tokens"`
	Identity struct {
		Files     []string `json:"files"`
		Text      string   `json:"text"`
		Truncated bool     `json:"truncated"`
	} `json:"identity"`
	Decided []struct {
		ID       string   `json:"id"`
		Replaces []string `json:"replaces"`
		Line     string   `json:"line"`
	} `json:"decided"`
	Drawers []struct {
		ID   string `json:"id"`
		Code bool   `json:"code"`
		Line string `json:"line"`
	} `json:"drawers"`
	Facts []struct {
		Line string `json:"line"`
	} `json:"facts"`
	Diary []struct {
		Line string `json:"line"`
	} `json:"diary"`
	Threads []struct {
		Text string `json:"text"`
	} `json:"threads"`
	Omitted int    `json:"omitted"`
	Text    string `json:"text"`
}

func TestWakeUpCLI(t *testing.T) {
	needMemory(t)
	home, dir := t.TempDir(), t.TempDir()
	const identity = "I am Atlas, the coding agent of this palace. I keep answers short and cite drawers."
	clitest.WriteTree(t, home, map[string]string{"identity.md": identity + "\n", "identity/proj.md": "In proj I own the store.\n"})
	clitest.WriteTree(t, dir, map[string]string{
		"README.md":  "# Widget\n\nWidget renders dashboards from SQLite.\n",
		"src/app.go": "package app\n\n// Render draws a dashboard.\nfunc Render() {}\n",
	})
	mineOK(t, home, dir, "--wing", "proj")
	palaceOK(t, home, nil, "remember", "We chose SQLite because it needs no server.", "--wing", "proj", "--importance", "5")
	palaceOK(t, home, nil, "remember", "Releases are cut on Tuesdays.", "--wing", "proj", "--importance", "2")
	palaceOK(t, home, nil, "diary", "write", "claude", "Fixed the dashboard colours.", "--wing", "proj")
	palaceOK(t, home, nil, "kg", "add", "proj", "status", "beta", "--from", "2026-01-01")

	var w wakeOut
	palaceOK(t, home, &w, "wake-up", "--wing", "proj", "--budget", "1000", "--json")
	if w.Identity.Text != identity+"\n\nIn proj I own the store." || len(w.Identity.Files) != 2 || w.Omitted != 0 {
		t.Errorf("identity %+v, omitted %d", w.Identity, w.Omitted)
	}
	if len(w.Decided) != 2 || w.Decided[0].Line != "- We chose SQLite because it needs no server." {
		t.Errorf("decided %+v", w.Decided)
	}
	// The README is shown; the source file is not, as notes are there.
	if len(w.Drawers) != 1 || !strings.Contains(w.Drawers[0].Line, "Widget renders dashboards") || strings.Contains(w.Text, "func Render") {
		t.Errorf("drawers %+v", w.Drawers)
	}
	if len(w.Facts) != 1 || w.Facts[0].Line != "- proj status beta (since 2026-01-01)" || len(w.Diary) != 1 {
		t.Errorf("facts %+v, diary %+v", w.Facts, w.Diary)
	}
	for _, budget := range []string{"20", "60", "120", "200", "500"} {
		var j wakeOut
		palaceOK(t, home, &j, "wake-up", "--wing", "proj", "--budget", budget, "--json")
		if b := j.Budget; j.Tokens > b || j.Tokens != aaak.CountTokens(j.Text) || budget != strconv.Itoa(b) {
			t.Errorf("budget %s: %d tokens, counted %d", budget, j.Tokens, aaak.CountTokens(j.Text))
		}
		text := palaceOK(t, home, nil, "wake-up", "--wing", "proj", "--budget", budget)
		if j.Text != "" && text != j.Text+"\n" {
			t.Errorf("budget %s: the text format differs from the JSON's text:\n%s\n---\n%s", budget, text, j.Text)
		}
		if again := palaceOK(t, home, nil, "wake-up", "--wing", "proj", "--budget", budget); again != text {
			t.Errorf("budget %s: two runs differ", budget)
		}
		doc, errOut, code := runPalace(t, home, "wake-up", "--wing", "proj", "--budget", budget, "--format", "aaak")
		if code != 0 || (doc == "") != (errOut != "") {
			t.Fatalf("aaak budget %s: exit %d, %q, %q", budget, code, doc, errOut)
		}
		if doc == "" {
			continue // the identity's one zettel does not fit
		}
		if aaak.CountTokens(strings.TrimSuffix(doc, "\n")) > j.Budget {
			t.Errorf("aaak over budget %s:\n%s", budget, doc)
		}
		if _, err := aaak.Parse(doc); err != nil {
			t.Errorf("aaak at budget %s does not parse: %v\n%s", budget, err, doc)
		}
		if again := palaceOK(t, home, nil, "wake-up", "--wing", "proj", "--budget", budget, "--format", "aaak"); again != doc {
			t.Errorf("aaak budget %s: two runs differ", budget)
		}
	}
	out := palaceOK(t, home, nil, "wake-up", "--wing", "proj")
	if !strings.HasPrefix(out, "## Identity\n"+identity) || !strings.Contains(out, "\n## Decided\n- We chose SQLite") ||
		aaak.CountTokens(out) > ops.DefaultWakeBudget {
		t.Errorf("default wake-up:\n%s", out)
	}

	// An empty palace: nothing to say, exit 0, a hint on stderr.
	empty := newPalace(t)
	sout, errOut, code := runPalace(t, empty, "wake-up")
	if code != 0 || sout != "" || !strings.Contains(errOut, "nothing to wake up with") {
		t.Errorf("empty palace: exit %d, %q, %q", code, sout, errOut)
	}
	// A broken identity file is an error naming it.
	bad := filepath.Join(home, "identity", "proj.md")
	if err := os.WriteFile(bad, []byte("caf\xe9\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut, code = runPalace(t, home, "wake-up", "--wing", "proj")
	if code != 1 || !strings.Contains(errOut, bad) {
		t.Errorf("bad identity: exit %d %q", code, errOut)
	}
	oneLine(t, errOut)
}

// runPalaceIn runs palace as runPalace does, in the working directory dir.
func runPalaceIn(t *testing.T, home, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := palaceCmd(ctx, home, args...)
	cmd.Dir = dir
	return clitest.Run(t, cmd)
}

// A project sets its sessions' wake-up budget in its palace.yaml
// (wake_up.budget): a wake-up of its wing from anywhere inside it takes
// that budget, --budget overrides it, another wing's wake-up keeps the
// default, and a budget out of range is an error naming the file. The
// mine still reads the file.
func TestWakeUpBudgetFromPalaceYAML(t *testing.T) {
	needMemory(t)
	home, dir := t.TempDir(), t.TempDir()
	clitest.WriteTree(t, dir, map[string]string{
		"palace.yaml":  "wing: proj\nwake_up:\n  budget: 40\n",
		"docs/note.md": "# Notes\n\nThe widget renders dashboards.\n",
	})
	mineOK(t, home, dir)
	for i := range 6 {
		palaceOK(t, home, nil, "remember", "--wing", "proj", "--", "Decision number "+strconv.Itoa(i)+" about a different subsystem of the widget: "+strings.Repeat("detail ", i+3))
	}
	palaceOK(t, home, nil, "remember", "--wing", "other", "--", "A note of another wing.")
	budget := func(where string, args ...string) int {
		t.Helper()
		out, errOut, code := runPalaceIn(t, home, where, append([]string{"wake-up", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("wake-up %v in %s: exit %d %s", args, where, code, errOut)
		}
		var w wakeOut
		clitest.Decode(t, "wake-up", out, &w)
		if w.Tokens > w.Budget {
			t.Errorf("wake-up %v: %d tokens over %d", args, w.Tokens, w.Budget)
		}
		return w.Budget
	}
	if b := budget(filepath.Join(dir, "docs"), "--wing", "proj"); b != 40 {
		t.Errorf("in the project: budget %d, want palace.yaml's 40", b)
	}
	if b := budget(dir, "--wing", "proj", "--budget", "300"); b != 300 {
		t.Errorf("--budget 300 in the project: budget %d", b)
	}
	if b := budget(dir, "--wing", "other"); b != ops.DefaultWakeBudget {
		t.Errorf("another wing in the project: budget %d, want the default", b)
	}
	if b := budget(t.TempDir(), "--wing", "proj"); b != ops.DefaultWakeBudget {
		t.Errorf("outside the project: budget %d, want the default", b)
	}
	yaml := filepath.Join(dir, "palace.yaml")
	for _, bad := range []string{"-3", "100001"} {
		if err := os.WriteFile(yaml, []byte("wing: proj\nwake_up:\n  budget: "+bad+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, errOut, code := runPalaceIn(t, home, dir, "wake-up", "--wing", "proj")
		if code != 1 || !strings.Contains(errOut, yaml) || !strings.Contains(errOut, "wake_up.budget "+bad) {
			t.Errorf("budget %s: exit %d %q", bad, code, errOut)
		}
		oneLine(t, errOut)
	}
}
