package mcp

import (
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
)

// A relative source means the same on every front: a file or folder below
// the caller's folder (here the client's only root; the CLI's working
// directory, the LSP's only folder) when it names one, else a source as
// written (a note's). Before, MCP compared "src/" with absolute paths and
// found nothing.
func TestSearchRelativeSourceIsTheRoots(t *testing.T) {
	proj := t.TempDir()
	writeFile(t, proj, "src/pay.go", "package pay\n\n// tokharbour settles payments\n")
	writeFile(t, proj, "docs/pay.md", "tokharbour is explained here.\n")
	p := palacetest.OpenPalace(t, palace.Options{Actor: "mcp"})
	c := startStdio(t, newTestServer(t, p, Options{Profile: ProfileFull}), []string{proj})
	c.ok("palace_mine", map[string]any{"path": proj}, nil)
	var res struct {
		Hits []struct{ Source string }
	}
	c.ok("palace_search", map[string]any{"query": "tokharbour", "source": "src/"}, &res)
	if len(res.Hits) != 1 || !strings.HasSuffix(res.Hits[0].Source, "/src/pay.go") {
		t.Errorf("source src/ below the root: %+v, want src/pay.go alone", res.Hits)
	}

	// A source that is no path below the root is compared as written: a
	// note's.
	c.ok("palace_remember", map[string]any{"content": "tokharbour decisions are recorded as ADRs.", "source": "ADR-7"}, nil)
	c.ok("palace_search", map[string]any{"query": "tokharbour", "source": "ADR"}, &res)
	if len(res.Hits) != 1 || res.Hits[0].Source != "ADR-7" {
		t.Errorf("source ADR: %+v, want the note alone", res.Hits)
	}
}
