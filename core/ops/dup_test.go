package ops

import (
	"context"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace/palacetest"
)

func TestDupRefusesBadInput(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t, withoutModel(t))
	fileNote(t, p, "proj", "a note")
	for _, c := range []struct {
		req   DupRequest
		field string
	}{
		{DupRequest{Text: "  "}, "text"},
		{DupRequest{Text: "x", Limit: -1}, "limit"},
		{DupRequest{Text: "x", Limit: MaxDupLimit + 1}, "limit"},
		{DupRequest{Text: "x", Wing: "nope"}, "wing"},
	} {
		if _, err := Dup(ctx, p, c.req); Classify(err) != Invalid || !strings.HasPrefix(err.Error(), c.field+" ") {
			t.Errorf("%+v: %v", c.req, err)
		}
	}
}
