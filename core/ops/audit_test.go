package ops

import (
	"context"
	"strings"
	"testing"

	"github.com/palace-dev/palace/core/palace/palacetest"
)

func TestAudit(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t, withoutModel(t))
	fileNote(t, p, "proj", "a note")
	for _, c := range []struct {
		req   AuditRequest
		field string
	}{
		{AuditRequest{Actor: "robot"}, "actor"},
		{AuditRequest{Since: "last tuesday"}, "since"},
	} {
		if _, err := Audit(ctx, p, c.req); Classify(err) != Invalid || !strings.HasPrefix(err.Error(), c.field+" ") {
			t.Errorf("%+v: %v", c.req, err)
		}
	}
	es, err := Audit(ctx, p, AuditRequest{Actor: "cli", Since: "2000-01-01"})
	if err != nil || len(es) == 0 || es[len(es)-1].Actor != "cli" {
		t.Errorf("audit: %+v %v", es, err)
	}
	if es, err := Audit(ctx, p, AuditRequest{Actor: "hook"}); err != nil || es == nil || len(es) != 0 {
		t.Errorf("audit of an actor that never wrote: %#v %v", es, err)
	}
}
