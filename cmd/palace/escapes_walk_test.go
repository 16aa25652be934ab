//go:build unix

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/palace-dev/palace/cmd/internal/clitest"
)

// The hostile text of the walk: clear the screen, write the clipboard
// (OSC 52), reverse the rest of the line (U+202E, popped by U+202C), go
// back to the start of the line (CR) and an invalid UTF-8 byte that some
// terminals read as CSI.
const (
	clearScreen = "\x1b[2J"
	clipboard   = "\x1b]52;c;cGFsYWNl\x07"
	rlo, pdf    = "\u202e", "\u202c"
	badByte     = "\x9b"
	walkWing    = "walk" + rlo + "wing" + pdf
)

// walkSkipped are the commands the walk does not run, and why. Every other
// command must have a row in walkTable.
var walkSkipped = map[string]string{
	"palace serve":      "a server: its stdout is MCP or LSP protocol, escaped by JSON; the protocol suites drive it",
	"palace model pull": "downloads a model over the network",
	"palace team join":  "connects to the team's PostgreSQL server",
	"palace bench":      "runs palace-bench, a binary of its own: cmd/palace-bench's walk runs every bench command",
	"palace setup ort":  "downloads ONNX Runtime with npm, even given a folder",
}

// walkKnownRaw are commands known to print a hostile value raw, in files
// this change does not own: the walk expects the raw character there (and
// fails once it is gone, so the entry is removed).
var walkKnownRaw = map[string]string{}

// walkRun is one command line of the walk: the arguments after the command
// path, its stdin, the exit code it must give (so that a run refused for a
// wrong argument cannot pass unnoticed) and, when the hostile value must
// show, the escape that proves it did.
type walkRun struct {
	args  []string
	stdin string
	code  int
	shows string
}

// hostilePalace is what seedHostile made: the ids, names and files the
// walk's arguments name.
type hostilePalace struct {
	home, src, proj, other     string
	wing, wing2, room, agent   string
	entity, object, predicate  string
	fileID, codeID, showID     string
	rmID                       string
	rmFactID                   string
	acceptID, rejectID         string
	aaakBad, aaakGood          string
	export, badImport          string
	transcript, initDir, split string
	scratch                    string
}

// seedHostile fills a palace with hostile text wherever Palace stores text
// it did not write: file names and contents, wing, room and entity names,
// notes, diaries, agents, facts and proposals and AAAK files.
// Names refuse control characters (the core's rule) but take the bidi
// controls; contents and file names take everything.
func seedHostile(t *testing.T) hostilePalace {
	t.Helper()
	h := hostilePalace{home: t.TempDir(), src: t.TempDir(), scratch: t.TempDir()}
	h.wing = walkWing
	h.wing2 = "other" + rlo + "wing"
	h.room = "ro" + rlo + "om"
	h.agent = "rev" + rlo + "iewer"
	h.entity, h.object, h.predicate = "Ali"+rlo+"ce", "Glo"+pdf+"bex", "lea"+rlo+"ds"
	// Mining skips a file of invalid UTF-8, so that byte is in its name.
	content := "walkzebra note " + clearScreen + " and " + clipboard + " then " + rlo + "txt.exe" + pdf + "\rFORGED line\n\tindented\n"
	hostileFile := "walk" + clearScreen + clipboard + rlo + badByte + ".md"
	h.proj = filepath.Join(h.src, "proj")
	clitest.WriteTree(t, h.proj, map[string]string{
		hostileFile:               content,
		h.room + "/plain.md":      "walkzebra plain words in the hostile room\n",
		"code" + rlo + "/main.go": "package main\n\n// walkzebra " + rlo + "evil" + pdf + "\nfunc main() {}\n",
	})
	h.other = filepath.Join(h.src, "other")
	clitest.WriteTree(t, h.other, map[string]string{h.room + "/shared.md": "walkzebra the same room in another wing\n"})
	mineOK(t, h.home, h.proj, "--wing", h.wing, "--no-progress")
	mineOK(t, h.home, h.other, "--wing", h.wing2, "--no-progress")
	for _, hit := range searchOK(t, h.home, "walkzebra", "--wing", h.wing).Hits {
		// JSON carries the invalid byte as U+FFFD.
		switch {
		case strings.Contains(hit.Source, "walk"+clearScreen):
			h.fileID = hit.ID
		case strings.Contains(hit.Source, "code"+rlo):
			h.codeID = hit.ID
		}
	}
	if h.fileID == "" || h.codeID == "" {
		t.Fatalf("no drawer of %q or of main.go", hostileFile)
	}

	note := "walkzebra remembered " + rlo + "evil" + pdf + "\rFORGED"
	h.showID = walkRememberID(t, h.home, note, "--room", h.room)
	h.rmID = walkRememberID(t, h.home, "walkzebra to forget "+rlo+"once\rFORGED")
	// Two proposals for review, each quoting its hostile sentence.
	h.acceptID = walkProposal(t, h.home, "Dana owns the billing service.\rFORGED "+rlo)
	h.rejectID = walkProposal(t, h.home, "We moved from MySQL to Postgres "+rlo+"ok.")
	if _, errOut, code := runPalace(t, h.home, "diary", "write", "claude", "walkzebra diary "+rlo+"entry\rFORGED", "--wing", h.wing); code != 0 {
		t.Fatalf("diary write: exit %d, %s", code, errOut)
	}
	if _, errOut, code := runPalace(t, h.home, "agent", "add", h.agent, "--focus", "reviews "+rlo+"races", "--wing", h.wing); code != 0 {
		t.Fatalf("agent add: exit %d, %s", code, errOut)
	}
	walkFact(t, h.home, h.entity, "works_at", h.object, "--source", h.showID)
	walkFact(t, h.home, h.object, h.predicate, "Or"+rlo+"ion")
	h.rmFactID = walkFact(t, h.home, h.entity, "likes", "te"+rlo+"a")
	if _, errOut, code := runPalace(t, h.home, "kg", "entity", h.entity, "--alias", "Al"+pdf+"i", "--type", "person"); code != 0 {
		t.Fatalf("kg entity: exit %d, %s", code, errOut)
	}
	for _, w := range []string{h.wing, h.wing2} {
		if _, errOut, code := runPalace(t, h.home, "taxonomy", "set", w, h.room, "--name", "Ro"+rlo+"om name", "--keywords", "walkzebra"); code != 0 {
			t.Fatalf("taxonomy set: exit %d, %s", code, errOut)
		}
	}

	// Files the commands read.
	write := func(name, content string) string {
		p := filepath.Join(h.scratch, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	h.aaakBad = write("bad"+rlo+".aaak", "V1|w"+rlo+"|r|d|s\n0:ALI|t|\"say "+clearScreen+" "+clipboard+" "+rlo+"hi"+pdf+"\"|★|joy|CORE\n")
	h.aaakGood = write("good.aaak", "V1|w|r|d|s\n0:ALI|t|\"plain quote\"|★|joy|CORE\n")
	turn := `{"type":"user","message":{"role":"user","content":"walkzebra \u001b[2J hi \u202e"},"uuid":"u%d","sessionId":"walk-session","cwd":%q,"timestamp":"2026-11-30T10:0%d:00Z"}` + "\n" +
		`{"type":"assistant","message":{"id":"m%d","role":"assistant","model":"claude-opus","content":[{"type":"text","text":"ok \u001b]52;c;aGk=\u0007"}]},"uuid":"a%d","sessionId":"walk-session","cwd":%q,"timestamp":"2026-11-30T10:0%d:30Z"}` + "\n"
	var transcript strings.Builder
	for n := 1; n <= 3; n++ {
		fmt.Fprintf(&transcript, turn, n, h.proj, n, n, n, h.proj, n)
	}
	h.transcript = write("session"+rlo+".jsonl", transcript.String())
	// An export of the hostile wing to import back, and one row of it
	// made invalid with an escape in its kind.
	exported, errOut, code := runPalace(t, h.home, "export", "--wing", h.wing)
	if code != 0 {
		t.Fatalf("export: exit %d, %s", code, errOut)
	}
	h.export = write("export.jsonl", exported)
	lines := strings.SplitAfter(exported, "\n")
	for _, l := range lines {
		if strings.Contains(l, `"kind":"note"`) {
			h.badImport = write("bad-import.jsonl", lines[0]+strings.Replace(l, `"kind":"note"`, `"kind":"no\u001b[2Jte"`, 1))
			break
		}
	}
	if h.badImport == "" {
		t.Fatalf("the export holds no note:\n%s", exported)
	}
	h.split = filepath.Join(h.scratch, "split"+rlo)
	clitest.WriteTree(t, h.split, map[string]string{
		"all" + rlo + clearScreen + ".txt": "# Session 1 " + clearScreen + "\n> walkzebra hi\nanswer\n\n# Session 2 " + rlo + "\n> hello\nanswer\n",
		"one" + rlo + ".txt":               "> only one session " + rlo + "\nanswer\n",
		"all.session-01.txt":               "an earlier piece\n",
	})
	h.initDir = filepath.Join(h.scratch, "init"+rlo)
	clitest.WriteTree(t, h.initDir, map[string]string{
		"src" + rlo + "evil/a.go":         "package a\n",
		"docs" + clearScreen + "/read.md": "walkzebra\n",
	})
	return h
}

// walkRememberID remembers text in the hostile wing and returns the drawer id.
func walkRememberID(t *testing.T, home, text string, extra ...string) string {
	t.Helper()
	return walkRemember(t, home, text, extra...).ID
}

type walkRememberJSON struct {
	ID       string `json:"id"`
	Proposed []struct {
		ID string `json:"id"`
	} `json:"proposed"`
}

func walkRemember(t *testing.T, home, text string, extra ...string) walkRememberJSON {
	t.Helper()
	args := append([]string{"remember", text, "--wing", walkWing, "--force", "--json"}, extra...)
	out, errOut, code := runPalace(t, home, args...)
	if code != 0 {
		t.Fatalf("remember %q: exit %d, %s", text, code, errOut)
	}
	var r walkRememberJSON
	clitest.Decode(t, "remember", out, &r)
	return r
}

// walkProposal remembers a sentence the extractor proposes a fact from
// and returns the proposal's id.
func walkProposal(t *testing.T, home, text string) string {
	t.Helper()
	r := walkRemember(t, home, text)
	if len(r.Proposed) != 1 {
		t.Fatalf("remember %q proposed %d facts, want 1", text, len(r.Proposed))
	}
	return r.Proposed[0].ID
}

func walkFact(t *testing.T, home string, s, p, o string, extra ...string) string {
	t.Helper()
	out, errOut, code := runPalace(t, home, append([]string{"kg", "add", s, p, o, "--json"}, extra...)...)
	if code != 0 {
		t.Fatalf("kg add %q %q %q: exit %d, %s", s, p, o, code, errOut)
	}
	var r struct {
		Triple struct {
			ID string `json:"id"`
		} `json:"triple"`
	}
	clitest.Decode(t, "kg add", out, &r)
	return r.Triple.ID
}

// walkTable gives every command the walk runs its command lines, in human
// mode, against the hostile palace. A command missing here fails the walk:
// add it, with arguments that make it print what it read.
func walkTable(h hostilePalace) map[string][]walkRun {
	run := func(code int, shows string, args ...string) walkRun {
		return walkRun{args: args, code: code, shows: shows}
	}
	const bidi, esc = `\u202e`, `\x1b`
	hostileArg := "walkzebra " + rlo + "arg" + pdf
	hookIn := hookJSON("walk-session", h.transcript, h.proj)
	hookStart := strings.Replace(hookIn, `"Stop"`, `"SessionStart"`, 1)
	return map[string][]walkRun{
		// Command groups refuse a missing subcommand; palace prints its
		// help.
		"palace":               {run(0, "")},
		"palace aaak":          {run(2, "")},
		"palace agent":         {run(2, "")},
		"palace diary":         {run(2, "")},
		"palace drawer":        {run(2, "")},
		"palace hook":          {run(2, "")},
		"palace kg":            {run(2, "")},
		"palace kg functional": {run(2, "")},
		"palace model":         {run(2, "")},
		"palace setup":         {run(2, "")},
		"palace taxonomy":      {run(2, "")},
		"palace team":          {run(2, "")},

		"palace aaak check": {
			run(1, "U+001B", h.aaakBad),
			run(0, bidi, "--legacy", h.aaakBad),
			{args: []string{"-"}, stdin: "V1|w|r|d|s\n0:ALI|t|\"" + clipboard + "\"|★|joy|CORE\n", code: 1, shows: `U+001B`},
		},
		"palace aaak decode":    {run(1, "U+001B", h.aaakBad), run(0, "plain quote", h.aaakGood)},
		"palace agent add":      {run(0, bidi, h.agent+"2", "--focus", hostileArg, "--wing", h.wing)},
		"palace agent list":     {run(0, bidi)},
		"palace agent rm":       {run(0, bidi, h.agent+"2")},
		"palace audit":          {run(0, bidi)},
		"palace compress":       {run(0, bidi)},
		"palace diary read":     {run(0, bidi, "claude"), run(0, bidi, "claude", "--wing", h.wing)},
		"palace diary write":    {run(0, bidi, "claude", hostileArg+"\rFORGED", "--wing", h.wing)},
		"palace doctor":         {run(0, "")},
		"palace drawer purge":   {run(0, bidi, h.codeID)},
		"palace drawer rm":      {run(0, bidi, h.rmID)},
		"palace drawer show":    {run(0, esc, h.fileID), run(0, bidi, h.showID)},
		"palace drawer unpurge": {run(0, bidi, h.codeID)},
		"palace dup":            {run(0, bidi, "walkzebra remembered "+rlo+"evil"+pdf)},
		"palace export":         {run(0, bidi, "--wing", h.wing)},
		"palace hook install":   {run(0, bidi, "claude-code", "--scope", "project", "--dir", h.initDir, "--yes")},
		"palace hook plugin":    {run(0, bidi, filepath.Join(h.scratch, "plugin"+rlo))},
		"palace hook run": {
			{args: []string{"--agent", "claude-code", "--event", "stop", "--transcripts-root", h.scratch, "--every", "1", "--no-project-mine"}, stdin: hookIn},
			{args: []string{"--agent", "claude-code", "--event", "sessionstart"}, stdin: hookStart, shows: bidi},
		},
		"palace hook uninstall":     {run(0, bidi, "claude-code", "--scope", "project", "--dir", h.initDir, "--yes")},
		"palace import":             {run(0, "", h.export), run(1, esc, h.badImport), run(1, bidi, h.aaakBad)},
		"palace init":               {run(0, "", h.initDir, "--dry-run")},
		"palace kg add":             {run(0, bidi, h.entity, "knows", hostileArg)},
		"palace kg check":           {run(0, ""), run(3, bidi, h.entity, "works_at", "Other"+rlo)},
		"palace kg entity":          {run(0, bidi, h.entity)},
		"palace kg extract":         {run(0, "", "--wing", h.wing)},
		"palace kg functional add":  {run(0, bidi, h.predicate)},
		"palace kg functional list": {run(0, bidi)},
		"palace kg functional rm":   {run(0, "", h.predicate)},
		"palace kg invalidate":      {run(0, bidi, h.object, h.predicate, "Or"+rlo+"ion")},
		"palace kg query":           {run(0, bidi, h.entity)},
		"palace kg review":          {run(0, bidi)},
		"palace kg review accept":   {run(0, "", h.acceptID)},
		"palace kg review reject":   {run(0, "", h.rejectID)},
		"palace kg rm":              {run(0, bidi, h.rmFactID, "--yes")},
		"palace kg stats":           {run(0, bidi)},
		"palace kg timeline":        {run(0, bidi, h.entity), run(0, "", h.entity, "--format", "aaak")},
		"palace kg traverse":        {run(0, bidi, h.entity, "--direction", "both")},
		"palace map":                {run(0, bidi)},
		"palace mine":               {run(0, bidi, h.proj, "--wing", h.wing, "--no-progress"), run(2, esc, filepath.Join(h.src, "missing"+rlo+clearScreen))},
		"palace model list":         {run(0, "")},
		"palace model use":          {run(1, bidi, filepath.Join(h.scratch, "model"+rlo+clearScreen))},
		"palace reindex":            {run(1, "")},
		"palace remember":           {run(0, bidi, hostileArg+"\rFORGED", "--wing", h.wing, "--room", h.room)},
		"palace repair":             {run(0, "")},
		"palace search":             {run(0, esc, "walkzebra", "--route", "off", "--wing", h.wing), run(0, bidi, "walkzebra", "--by", "file"), run(0, "", "walkzebra", "--detail", "compact")},
		"palace split": {
			run(0, bidi, h.split),
			run(0, esc, filepath.Join(h.split, "all"+rlo+clearScreen+".txt"), "--out", filepath.Join(h.scratch, "pieces"+rlo)),
			run(0, bidi, filepath.Join(h.split, "one"+rlo+".txt")),
		},
		"palace status":         {run(0, bidi)},
		"palace sync":           {run(1, "")},
		"palace taxonomy list":  {run(0, bidi)},
		"palace taxonomy rm":    {run(0, bidi, h.wing2, h.room)},
		"palace taxonomy route": {run(0, bidi, "walkzebra "+rlo)},
		"palace taxonomy set":   {run(0, bidi, h.wing, h.room, "--name", hostileArg)},
		"palace team grant":     {run(1, "", h.wing, "role"+rlo)},
		"palace team share":     {run(1, "", h.wing)},
		"palace team status":    {run(0, "")},
		"palace team unshare":   {run(2, bidi, h.wing)},
		"palace tunnels":        {run(0, bidi)},
		"palace wake-up":        {run(0, bidi), run(0, "", "--format", "aaak"), run(0, bidi, "--wing", h.wing)},
	}
}

// Issue 46: 'aaak decode' printed ESC [ 2 J and OSC 52 from a quote raw
// (and 'aaak check' called the file ok), 'compress' printed U+202E raw. The
// walk runs every command of the tree, in human mode, against a palace full
// of hostile text, and no raw control reaches stdout or stderr.
func TestEscapesOnEveryCommand(t *testing.T) {
	h := seedHostile(t)
	table := walkTable(h)
	unseen := map[string]bool{}
	for path := range walkSkipped {
		unseen[path] = true
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		path := c.CommandPath()
		runs, listed := table[path]
		delete(table, path)
		delete(unseen, path)
		why, skipped := walkSkipped[path]
		switch {
		case !c.Runnable():
		case skipped && listed:
			t.Errorf("%q is both skipped (%s) and in the walk's table", path, why)
		case skipped:
		case !listed:
			t.Errorf("%q is not in the escape walk: give it a row in walkTable (escapes_walk_test.go) that makes it print what it read", path)
		}
		words := strings.Fields(path)[1:]
		for _, r := range runs {
			args := append(append([]string{}, words...), r.args...)
			out, errOut, code := runPalaceStdin(t, h.home, r.stdin, args...)
			if code != r.code {
				t.Errorf("%q: exit %d, want %d\nstdout %q\nstderr %q", args, code, r.code, out, errOut)
			}
			_, rawOut := clitest.TerminalHazard(out)
			_, rawErr := clitest.TerminalHazard(errOut)
			if known, ok := walkKnownRaw[path]; ok {
				if !rawOut && !rawErr {
					t.Errorf("%q no longer prints a raw control (%s): remove it from walkKnownRaw", args, known)
				} else {
					t.Logf("%q: known raw output, left to its owner: %s", args, known)
				}
				continue
			}
			for what, s := range map[string]string{"stdout": out, "stderr": errOut} {
				if where, bad := clitest.TerminalHazard(s); bad {
					t.Errorf("%q: %s holds a raw %s:\n%q", args, what, where, s)
				}
			}
			if r.shows != "" && !strings.Contains(out+errOut, r.shows) {
				t.Errorf("%q: the output does not show the hostile value (no %q):\nstdout %q\nstderr %q", args, r.shows, out, errOut)
			}
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRoot())
	for path := range table {
		t.Errorf("the walk's table names %q, which is no command", path)
	}
	for path := range unseen {
		t.Errorf("walkSkipped names %q, which is no command", path)
	}
}
