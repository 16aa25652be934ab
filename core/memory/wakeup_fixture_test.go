package memory

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

var updateWake = flag.Bool("update", false, "rewrite the want sections of testdata/wakeup/*.txt from this build")

// TestWakeUpFixtures runs the scenarios of testdata/wakeup: each file
// builds a palace (its "-- palace --" section, one statement a line, see
// buildFixture) and states the exact text of each wake-up asked in a
// "-- want ARGS --" section (ARGS: wing=W budget=N format=F). Each
// wake-up is asked twice, the second time from the palace reopened, and
// must be the same.
func TestWakeUpFixtures(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "wakeup", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txt"), func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			secs := splitFixture(t, string(raw))
			p := palacetest.OpenPalace(t)
			buildFixture(t, p, secs[0].body)
			home := p.Store.Home()
			var out strings.Builder
			out.WriteString(secs[0].raw)
			for _, s := range secs[1:] {
				r := fixtureRequest(t, s.args)
				got := wake(t, p, r)
				q, err := palace.Open(home, palace.Options{Embed: &embed.Config{LibDirs: []string{}}})
				if err != nil {
					t.Fatal(err)
				}
				again := wake(t, q, r)
				q.Close()
				if !reflect.DeepEqual(got, again) {
					t.Errorf("%s: the reopened palace wakes up differently:\n%s\n---\n%s", s.args, got.Text, again.Text)
				}
				if got.Tokens > got.Budget {
					t.Errorf("%s: %d tokens over the budget %d", s.args, got.Tokens, got.Budget)
				}
				if *updateWake {
					fmt.Fprintf(&out, "-- want %s --\n%s\n", s.args, got.Text)
					continue
				}
				if want := strings.TrimSuffix(s.body, "\n"); got.Text != want {
					t.Errorf("%s:\n--- got ---\n%s\n--- want ---\n%s", s.args, got.Text, want)
				}
			}
			if *updateWake {
				if err := os.WriteFile(file, []byte(out.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

type fixtureSection struct {
	args string // after "want"
	body string
	raw  string // the palace section as written, comments included
}

// splitFixture cuts a fixture into its palace section (everything up to
// the first "-- want" line) and its want sections.
func splitFixture(t *testing.T, s string) []fixtureSection {
	t.Helper()
	var secs []fixtureSection
	cur := &fixtureSection{}
	var raw strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		l := strings.TrimRight(line, "\n")
		if args, ok := strings.CutPrefix(l, "-- want "); ok && strings.HasSuffix(args, " --") {
			if len(secs) == 0 {
				cur.raw = raw.String()
			}
			secs = append(secs, *cur)
			cur = &fixtureSection{args: strings.TrimSuffix(args, " --")}
			continue
		}
		if len(secs) == 0 {
			raw.WriteString(line)
		}
		cur.body += line
	}
	secs = append(secs, *cur)
	if len(secs) < 2 {
		t.Fatal("fixture has no want section")
	}
	return secs
}

func fixtureRequest(t *testing.T, args string) WakeRequest {
	t.Helper()
	var r WakeRequest
	for _, kv := range strings.Fields(args) {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "wing":
			r.Wing = v
		case "format":
			r.Format = v
		case "budget":
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatal(err)
			}
			r.Budget = n
		default:
			t.Fatalf("unknown request argument %q", kv)
		}
	}
	return r
}

// buildFixture writes a fixture's palace. Each line is one statement;
// "#" starts a comment line; in TEXT, "\n" is a line break and "\t" a tab. Times are
// RFC 3339 or YYYY-MM-DD.
//
//	identity [WING]: TEXT                       the identity file (global, or WING's)
//	note WING IMPORTANCE TIME [ROOM]: TEXT      remember (forced: duplicates are scenarios)
//	diary WING AGENT TOPIC TIME: TEXT           a diary entry filed in WING
//	fact SUBJECT PREDICATE OBJECT FROM [TO]     a knowledge-graph fact (TO "-" for none)
//	drawer KIND WING ROOM SOURCE TIME: TEXT     a mined drawer (KIND file or conversation)
//	agent NAME WING DIARY: FOCUS                a specialist agent ("-" for no wing or diary)
func buildFixture(t *testing.T, p *palace.Palace, src string) {
	t.Helper()
	ctx := context.Background()
	home := p.Store.Home()
	for n, line := range strings.Split(src, "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		head, text, _ := strings.Cut(line, ": ")
		text = strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(text)
		f := strings.Fields(head)
		fail := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatalf("line %d %q: %v", n+1, line, err)
			}
		}
		switch f[0] {
		case "identity":
			path := filepath.Join(home, IdentityFile)
			if len(f) == 2 {
				fail(os.MkdirAll(filepath.Join(home, IdentityDir), 0o700))
				path = filepath.Join(home, IdentityDir, f[1]+".md")
			}
			fail(os.WriteFile(path, []byte(text+"\n"), 0o600))
		case "note":
			imp, err := strconv.Atoi(f[2])
			fail(err)
			room := ""
			if len(f) > 4 {
				room = f[4]
			}
			_, err = rememberDefault(ctx, p, Note{Wing: f[1], Importance: imp, At: fixtureTime(t, f[3]), Room: room, Text: text}, true)
			fail(err)
		case "diary":
			_, err := WriteDiary(ctx, p, DiaryEntry{Wing: f[1], Agent: f[2], Topic: f[3], At: fixtureTime(t, f[4]), Text: text})
			fail(err)
		case "fact":
			fact := kg.Fact{Subject: f[1], Predicate: f[2], Object: f[3], ValidFrom: f[4]}
			if len(f) > 5 && f[5] != "-" {
				fact.ValidTo = f[5]
			}
			_, err := kg.Add(ctx, p.Store, fact, kg.AddOptions{})
			fail(err)
		case "drawer":
			at := fixtureTime(t, f[5])
			h := store.ContentHash(text)
			meta := "{}"
			if f[1] == store.KindConversation {
				meta = `{"speakers":["user","assistant","tool"]}`
			}
			_, err := p.Store.InsertDrawers(ctx, []store.Drawer{{ID: store.DrawerID(f[2], f[4], n, h), Wing: f[2], Room: f[3],
				Kind: f[1], Source: f[4], LineStart: 1, LineEnd: 1 + strings.Count(text, "\n"), Content: text, ContentHash: h,
				CreatedAt: at, OccurredAt: at, Metadata: meta}})
			fail(err)
		case "agent":
			a := Agent{Name: f[1], Focus: text}
			if f[2] != "-" {
				a.Wing = f[2]
			}
			if f[3] != "-" {
				a.Diary = f[3]
			}
			_, err := AddAgent(ctx, p, a)
			fail(err)
		default:
			t.Fatalf("line %d: unknown statement %q", n+1, f[0])
		}
	}
}

func fixtureTime(t *testing.T, s string) time.Time {
	t.Helper()
	for _, layout := range []string{time.RFC3339, "2006-01-02"} {
		if at, err := time.Parse(layout, s); err == nil {
			return at
		}
	}
	t.Fatalf("bad time %q", s)
	return time.Time{}
}
