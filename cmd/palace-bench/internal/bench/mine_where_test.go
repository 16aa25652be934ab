package bench

import (
	"strings"
	"testing"
)

// bench mine says where the cold mine's time went: the writer against the
// floor with its parts, and the parse CPU of each language in order.
func TestWhereTheTimeWent(t *testing.T) {
	m := MineRatios{ColdS: 10, FloorS: 3, ColdWriteS: 6, WriteRatio: 2, InsertS: 2.5, AuditS: 0.25, CommitS: 2,
		ParseCPU: map[string]float64{"python": 0.5, "go": 4}}
	got := m.WhereTheTimeWent()
	for _, want := range []string{
		"writer in its transactions 6.00s of 10.00s (2.00x the floor): inserts 2.50s, audit 0.25s, commits 2.00s, the rest 1.25s\n",
		"workers' CPU in core/code: go 4.00s python 0.50s\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("got\n%s\nwant a line\n%s", got, want)
		}
	}
}
