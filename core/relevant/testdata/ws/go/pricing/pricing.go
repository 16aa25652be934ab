// Package pricing turns list prices into what a customer pays.
package pricing

// Discount is a share taken off a price, in percent.
type Discount struct {
	Percent int
}

// Apply takes the discount off a price in cents, rounding down, and never
// returns less than zero.
func Apply(price int, d Discount) int {
	off := price * d.Percent / 100
	if off > price {
		return 0
	}
	return price - off
}

// New is a discount of percent.
func New(percent int) Discount {
	return Discount{Percent: percent}
}
