//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// TestKGSaidDeniedAndTakenBack: through 'palace kg extract' (a note's
// write reads it) and 'review accept --min-confidence', a quoted claim the
// note calls false is not proposed, the note's "now" owner supersedes the
// stored one, and "does not work on Orion anymore" ends the stored fact
// instead of being dropped. Exit 0: nothing is left blocked.
func TestKGSaidDeniedAndTakenBack(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	kgAdd(t, home, 0, "Alice", "works_on", "Orion", "--from", "2025-01-01")
	kgAdd(t, home, 0, "billing service", "owner", "Carol", "--from", "2025-01-01")
	_, errOut, code := runPalace(t, home, "remember", "--wing", "orion",
		"Bob said: 'Erin owns the billing service' but that is false. Dana owns the billing service now. "+
			"Alice does not work on Orion anymore.")
	if code != 0 {
		t.Fatalf("remember: exit %d\n%s", code, errOut)
	}
	kgRun(t, home, 0, "extract")
	var r reviewOut
	out, _ := kgRun(t, home, 0, "review")
	clitest.Decode(t, "kg review", out, &r)
	for _, it := range r.Pending {
		if it.Object == "Erin" {
			t.Errorf("the denied quotation was proposed: %+v", it)
		}
	}
	out, errOut, code = runPalace(t, home, "kg", "review", "accept", "--min-confidence", "0.8")
	if code != 0 {
		t.Fatalf("accept --min-confidence 0.8: exit %d, want 0 (nothing blocked)\n%s%s", code, out, errOut)
	}
	var q kgQueryOut
	out, _ = kgRun(t, home, 0, "query", "billing service", "--as-of", "2999-01-01")
	clitest.Decode(t, "kg query", out, &q)
	if len(q.Facts) != 1 || q.Facts[0].Object != "Dana" {
		t.Errorf("the billing service's owner now: %+v, want Dana alone", q.Facts)
	}
	out, _ = kgRun(t, home, 0, "query", "Alice", "--direction", "out")
	clitest.Decode(t, "kg query", out, &q)
	if len(q.Facts) != 1 || q.Facts[0].Object != "Orion" || q.Facts[0].ValidTo == nil {
		t.Errorf("Alice's facts: %+v, want works_on Orion ended", q.Facts)
	}
}

// TestImportRefusesRepeatsAndOrphans: an export naming one fact id twice,
// or holding a fact whose entity neither it nor the palace holds, is
// refused whole with exit 2, naming the lines, and nothing is written.
func TestImportRefusesRepeatsAndOrphans(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	kgAdd(t, src, 0, "Bob", "owner", "Billing")
	kgAdd(t, src, 0, "Alice", "works_on", "Orion", "--from", "2024-01-01")
	out, _, code := runPalace(t, src, "export")
	if code != 0 {
		t.Fatalf("export: exit %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var kept []string
	factLine := 0
	for i, l := range lines {
		if strings.Contains(l, `"type":"triple"`) && factLine == 0 {
			factLine = i + 1
		}
		if strings.Contains(l, `"id":"bob"`) || strings.Contains(l, `"id":"billing"`) {
			continue // the orphan file leaves Bob and Billing out
		}
		kept = append(kept, l)
	}
	dir := t.TempDir()
	repeat := strings.Replace(lines[factLine-1], `"object":"billing"`, `"object":"orion"`, 1)
	dup := filepath.Join(dir, "dup.jsonl")
	orphan := filepath.Join(dir, "orphan.jsonl")
	if err := os.WriteFile(dup, []byte(out+repeat+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(orphan, []byte(strings.Join(kept, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	orphanLine := 0
	for i, l := range kept {
		if strings.Contains(l, `"subject":"bob"`) {
			orphanLine = i + 1
		}
	}
	for _, c := range []struct{ file, want string }{
		{dup, "line " + strconv.Itoa(len(lines)+1) + ": triple id \"t_"},
		{orphan, "line " + strconv.Itoa(orphanLine) + ": triple subject \"bob\" is no entity"},
	} {
		dst := filepath.Join(t.TempDir(), "dst")
		_, errOut, code := runPalace(t, dst, "import", c.file)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("import %s: exit %d, want 2 naming %q\n%s", filepath.Base(c.file), code, c.want, errOut)
		}
		if c.file == dup && !strings.Contains(errOut, "is also on line "+strconv.Itoa(factLine)) {
			t.Errorf("import dup.jsonl does not name the first line %d:\n%s", factLine, errOut)
		}
		st, _, _ := runPalace(t, dst, "kg", "stats")
		if !strings.HasPrefix(st, "0 entities, 0 facts") {
			t.Errorf("a refused import of %s wrote: %s", filepath.Base(c.file), st)
		}
	}
}

// TestReviewDecisionsTravel: a rejected proposal, and an accepted one whose
// fact has ended since, are exported as decisions: 'kg extract' in the
// palace that imports them proposes neither again.
func TestReviewDecisionsTravel(t *testing.T) {
	src := filepath.Join(t.TempDir(), "src")
	if _, errOut, code := runPalace(t, src, "remember", "--wing", "orion", "Carol owns Billing. We use Redis."); code != 0 {
		t.Fatalf("remember: exit %d\n%s", code, errOut)
	}
	var r reviewOut
	out, _ := kgRun(t, src, 0, "review")
	clitest.Decode(t, "kg review", out, &r)
	kgRun(t, src, 0, "review", "reject", r.find(t, "Billing").ID)
	kgRun(t, src, 0, "review", "accept", r.find(t, "orion").ID)
	kgRun(t, src, 0, "invalidate", "orion", "uses", "Redis")
	file := filepath.Join(t.TempDir(), "orion.jsonl")
	out, _, code := runPalace(t, src, "export")
	if code != 0 {
		t.Fatalf("export: exit %d", code)
	}
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "dst")
	if _, errOut, code := runPalace(t, dst, "import", file); code != 0 {
		t.Fatalf("import: exit %d\n%s", code, errOut)
	}
	out, _ = kgRun(t, dst, 0, "extract")
	var ex struct {
		Read      int           `json:"drawers_read"`
		Proposed  int           `json:"proposed"`
		Proposals []proposalOut `json:"proposals"`
	}
	clitest.Decode(t, "kg extract", out, &ex)
	if ex.Read != 1 || ex.Proposed != 0 {
		t.Errorf("kg extract after the import: %+v, want the note read and nothing proposed again", ex)
	}
}
