package ops

import (
	"context"
	"testing"

	"github.com/palace-dev/palace/core/palace/palacetest"
)

func TestDoctorAndRepairOnAHealthyPalace(t *testing.T) {
	ctx := context.Background()
	p := palacetest.OpenPalace(t, withoutModel(t))
	fileNote(t, p, "proj", "a note")
	d, err := Doctor(ctx, p, DoctorRequest{})
	if err != nil || !d.OK || d.Integrity != "ok" || len(d.Failed) != 0 || len(d.Checks) != 6 || d.Schema != d.Supported {
		t.Fatalf("doctor: %+v %v", d, err)
	}
	r, err := Repair(ctx, p, RepairRequest{})
	if err != nil || !r.OK || r.FTSRebuilt || r.Reindexed || len(r.Checks) != 6 {
		t.Fatalf("repair: %+v %v", r, err)
	}
}
