package ops

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/store"
)

func addAgent(t *testing.T, p *palace.Palace, r AgentAddRequest) Agent {
	t.Helper()
	res, err := AgentAdd(context.Background(), p, r)
	if err != nil || res.Action != AgentAdded {
		t.Fatalf("add %+v: %+v %v", r, res, err)
	}
	return res.Agent
}

func listAgents(t *testing.T, p *palace.Palace) []Agent {
	t.Helper()
	res, err := AgentList(context.Background(), p, AgentListRequest{})
	if err != nil || res.Agents == nil {
		t.Fatalf("list: %+v %v", res, err)
	}
	return res.Agents
}

func TestAgentAddListRm(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	p, err := palace.Open(home, withoutModel(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := listAgents(t, p); len(got) != 0 {
		t.Fatalf("a new palace lists agents: %+v", got)
	}
	// The diary wing defaults to the one palace_diary files the agent's
	// entries in.
	rev := addAgent(t, p, AgentAddRequest{Name: " Reviewer ", Focus: "  reviews Go changes for races ", Wing: "api"})
	if want := (Agent{Name: "Reviewer", Focus: "reviews Go changes for races", Wing: "api", Diary: DiaryWingPrefix + "reviewer"}); rev != want {
		t.Errorf("added %+v, want %+v", rev, want)
	}
	arch := addAgent(t, p, AgentAddRequest{Name: "architect", Focus: "keeps the layering", Diary: "design"})
	want := []Agent{arch, rev} // by id
	if got := listAgents(t, p); !reflect.DeepEqual(got, want) {
		t.Errorf("list %+v, want %+v", got, want)
	}
	// A diary entry written under the agent's name lands in its diary wing,
	// the registered one; a wing named still wins.
	w, err := DiaryWrite(ctx, p, DiaryWriteRequest{Agent: "reviewer", Text: "found a race in the pool"})
	if err != nil || w.Wing != rev.Diary {
		t.Errorf("diary of the reviewer: %+v %v", w, err)
	}
	if w, err := DiaryWrite(ctx, p, DiaryWriteRequest{Agent: "Architect", Text: "the store stays the only SQL"}); err != nil || w.Wing != "design" {
		t.Errorf("diary of the architect: %+v %v", w, err)
	}
	if w, err := DiaryWrite(ctx, p, DiaryWriteRequest{Agent: "architect", Text: "a note for api", Wing: "api"}); err != nil || w.Wing != "api" {
		t.Errorf("diary of the architect in a wing named: %+v %v", w, err)
	}

	// The registry persists across a reopen.
	p.Close()
	if p, err = palace.Open(home, withoutModel(t)); err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if got := listAgents(t, p); !reflect.DeepEqual(got, want) {
		t.Errorf("after reopening: %+v, want %+v", got, want)
	}

	// A name already registered, by id, is refused, naming the stored one;
	// nothing changes.
	_, err = AgentAdd(ctx, p, AgentAddRequest{Name: "REVIEWER", Focus: "something else"})
	if Classify(err) != Invalid || !strings.HasPrefix(err.Error(), `agent "REVIEWER" is already registered as "Reviewer"`) {
		t.Errorf("duplicate: %v", err)
	}
	if got := listAgents(t, p); !reflect.DeepEqual(got, want) {
		t.Errorf("after a refused duplicate: %+v", got)
	}

	// Rm matches by id and returns the agent as it was; the diary stays.
	rm, err := AgentRm(ctx, p, AgentRmRequest{Name: "reviewer"})
	if err != nil || rm.Action != AgentRemoved || rm.Agent != rev {
		t.Errorf("rm: %+v %v", rm, err)
	}
	if got := listAgents(t, p); !reflect.DeepEqual(got, []Agent{arch}) {
		t.Errorf("after rm: %+v", got)
	}
	if d, err := DiaryRead(ctx, p, DiaryReadRequest{Agent: "reviewer"}); err != nil || len(d.Entries) != 1 {
		t.Errorf("the removed agent's diary: %+v %v", d, err)
	}
	_, err = AgentRm(ctx, p, AgentRmRequest{Name: "reviewer"})
	if Classify(err) != NotFound || !strings.Contains(err.Error(), "registered: architect") {
		t.Errorf("rm of an agent not registered: %v", err)
	}

	// Each add and rm is audited with the agent's id; refusals are not.
	es, err := Audit(ctx, p, AuditRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, e := range es {
		if strings.HasPrefix(e.Op, "agent.") {
			ops = append(ops, e.Op+" "+strings.Join(e.IDs, ","))
		}
	}
	if want := []string{"agent.add reviewer", "agent.add architect", "agent.rm reviewer"}; !reflect.DeepEqual(ops, want) {
		t.Errorf("audit %q, want %q", ops, want)
	}
}

func TestAgentBadInput(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t, withoutModel(t))
	ok := AgentAddRequest{Name: "reviewer", Focus: "reviews"}
	with := func(f func(*AgentAddRequest)) AgentAddRequest { r := ok; f(&r); return r }
	for _, c := range []struct {
		what, field string
		r           AgentAddRequest
	}{
		{"blank name", "agent", with(func(r *AgentAddRequest) { r.Name = "  " })},
		{"slash in the name", "agent", with(func(r *AgentAddRequest) { r.Name = "a/b" })},
		{"quote in the name", "agent", with(func(r *AgentAddRequest) { r.Name = `a"b` })},
		{"no letter or digit", "agent", with(func(r *AgentAddRequest) { r.Name = "..." })},
		{"name too long", "agent", with(func(r *AgentAddRequest) { r.Name = strings.Repeat("a", MaxAgentBytes+1) })},
		{"control character", "agent", with(func(r *AgentAddRequest) { r.Name = "a\tb" })},
		{"no focus", "focus", with(func(r *AgentAddRequest) { r.Focus = " " })},
		{"two-line focus", "focus", with(func(r *AgentAddRequest) { r.Focus = "a\nb" })},
		{"focus too long", "focus", with(func(r *AgentAddRequest) { r.Focus = strings.Repeat("a", MaxFocusBytes+1) })},
		{"bad wing", "wing", with(func(r *AgentAddRequest) { r.Wing = "a/b" })},
		{"bad diary", "diary", with(func(r *AgentAddRequest) { r.Diary = `"x"` })},
	} {
		if err := c.r.Validate(); Classify(err) != Invalid || !strings.HasPrefix(err.Error(), c.field+" ") {
			t.Errorf("%s: validate: %v", c.what, err)
		}
		if _, err := AgentAdd(ctx, p, c.r); Classify(err) != Invalid || !strings.HasPrefix(err.Error(), c.field+" ") {
			t.Errorf("%s: add: %v", c.what, err)
		}
	}
	if _, err := AgentRm(ctx, p, AgentRmRequest{Name: " "}); Classify(err) != Invalid || !strings.HasPrefix(err.Error(), "agent ") {
		t.Errorf("rm of a blank name: %v", err)
	}
	if got := listAgents(t, p); len(got) != 0 {
		t.Errorf("refused adds registered %+v", got)
	}
}

// The registry is listed by status and carried by a whole-palace export
// only: it names wings from all over the palace.
func TestAgentsStatusAndExport(t *testing.T) {
	ctx := context.Background()
	a := palacetest.OpenPalace(t, withoutModel(t))
	fileNote(t, a, "api", "the pool is sized by GOMAXPROCS")
	rev := addAgent(t, a, AgentAddRequest{Name: "reviewer", Focus: "reviews Go changes", Wing: "api"})
	st, err := Status(ctx, a, StatusRequest{})
	if err != nil || !reflect.DeepEqual(st.Agents, []Agent{rev}) {
		t.Errorf("status agents: %+v %v", st.Agents, err)
	}
	if st, err := Status(ctx, palacetest.OpenPalace(t, withoutModel(t)), StatusRequest{}); err != nil || st.Agents == nil || len(st.Agents) != 0 {
		t.Errorf("status of a palace without agents: %#v %v", st.Agents, err)
	}

	export := func(wing string) string {
		t.Helper()
		var buf bytes.Buffer
		if _, err := Export(ctx, a, ExportRequest{Wing: wing}, &buf); err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(t.TempDir(), "export.jsonl")
		if err := os.WriteFile(file, buf.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		return file
	}
	whole, wing := export(""), export("api")
	b := palacetest.OpenPalace(t, withoutModel(t))
	if res, err := Import(ctx, b, ImportRequest{File: wing}); err != nil || len(listAgents(t, b)) != 0 {
		t.Errorf("a one-wing export carried the agents: %+v %v %+v", res, err, listAgents(t, b))
	}
	if res, err := Import(ctx, b, ImportRequest{File: whole}); err != nil || res.Added["setting"] != 1 {
		t.Errorf("whole-palace import: %+v %v", res, err)
	}
	if got := listAgents(t, b); !reflect.DeepEqual(got, []Agent{rev}) {
		t.Errorf("agents after import: %+v", got)
	}

	// A palace that had agents and removed them all takes the file's; one
	// with its own keeps them and reports the conflict.
	c := palacetest.OpenPalace(t, withoutModel(t))
	addAgent(t, c, AgentAddRequest{Name: "gone", Focus: "x"})
	if _, err := AgentRm(ctx, c, AgentRmRequest{Name: "gone"}); err != nil {
		t.Fatal(err)
	}
	if _, err := Import(ctx, c, ImportRequest{File: whole}); err != nil || !reflect.DeepEqual(listAgents(t, c), []Agent{rev}) {
		t.Errorf("import into an emptied registry: %v %+v", err, listAgents(t, c))
	}
	d := palacetest.OpenPalace(t, withoutModel(t))
	own := addAgent(t, d, AgentAddRequest{Name: "architect", Focus: "layers"})
	res, err := Import(ctx, d, ImportRequest{File: whole})
	if err != nil || !reflect.DeepEqual(res.Conflicts, []string{"setting " + store.SettingAgents}) || !reflect.DeepEqual(listAgents(t, d), []Agent{own}) {
		t.Errorf("import into a palace with its own agents: %+v %v %+v", res, err, listAgents(t, d))
	}
}
