package pricing

import "testing"

var discountCases = []struct{ price, percent, want int }{
	{100, 10, 90}, {100, 0, 100}, {100, 100, 0}, {99, 50, 50},
}

func TestApply(t *testing.T) {
	for _, c := range discountCases {
		if got := Apply(c.price, Discount{c.percent}); got != c.want {
			t.Errorf("Apply(%d, %d%%) = %d, want %d", c.price, c.percent, got, c.want)
		}
	}
}
