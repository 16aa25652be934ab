package palace

import (
	"testing"

	"github.com/palace-dev/palace/core/audit"
	"github.com/palace-dev/palace/core/embed"
)

// Home and SetActor are what a front needs of the store without selecting
// it: the folder it opened, and the name its writes are audited under.
func TestHomeAndSetActor(t *testing.T) {
	home := t.TempDir()
	p, err := Open(home, Options{Embed: &embed.Config{Backend: "none"}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if got := p.Home(); got != p.Store.Home() || got == "" {
		t.Errorf("Home() = %q, want the store's home %q", got, p.Store.Home())
	}
	p.SetActor("mcp", "some-client")
	addDrawer(t, p, "a.go", "package a", "")
	es, err := p.Store.AuditLog().Read(audit.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(es) == 0 {
		t.Fatal("no audit line for the write")
	}
	if last := es[len(es)-1]; last.Actor != "mcp" || last.Client != "some-client" {
		t.Errorf("audit line by %q/%q, want mcp/some-client", last.Actor, last.Client)
	}
}
