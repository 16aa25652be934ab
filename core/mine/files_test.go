package mine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

// fixture reads a file of core/convo's hand-written exports.
func fixture(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "convo", "testdata", filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func drawers(t *testing.T, st *store.Store, wing string) []store.Drawer {
	t.Helper()
	ds, err := st.ListDrawers(context.Background(), store.Filter{Wing: wing}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// palace.yaml (written by `palace init`) and .palaceignore configure the
// mine: they are never drawers, at the root or below it, and a drawer an
// older mine made of one is pruned.
func TestPalaceFilesAreNotMined(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	root := tree(t, map[string]string{
		"palace.yaml":     "# Palace project settings: the wing this folder mines into and its rooms.\nwing: proj\n",
		".palaceignore":   "drafts/\n",
		"sub/palace.yaml": "wing: sub\n",
		"notes.md":        "The release needs two approvals.\n",
	})
	// What an older mine stored: palace.yaml as a file drawer.
	old := filepath.Join(root, "palace.yaml")
	d := store.Drawer{ID: store.DrawerID("proj", old, 0, "h"), Wing: "proj", Room: "general", Kind: store.KindFile,
		Source: old, Content: "wing: proj", IndexText: "wing: proj", ContentHash: "h", LineStart: 1, LineEnd: 2}
	if _, err := p.Store.ApplySources(ctx, []store.SourceUpdate{{Source: store.Source{Wing: "proj", Path: old, Kind: store.KindFile, ContentHash: "h", Redacted: true}, Drawers: []store.Drawer{d}}}); err != nil {
		t.Fatal(err)
	}
	sum, err := Run(ctx, p, root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Wing != "proj" || sum.SkippedBy[ReasonMetadata] != 3 || sum.FilesSeen != 1 || sum.SourcesPruned != 1 {
		t.Errorf("summary: wing %s, skipped %v, %d seen, %d pruned; want wing proj, 3 metadata, 1 seen, palace.yaml pruned",
			sum.Wing, sum.SkippedBy, sum.FilesSeen, sum.SourcesPruned)
	}
	for _, d := range drawers(t, p.Store, "proj") {
		if d.Source != filepath.Join(root, "notes.md") {
			t.Errorf("drawer of %s: %q", d.Source, d.Content)
		}
	}
}

// Credential folders and files inside a mined folder (a home folder
// handed over as a workspace) are skipped as sensitive; named as the path
// to mine, they are mined.
func TestSensitiveFilesAreNotMined(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	root := tree(t, map[string]string{
		".ssh/config":          "Host tokhidden\n",
		".aws/credentials":     "[default]\nregion = tokhidden\n",
		".gnupg/gpg.conf":      "tokhidden\n",
		".netrc":               "machine example.com login tokhidden\n",
		"sub/.pgpass":          "localhost:5432:db:tokhidden\n",
		"notes.md":             "The release needs two approvals.\n",
		"docs/ssh.md":          "Use .ssh keys.\n",
		"proj/.aws/readme.txt": "tokhidden\n",
	})
	sum, err := Run(ctx, p, root, Options{Wing: "home"})
	if err != nil {
		t.Fatal(err)
	}
	if sum.SkippedBy[ReasonSensitive] != 6 || sum.FilesMined != 2 {
		t.Errorf("skipped %v, %d mined; want 6 sensitive, 2 mined", sum.SkippedBy, sum.FilesMined)
	}
	for _, d := range drawers(t, p.Store, "home") {
		if strings.Contains(d.Content, "tokhidden") {
			t.Errorf("drawer of %s holds a sensitive file: %q", d.Source, d.Content)
		}
	}
	// Named explicitly, the folder is mined.
	sum, err = Run(ctx, p, filepath.Join(root, ".ssh"), Options{Wing: "ssh"})
	if err != nil || sum.FilesMined != 1 {
		t.Errorf("mining .ssh itself: %v, %d mined", err, sum.FilesMined)
	}
}

// In a Slack export, users.json and channels.json name the speakers and
// channels of the day files: they are not drawers in auto or convos mode
// (in projects mode every text file is a file, those too).
func TestSlackMetadataIsNotMined(t *testing.T) {
	files := map[string]string{"export/users.json": fixture(t, "slack/users.json"),
		"export/channels.json":           fixture(t, "slack/channels.json"),
		"export/general/2023-11-14.json": fixture(t, "slack/general/2023-11-14.json"),
		"export/random/2023-11-15.json":  fixture(t, "slack/random/2023-11-15.json"),
		"app/users.json":                 `[{"id": 1, "name": "fixture user"}]`,
	}
	for _, mode := range []string{ModeAuto, ModeConvos, ModeProjects} {
		t.Run(mode, func(t *testing.T) {
			p := palacetest.OpenPalace(t)
			root := tree(t, files)
			sum, err := Run(context.Background(), p, root, Options{Wing: "w", Mode: mode})
			if err != nil {
				t.Fatal(err)
			}
			var sources []string
			speakers := false
			for _, d := range drawers(t, p.Store, "w") {
				rel, _ := filepath.Rel(root, d.Source)
				if !slices.Contains(sources, rel) {
					sources = append(sources, rel)
				}
				speakers = speakers || strings.Contains(d.Metadata, "Bobby")
			}
			slices.Sort(sources)
			want := []string{"app/users.json", "export/general/2023-11-14.json", "export/random/2023-11-15.json"}
			switch mode {
			case ModeConvos:
				want = want[1:] // app/users.json is no conversation
			case ModeProjects:
				want = []string{"app/users.json", "export/channels.json", "export/general/2023-11-14.json", "export/random/2023-11-15.json", "export/users.json"}
			}
			if !slices.Equal(sources, want) {
				t.Errorf("drawers from %v, want %v (skipped %v)", sources, want, sum.SkippedBy)
			}
			if mode != ModeProjects && (sum.SkippedBy[ReasonMetadata] != 2 || !speakers) {
				t.Errorf("skipped %v, speakers named from users.json: %v; want the two metadata files skipped and read", sum.SkippedBy, speakers)
			}
		})
	}
}

// With --mode convos the user named the files conversations: a short
// transcript (one "> " line) is one, not a skipped not_conversation.
func TestConvosModeMinesShortTranscripts(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	root := tree(t, map[string]string{
		"short.md":  "> Who signs off on the release?\n\nDana does, on Thursdays.\n",
		"people.md": "Alice: are we shipping?\nBob: tomorrow\n",
		"prose.md":  "# Plans\n\nNothing quoted, nobody speaks.\n",
	})
	sum, err := Run(ctx, p, root, Options{Wing: "c", Mode: ModeConvos})
	if err != nil {
		t.Fatal(err)
	}
	if sum.FilesMined != 2 || sum.SkippedBy[ReasonNotConversation] != 1 {
		t.Errorf("mined %d, skipped %v; want the two transcripts mined and the prose skipped", sum.FilesMined, sum.SkippedBy)
	}
	for _, d := range drawers(t, p.Store, "c") {
		if d.Kind != store.KindConversation {
			t.Errorf("%s is a %s drawer", d.Source, d.Kind)
		}
	}
	// The same file in auto mode is a project file: in a project, one
	// quoted line is just a quotation.
	q := palacetest.OpenPalace(t)
	if _, err := Run(ctx, q, filepath.Join(root, "short.md"), Options{Wing: "a"}); err != nil {
		t.Fatal(err)
	}
	if ds := drawers(t, q.Store, "a"); len(ds) != 1 || ds[0].Kind != store.KindFile {
		t.Errorf("auto mode: %+v", ds)
	}
}

// A text transcript's drawers hold the file's lines, verbatim, that their
// citation names: "> Who signs off?", not a rendering "user: Who signs off?".
func TestTextTranscriptDrawersAreVerbatim(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	meeting := fixture(t, "text/team-meeting.txt")
	root := tree(t, map[string]string{
		"short.md":          "> Who signs off?\n\nDana does.\n",
		"quote-session.md":  fixture(t, "text/quote-session.md"),
		"team-meeting.txt":  meeting,
		"long-session.md":   "> Explain the plan\n\n" + strings.Repeat("A line of the long answer, about fifty chars.\n", 60) + "\n> ok\n",
		"crlf-session.txt":  "> first\r\nreply one\r\n> second\r\nreply two\r\n> third\r\n",
		"secret-session.md": "> which token?\n\nUse GITHUB_TOKEN=ghp_" + secretTok(9, 36) + " for now.\n\n> ok\n\n> done\n",
	})
	if _, err := Run(ctx, p, root, Options{Wing: "t", Mode: ModeConvos}); err != nil {
		t.Fatal(err)
	}
	ds := drawers(t, p.Store, "t")
	if len(ds) < 6 {
		t.Fatalf("%d drawers", len(ds))
	}
	for _, d := range ds {
		b, err := os.ReadFile(d.Source)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
		if d.LineStart < 1 || d.LineEnd < d.LineStart || d.LineEnd > len(lines) {
			t.Errorf("%s: drawer cites lines %d-%d", filepath.Base(d.Source), d.LineStart, d.LineEnd)
			continue
		}
		want := strings.Join(lines[d.LineStart-1:d.LineEnd], "\n")
		got := strings.TrimSuffix(d.Content, "\n")
		if strings.Contains(want, "GITHUB_TOKEN") {
			if !strings.Contains(got, "GITHUB_TOKEN=[REDACTED:github-token]") || strings.Contains(got, "ghp_") {
				t.Errorf("%s: secret not redacted in %q", filepath.Base(d.Source), got)
			}
			continue
		}
		if got != want {
			t.Errorf("%s:%d-%d holds\n%q\nthe lines it cites read\n%q", filepath.Base(d.Source), d.LineStart, d.LineEnd, got, want)
		}
	}
	for _, d := range ds {
		if filepath.Base(d.Source) == "short.md" && (d.Content != "> Who signs off?\n\nDana does." || d.LineStart != 1 || d.LineEnd != 3) {
			t.Errorf("short.md drawer: %q at %d-%d", d.Content, d.LineStart, d.LineEnd)
		}
	}
}

// A front mining a folder inside a workspace passes the workspace's wing
// as DefaultWing; the folder's own palace.yaml still wins, and Wing over
// both.
func TestDefaultWing(t *testing.T) {
	root := tree(t, map[string]string{"plain/a.md": "alpha\n", "own/palace.yaml": "wing: own-wing\n", "own/b.md": "beta\n"})
	for _, tt := range []struct {
		dir, wing, def, want string
	}{
		{"plain", "", "workspace", "workspace"},
		{"plain", "", "", "plain"},
		{"own", "", "workspace", "own-wing"},
		{"own", "given", "workspace", "given"},
		{"plain/a.md", "", "workspace", "workspace"},
	} {
		p := palacetest.OpenPalace(t)
		sum, err := Run(context.Background(), p, filepath.Join(root, tt.dir), Options{Wing: tt.wing, DefaultWing: tt.def})
		if err != nil || sum.Wing != tt.want {
			t.Errorf("mine %s (wing %q, default %q) -> wing %v, %v; want %s", tt.dir, tt.wing, tt.def, sum.Wing, err, tt.want)
		}
	}
	if w, err := WingOfDir(filepath.Join(root, "own")); w != "own-wing" || err != nil {
		t.Errorf("WingOfDir(own) = %q, %v", w, err)
	}
	write(t, root, "bad/"+ConfigName, "wing: [unclosed\n")
	if _, err := WingOfDir(filepath.Join(root, "bad")); err == nil {
		t.Error("WingOfDir read a broken palace.yaml")
	}
}
