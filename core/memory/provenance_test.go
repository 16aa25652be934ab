package memory

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace/palacetest"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

// metaOf reads a drawer's metadata.
func metaOf(t *testing.T, p interface {
	GetDrawer(context.Context, string) (store.Drawer, error)
}, id string) map[string]any {
	t.Helper()
	d, err := p.GetDrawer(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if d.Metadata == "" {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(d.Metadata), &m); err != nil {
		t.Fatalf("metadata %q: %v", d.Metadata, err)
	}
	return m
}

// TestRememberStoresUpdatesAndProvenance: a note that corrects an earlier
// one keeps the link (metadata updates: the older id), so search and
// wake-up can put it first without comparing again, and a note saved in a
// session keeps the session and turns. A plain note keeps no metadata.
func TestRememberStoresUpdatesAndProvenance(t *testing.T) {
	p := palacetest.OpenPalace(t)
	old := remember(t, p, note("The retry policy of the payment client is 3 attempts.", "proj"), false)
	if !old.Added {
		t.Fatalf("first note not written: %+v", old)
	}
	if m := metaOf(t, p.Store, old.ID); len(m) != 0 {
		t.Errorf("a plain note got metadata %v", m)
	}
	n := note("Correction: the retry policy of the payment client is 5 attempts, not 3.", "proj")
	n.Provenance = store.Provenance{Session: "mcp-00aa", Turns: &store.TurnRange{From: 4, To: 6}}
	fix := remember(t, p, n, false)
	if !fix.Added || len(fix.Updates) == 0 || fix.Updates[0].ID != old.ID {
		t.Fatalf("correction: %+v; want it written, updating %s", fix, old.ID)
	}
	want := map[string]any{"updates": []any{old.ID}, "session": "mcp-00aa", "turns": map[string]any{"from": 4.0, "to": 6.0}}
	if m := metaOf(t, p.Store, fix.ID); !reflect.DeepEqual(m, want) {
		t.Errorf("correction's metadata %v, want %v", m, want)
	}
	bad := note("Another note.", "proj")
	bad.Provenance = store.Provenance{Turns: &store.TurnRange{From: 3, To: 1}}
	if _, err := rememberDefault(context.Background(), p, bad, false); err == nil || bad.Validate() == nil {
		t.Error("a turn range ending before it starts was taken")
	}
}

// TestDiaryKeepsProvenance: an entry written in a session keeps it beside
// the agent in its metadata.
func TestDiaryKeepsProvenance(t *testing.T) {
	p := palacetest.OpenPalace(t)
	res, err := WriteDiary(context.Background(), p, DiaryEntry{Agent: "Claude Code", Text: "Moved the retries to the client.",
		Wing: "proj", Provenance: store.Provenance{Session: "mcp-00bb"}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"agent": "Claude Code", "agent_id": "claude-code", "session": "mcp-00bb"}
	if m := metaOf(t, p.Store, res.ID); !reflect.DeepEqual(m, want) {
		t.Errorf("diary metadata %v, want %v", m, want)
	}
}

// TestSearchShowsTheCorrectionFirst: when a search hits a note and the
// correction that updates it, the correction comes first, whatever BM25
// thinks of their lengths, and says why; the other hits keep their order.
func TestSearchShowsTheCorrectionFirst(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t)
	old := remember(t, p, note("The retry policy of the payment client is 3 attempts.", "proj"), false)
	remember(t, p, note("Payment client timeouts are 30 seconds per attempt.", "proj"), false)
	fix := remember(t, p, note("Correction, after the incident review of the payment client: its retry policy is 5 attempts, not 3, "+
		"since the gateway drops one request in a hundred under load.", "proj"), false)
	if len(fix.Updates) == 0 || fix.Updates[0].ID != old.ID {
		t.Fatalf("correction does not update %s: %+v", old.ID, fix.Updates)
	}
	for _, mode := range []string{search.ModeLexical, search.ModeAuto} {
		res, err := search.Run(ctx, p, search.Request{Query: "retry policy payment client", Mode: mode, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, h := range res.Hits {
			ids = append(ids, h.ID)
		}
		iFix, iOld := slices.Index(ids, fix.ID), slices.Index(ids, old.ID)
		if iFix < 0 || iOld < 0 || iFix > iOld {
			t.Fatalf("%s: hits %v: want the correction %s before %s", mode, ids, fix.ID, old.ID)
		}
		if why := res.Hits[iFix].Why; !strings.Contains(why, "may update "+old.ID) {
			t.Errorf("%s: the correction's why is %q", mode, why)
		}
	}
}
