package kg

import (
	"context"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/store"
)

// TestAcceptInTheOrderSaid: a conversation mined after another can hold
// what was said before it. Accepting in bulk goes by the day each fact
// was said, so the later owner supersedes the earlier one instead of the
// earlier one being blocked by it, and a retraction said last ends the
// fact accepted before it in the same call.
func TestAcceptInTheOrderSaid(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	march := time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)
	may := time.Date(2026, 5, 6, 10, 0, 0, 0, time.UTC)
	june := time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)
	// Stored first, said later; named objects so both are sure (0.9).
	said(t, st, "orion", store.KindConversation, "Kai: Dana owns Billing now.", may)
	said(t, st, "orion", store.KindConversation, "Kai: Carol owns Billing. Alice works on Orion.", march)
	said(t, st, "orion", store.KindConversation, "Kai: Alice does not work on Orion anymore.", june)
	if _, err := Extract(ctx, st, ExtractOptions{MinConfidence: 0.7}); err != nil {
		t.Fatal(err)
	}
	dec, err := AcceptAbove(ctx, st, 0.8, AddOptions{})
	if err != nil {
		t.Fatalf("accept above 0.8: %v (%+v), want every proposal accepted", err, dec)
	}
	owners, err := st.KGQuery(ctx, "billing", nil, DirOut)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range owners {
		got = append(got, Describe(o))
	}
	if len(owners) != 2 || owners[0].Object != "Carol" || owners[0].ValidTo == nil || !owners[0].ValidTo.Equal(day(may)) ||
		owners[1].Object != "Dana" || owners[1].ValidTo != nil {
		t.Errorf("Billing's owners %q: want Carol from March until May, then Dana", got)
	}
	alice, err := st.KGQuery(ctx, "alice", nil, DirOut)
	if err != nil {
		t.Fatal(err)
	}
	if len(alice) != 1 || alice[0].ValidTo == nil || !alice[0].ValidTo.Equal(day(june)) {
		t.Errorf("Alice's facts %+v: want works_on Orion ended on the day it was taken back", alice)
	}
}

func day(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC) }
