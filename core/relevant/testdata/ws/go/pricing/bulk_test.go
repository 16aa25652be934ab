package pricing

import "testing"

// Bulk orders reuse discountCases with every price doubled.
func TestApplyBulk(t *testing.T) {
	for _, c := range discountCases {
		if got := Apply(2*c.price, Discount{c.percent}); got > 2*c.want+1 {
			t.Errorf("Apply bulk %d: %d", c.price, got)
		}
	}
}
