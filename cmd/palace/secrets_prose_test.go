//go:build unix

package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/ops"
)

// TestSecretProseFormsOnEveryFront files a note holding the three prose
// forms that were stored verbatim before (a short password key, curl's
// user:password, an API key a sentence states) through the CLI, MCP and
// LSP fronts: each front's note is stored with the three redacted and its
// other lines intact. The secrets are made here, so that this file holds
// none.
func TestSecretProseFormsOnEveryFront(t *testing.T) {
	t.Setenv("PALACE_MODEL_DIR", "") // lexical: no model, whatever the machine has
	home, dir := t.TempDir(), t.TempDir()
	fronts := []front{&cliFront{home: home}, startMCPFront(t, home, dir), startLSPFront(t, home)}
	for i, f := range fronts {
		pw := fmt.Sprintf("Zx8%d!kfq29", i)
		userPw := fmt.Sprintf("S3cr3tP4ss%d", i)
		key := strings.Repeat(fmt.Sprintf("9f86d0%d1", i), 4)
		wing := "prose" + f.name()
		note := "Runbook for the " + f.name() + " deploy.\n" +
			"pw: " + pw + "\n" +
			"curl -u bob:" + userPw + " https://x\n" +
			"the API key is " + key + "\n"
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		o, err := f.call(ctx, "remember", map[string]any{"text": note, "wing": wing})
		cancel()
		if err != nil || o.class != ops.OK {
			t.Fatalf("%s: remember: %v %v", f.name(), o, err)
		}
		r := searchOK(t, home, "runbook deploy", "--wing", wing)
		if len(r.Hits) != 1 {
			t.Fatalf("%s: want the note, got %d hits", f.name(), len(r.Hits))
		}
		// A line "key: value" alone is read as YAML's assignment, as
		// "password: ..." is; remember trims the last newline.
		want := "Runbook for the " + f.name() + " deploy.\n" +
			"pw: [REDACTED:env-secret]\n" +
			"curl -u bob:[REDACTED:password] https://x\n" +
			"the API key is [REDACTED:stated-secret]"
		if got := showDrawer(t, home, r.Hits[0].ID).Content; got != want {
			t.Errorf("%s: stored note\n%q\nwant\n%q", f.name(), got, want)
		}
	}
}
