package memory

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace/palacetest"
)

// Issue 16: a correction or another fact scored as a near duplicate was
// refused, and the protocol told the agent the memory was already there.
// A note that differs from a close older one in meaning is written and
// names the older one as a possible update; one that differs only in
// wording is still refused.
func TestRememberCorrectionsAreWritten(t *testing.T) {
	p := palacetest.OpenPalace(t)
	cases := []struct {
		name, old, new string
		differs        []string // nil: a duplicate, refused
	}{
		{"negation", "Use port 8080 for the admin API", "Do not use port 8080 for the admin API", []string{DiffNegation}},
		{"never", "Run the migrations before the deploy", "Never run the migrations before the deploy", []string{DiffNegation}},
		{"negation moved", "Use pnpm, not npm, for the monorepo", "Use npm, not pnpm, for the monorepo", []string{DiffNegation}},
		{"port", "Use port 8080 for the admin API", "Use port 9090 for the admin API", []string{DiffNumber}},
		{"number word", "Installs took eleven minutes on CI before we moved to pnpm", "Installs took twelve minutes on CI before we moved to pnpm", []string{DiffNumber}},
		{"environment", "Use port 8080 for the admin API in production", "Use port 8080 for the admin API in staging", []string{DiffEnvironment}},
		{"date", "The API freeze for the mobile release starts on 2026-05-01", "The API freeze for the mobile release starts on 2026-06-01", []string{DiffDate}},
		{"weekday", "The shared staging database is rebuilt every Monday night from backups", "The shared staging database is rebuilt every Friday night from backups", []string{DiffDate}},
		{"version", "Pin the protobuf plugin to v1.2 in the build image and CI", "Pin the protobuf plugin to v1.3 in the build image and CI", []string{DiffVersion}},
		{"person", "Ask Alice before changing the billing service schema in the payments module", "Ask Bob before changing the billing service schema in the payments module", []string{DiffName}},
		{"identifier", "The retry loop reads max_conns from the pool config at startup", "The retry loop reads max_idle from the pool config at startup", []string{DiffName}},
		{"two at once", "Use port 8080 for the admin API in production", "Do not use port 9090 for the admin API in production", []string{DiffNegation, DiffNumber}},

		{"reworded negation", "Do not use port 8080 for the admin API", "Don't use port 8080 for the admin API", nil},
		{"case and punctuation", "Use port 8080 for the admin API in production", "use port 8080 for the ADMIN api in production!", nil},
		{"reordered", "Use port 8080 for the admin API", "For the admin API, use port 8080.", nil},
		// An added qualifier narrows or changes what the note says.
		{"word added", "Use port 8080 for the admin API", "Use port 8080 for the admin API endpoints", []string{DiffWord}},
		{"digits for words", "Installs took eleven minutes on CI before we moved to pnpm", "Installs took 11 minutes on CI before we moved to pnpm", nil},
		{"prod for production", "Use port 8080 for the admin API in production", "Use port 8080 for the admin API in prod", nil},
		{"v for version", "Pin the protobuf plugin to v1.2 in the build image and CI", "Pin the protobuf plugin to 1.2 in the build image and CI", nil},
		{"possessive", "Get Alice's approval before changing the billing service schema", "Get approval from Alice before changing the billing service schema", nil},
		{"sentence start", "Deploys go through the release train on the shared cluster", "The release train deploys go through on the shared cluster", nil},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wing := fmt.Sprintf("w%d", i)
			old := remember(t, p, note(c.old, wing), false)
			before := drawerCount(t, p)
			res := remember(t, p, note(c.new, wing), false)
			if c.differs == nil {
				if res.Added || len(res.Duplicates) != 1 || res.Duplicates[0].ID != old.ID || res.Duplicates[0].Kind != "near" || len(res.Updates) != 0 {
					t.Fatalf("a rewording should be refused as a near duplicate of %s: %+v", old.ID, res)
				}
				if drawerCount(t, p) != before {
					t.Errorf("a refused duplicate was written")
				}
				return
			}
			if !res.Added || len(res.Duplicates) != 0 || len(res.Updates) != 1 || !strings.HasPrefix(res.Reason, "kept: differs from "+old.ID+" in ") {
				t.Fatalf("want the note written as an update of %s: %+v", old.ID, res)
			}
			u := res.Updates[0]
			if u.ID != old.ID || !reflect.DeepEqual(u.Differs, c.differs) || u.Method != "lexical" ||
				u.Similarity < DefaultLexicalThreshold || u.Preview != c.old {
				t.Errorf("update %+v, want %s differing in %q", u, old.ID, c.differs)
			}
			if drawerCount(t, p) != before+1 {
				t.Errorf("the update was not written")
			}
		})
	}
}

// The vector finder's neighbours go through the same decision.
func TestRememberVectorNeighbourDiffering(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	stored := remember(t, p, note("Deploy the admin API to staging first.", "proj"), false)
	d, err := p.Store.GetDrawer(ctx, stored.ID)
	if err != nil {
		t.Fatal(err)
	}
	finder := []NearFinder{fakeFinder{ns: []Neighbour{neighbour(d, 0.95)}}}
	res, err := Remember(ctx, p, note("Deploy the admin API to production first.", "proj"), RememberOptions{Near: finder})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Added || len(res.Duplicates) != 0 || len(res.Updates) != 1 || res.Updates[0].ID != stored.ID ||
		res.Updates[0].Method != "vector" || !reflect.DeepEqual(res.Updates[0].Differs, []string{DiffEnvironment}) {
		t.Errorf("vector neighbour in another environment: %+v", res)
	}
	res, err = Remember(ctx, p, note("First, deploy the admin API to staging.", "proj"), RememberOptions{Near: finder})
	if err != nil {
		t.Fatal(err)
	}
	if res.Added || len(res.Duplicates) != 1 || len(res.Updates) != 0 {
		t.Errorf("vector neighbour differing in wording: %+v", res)
	}
}

func TestDifferences(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want []string
	}{
		{"Use port 8080", "Use port 8080", nil},
		{"Do not use port 8080", "Use port 8080", []string{DiffNegation}},
		{"We no longer use port 8080", "We use port 8080", []string{DiffNegation}},
		{"It isn't in the cache", "It is not in the cache", nil},
		// What is negated is part of the negation.
		{"It is not in the cache", "It is not in the index", []string{DiffNegation}},
		{"Use pnpm, not npm", "Use pnpm, not yarn", []string{DiffNegation}},
		{"Restart at 14:30", "Restart at 15:30", []string{DiffDate}},
		{"Release in Q3", "Release in Q4", []string{DiffDate}},
		{"Released on 05/01/2026", "Released on 06/01/2026", []string{DiffDate}},
		{"Builds use go1.22.3", "Builds use go1.23.0", []string{DiffVersion}},
		{"Bump to 1.2.3", "Bump to 1.2.4", []string{DiffVersion}},
		{"Timeout is 3.5 seconds", "Timeout is 4 seconds", []string{DiffNumber}},
		{"Store blobs in S3", "Store blobs in GCS", []string{DiffName}},
		{"The handler calls getUser", "The handler calls getAccount", []string{DiffName}},
		{"Read it from net/http", "Read it from net/rpc", []string{DiffName}},
		{"Runs in dev", "Runs in development", nil},
		{"Runs in dev", "Runs in QA", []string{DiffEnvironment}},
		{"Use a cache, e.g. Redis", "Use a cache, e.g. Memcached", []string{DiffName}},
		{"Use a cache, e.g. a map", "Use a cache, i.e. a map", nil},
		{"端口8080用于管理接口", "端口9090用于管理接口", []string{DiffNumber}},
		// A wrapped line is not a new sentence; a list item is.
		{"Ask\nAlice first", "Ask\nBob first", []string{DiffName}},
		{"Steps:\n- Build first", "Steps:\n- Test first", []string{DiffEnvironment, DiffWord}},
		// A synonym is a changed word: no rule tells it from an antonym.
		{"Steps:\n- Build first", "Steps:\n- Compile first", []string{DiffWord}},
	} {
		if got := Differences(c.a, c.b); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Differences(%q, %q) = %q, want %q", c.a, c.b, got, c.want)
		}
		if got := Differences(c.b, c.a); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Differences(%q, %q) = %q, want %q (not symmetric)", c.b, c.a, got, c.want)
		}
	}
}

// A text of nothing but negations and stop words is read in one pass.
func TestDifferencesNegationRun(t *testing.T) {
	long := strings.Repeat("not the ", 50000)
	if got := Differences(long, long+"cache"); !reflect.DeepEqual(got, []string{DiffNegation}) {
		t.Errorf("got %q", got)
	}
}
